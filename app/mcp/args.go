package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Arguments are decoded strictly, unlike /v3 bodies: a model that sends a field a tool does not
// have has misunderstood the tool, and saying so (naming the field) lets it correct itself,
// where ignoring it would book something the customer did not ask for. Every failure names the
// argument.

// decodeArgs decodes a tool's arguments (a JSON object; absent means {}) into dst.
func decodeArgs(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return invalid("arguments", "must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		return invalid(te.Field, "must be %s, not a JSON %s", jsonTypeName(te.Type.Kind().String()), te.Value)
	case errors.As(err, &se):
		return invalid("arguments", "are not valid JSON")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return invalid(clip(name, 60), "is not an argument of this tool (check the tool's input schema)")
	}
	return invalid("arguments", "could not be read")
}

func jsonTypeName(kind string) string {
	switch kind {
	case "int64", "int", "int32":
		return "an integer"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "ptr":
		return "a value of the documented type"
	}
	return "the documented type"
}

// clip shortens s for quoting back (a hostile field name may be huge).
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// text checks a string argument: at most max characters, valid UTF-8, no control characters
// (line breaks allowed when multiline). It returns it trimmed.
func text(field, s string, max int, multiline bool) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s):
		return "", invalid(field, "must be valid UTF-8 text")
	case utf8.RuneCountInString(s) > max:
		return "", invalid(field, "is too long (at most %d characters)", max)
	case strings.ContainsFunc(s, func(r rune) bool {
		return (r < 0x20 && !(multiline && (r == '\n' || r == '\t'))) || r == 0x7f
	}):
		return "", invalid(field, "must not contain control characters")
	}
	return s, nil
}

// requiredID checks a required positive id (0 is what an absent one decodes to).
func requiredID(field string, v int64) error {
	switch {
	case v == 0:
		return invalid(field, "is required")
	case v < 0:
		return invalid(field, "must be a positive integer")
	}
	return nil
}

// optionalID checks an optional id.
func optionalID(field string, v *int64) error {
	if v != nil && *v < 1 {
		return invalid(field, "must be a positive integer")
	}
	return nil
}

// Input schemas, written out so every argument carries its description and bounds for the
// model. A test checks each schema against the Go type its arguments decode into.

type prop struct {
	name string
	s    *jsonschema.Schema
}

func object(required []string, props ...prop) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // false
	}
	for _, p := range props {
		s.Properties[p.name] = p.s
		s.PropertyOrder = append(s.PropertyOrder, p.name)
	}
	return s
}

func idArg(name, description string) prop {
	return prop{name, &jsonschema.Schema{Type: "integer", Minimum: ptr(1.0), Description: description}}
}

func intArg(name, description string, lo, hi int) prop {
	return prop{name, &jsonschema.Schema{Type: "integer", Minimum: ptr(float64(lo)), Maximum: ptr(float64(hi)), Description: description}}
}

func stringArg(name, description string, max int) prop {
	return prop{name, &jsonschema.Schema{Type: "string", MaxLength: ptr(max), Description: description}}
}

func patternArg(name, description, pattern string, max int) prop {
	return prop{name, &jsonschema.Schema{Type: "string", Pattern: pattern, MaxLength: ptr(max), Description: description}}
}

func boolArg(name, description string) prop {
	return prop{name, &jsonschema.Schema{Type: "boolean", Description: description}}
}

func ptr[T any](v T) *T { return &v }

func enumArg(name, description string, values ...string) prop {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = v
	}
	return prop{name, &jsonschema.Schema{Type: "string", Enum: enum, Description: description}}
}
