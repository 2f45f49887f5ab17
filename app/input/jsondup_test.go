package input

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// DuplicateKey finds a key sent twice in one object, at any depth, as encoding/json would match
// it to a field (escapes undone, letter case ignored), and names its path; the same key in two
// different objects is no duplicate.
func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		doc, path string
		dup       bool
	}{
		{`{"a":1,"b":2}`, "", false},
		{`{"a":{"x":1},"b":{"x":1}}`, "", false},
		{`[{"a":1},{"a":2}]`, "", false},
		{`{"a":1,"a":2}`, "a", true},
		{`{"name":"list_services","Name":"cancel_booking"}`, "Name", true},
		{`{"\u006eame":1,"name":2}`, "name", true},
		{`{"params":{"arguments":{"id":1,"ID":2}}}`, "params.arguments.ID", true},
		{`{"items":[{"q":1},{"q":1,"q":2}]}`, "items[1].q", true},
		{`[1,{"k":1,"k":2}]`, "[1].k", true},
		{`{"s":1,"ſ":2}`, "ſ", true}, // encoding/json folds the long s with "s"
	} {
		path, dup := DuplicateKey([]byte(c.doc))
		if dup != c.dup || path != c.path {
			t.Errorf("DuplicateKey(%s) = %q, %v; want %q, %v", c.doc, path, dup, c.path, c.dup)
		}
	}
}

// FuzzDuplicateKey holds DuplicateKey to what encoding/json's tokens say of any valid
// document: the same duplicate, at the same path.
func FuzzDuplicateKey(f *testing.F) {
	for _, doc := range []string{
		`{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"items":[{"q":1},{"q":1,"q":2}]}`, `[1,{"k":1,"k":2}]`,
		`{"\u006eame":1,"name":2}`, `{"s":1,"ſ":2}`, `{"":{"a":[1,{"b":1,"B":2}]}}`, `{"[x":{"y":1,"y":2}}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"A":11}`,
		`{"k\"":{"x":"}\"{","x":1}}`, "{\"\xff\":1,\"\xfe\":2}", `{"K":1,"k":2}`, ` [ [ {"a" : null , "a" : true } ] ] `,
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		path, dup := DuplicateKey(doc)
		wantPath, wantDup := tokenDuplicateKey(doc)
		if path != wantPath || dup != wantDup {
			t.Fatalf("DuplicateKey(%q) = %q, %v; tokens say %q, %v", doc, path, dup, wantPath, wantDup)
		}
	})
}

// tokenDuplicateKey is DuplicateKey through encoding/json's tokens: slower, and plainly right.
func tokenDuplicateKey(body []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var value func(path string) (string, bool)
	value = func(path string) (string, bool) {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, _ := dec.Token()
				key, _ := kt.(string)
				child := key
				if path != "" {
					child = path + "." + key
				}
				var folded strings.Builder
				for _, r := range key {
					if r < utf8.RuneSelf && 'a' <= r && r <= 'z' {
						r -= 'a' - 'A'
					} else if r >= utf8.RuneSelf {
						r = unicode.ToUpper(unicode.ToLower(r))
					}
					folded.WriteRune(r)
				}
				if seen[folded.String()] {
					return child, true
				}
				seen[folded.String()] = true
				if p, dup := value(child); dup {
					return p, true
				}
			}
			dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if p, dup := value(path + "[" + strconv.Itoa(i) + "]"); dup {
					return p, true
				}
			}
			dec.Token()
		}
		return "", false
	}
	return value("")
}

// A document without duplicates costs DuplicateKey no allocation.
func TestDuplicateKeyAllocations(t *testing.T) {
	doc := []byte(`{"start_time":"2026-11-24T11:00:00-03:00","service_id":1,"provider_id":2,"client_id":1,"location_id":1,"status_id":1,"items":[{"a":1},{"a":2}]}`)
	if n := testing.AllocsPerRun(100, func() { DuplicateKey(doc) }); n != 0 {
		t.Errorf("got %v allocations, want 0", n)
	}
}

func BenchmarkDuplicateKey(b *testing.B) {
	doc := []byte(`{"start_time":"2026-11-24T11:00:00-03:00","service_id":1,"provider_id":2,"client_id":1,"location_id":1,"status_id":1}`)
	b.ReportAllocs()
	for b.Loop() {
		DuplicateKey(doc)
	}
}
