package input

import "testing"

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
