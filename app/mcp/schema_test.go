package mcp

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"frontdesk/app/keyauth"
	"frontdesk/db"
)

// Each tool's input schema (what a model reads) must describe exactly the arguments its handler
// decodes, with a description for each; and docs/mcp.md must document every tool and argument.
func TestToolSchemasMatchArguments(t *testing.T) {
	s := New(&db.DB{}, Options{Keys: &keyauth.Keys{}})
	s.sdkServer()
	doc, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.tools) != 15 {
		t.Fatalf("%d tools registered, want 15", len(s.tools))
	}
	for _, tl := range s.tools {
		var fields []string
		for f := range tl.args.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields = append(fields, name)
		}
		var props []string
		for name, p := range tl.spec.input.Properties {
			props = append(props, name)
			if p.Description == "" {
				t.Errorf("%s.%s has no description", tl.spec.name, name)
			}
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("docs/mcp.md does not mention argument %s of %s", name, tl.spec.name)
			}
		}
		slices.Sort(fields)
		slices.Sort(props)
		if !slices.Equal(fields, props) {
			t.Errorf("%s: schema properties %v, argument fields %v", tl.spec.name, props, fields)
		}
		for _, r := range tl.spec.input.Required {
			if !slices.Contains(fields, r) {
				t.Errorf("%s: required %s is not an argument", tl.spec.name, r)
			}
		}
		if tl.spec.description == "" || !strings.Contains(string(doc), "### `"+tl.spec.name+"`") {
			t.Errorf("%s: no description, or no section in docs/mcp.md", tl.spec.name)
		}
		if tl.args.Kind() != reflect.Struct {
			t.Errorf("%s: arguments decode into %v, want a struct", tl.spec.name, tl.args)
		}
	}
}

// The SDK server and its tools are built on first use, not by New: an appliance that no
// assistant talks to keeps none of it resident (docs/mcp.md). Built once, then shared.
func TestToolsAreBuiltOnFirstUse(t *testing.T) {
	s := New(&db.DB{}, Options{Keys: &keyauth.Keys{}})
	if s.sdk != nil || len(s.tools) != 0 {
		t.Fatalf("New built the SDK server (%d tools); want it left to the first request", len(s.tools))
	}
	first := s.sdkServer()
	if first == nil || len(s.tools) != 15 {
		t.Fatalf("first use: server %v with %d tools, want one with 15", first, len(s.tools))
	}
	if again := s.sdkServer(); again != first || len(s.tools) != 15 {
		t.Fatalf("second use built again (%d tools)", len(s.tools))
	}
}
