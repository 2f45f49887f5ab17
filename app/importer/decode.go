package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
)

// MaxFileSize bounds an import file; a business with a few hundred thousand bookings fits.
const MaxFileSize = 256 << 20

// Decode parses an import file strictly: every field must be one the format defines, with the
// right JSON type, at most once per object. encoding/json alone would accept unknown fields,
// case-insensitive names and repeated keys, and would not say where a problem is, so the
// document is first walked token by token against the File type, collecting problems with
// their JSON paths.
func Decode(raw []byte) (*File, error) {
	f, ps := decode(raw)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// decode returns the problems found and, unless the document is not JSON at all, the file as
// far as it could be read, so that validation can report more problems in the same run.
func decode(raw []byte) (*File, *problems) {
	ps := &problems{}
	if len(raw) > MaxFileSize {
		ps.add("", "the file is larger than %d MiB", MaxFileSize>>20)
		return nil, ps
	}
	if !utf8.Valid(raw) {
		ps.add("", "the file is not valid UTF-8")
		return nil, ps
	}
	// A byte order mark is what Windows editors put before "UTF-8" text; JSON allows a parser to
	// ignore it (RFC 8259, 8.1), and positions are then counted as the editor shows them.
	raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
	switch trimmed := bytes.TrimSpace(raw); {
	case len(trimmed) == 0:
		ps.add("", "the file is empty (want a JSON object)")
		return nil, ps
	case bytes.Equal(trimmed, []byte("null")):
		ps.add("", "want an object, got null")
		return nil, ps
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	w := &walker{dec: dec, raw: raw, ps: ps}
	if !w.value(reflect.TypeFor[File](), "") {
		return nil, ps
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(raw[end:], " \t\r\n"); len(rest) > 0 {
		ps.add("", "%s: unexpected data after the top-level object", w.position(int64(len(raw)-len(rest))))
		return nil, ps
	}
	// The walk found every problem; Unmarshal skips wrongly typed values and fills in the rest.
	var f File
	_ = json.Unmarshal(raw, &f)
	return &f, ps
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// walker checks a token stream against a Go type.
type walker struct {
	dec *json.Decoder
	raw []byte
	ps  *problems
}

// value reads one value for type t at path. It returns false when the document is not valid
// JSON, after which nothing more can be read.
func (w *walker) value(t reflect.Type, path string) bool {
	tok, err := w.dec.Token()
	if err != nil {
		w.syntax(path, err)
		return false
	}
	if tok == nil || t == rawMessageType {
		return w.skip(path, tok) // null leaves the zero value; validation says if that is allowed
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if tok != json.Delim('{') {
			return w.mismatch(path, "an object", tok)
		}
		fields := jsonFields(t)
		return w.members(path, func(name, p string) bool {
			ft, ok := fields[name]
			if !ok {
				w.ps.add(p, "unknown field%s", suggest(name, fields))
				return w.value(rawMessageType, p)
			}
			return w.value(ft, p)
		})
	case reflect.Map:
		if tok != json.Delim('{') {
			return w.mismatch(path, "an object", tok)
		}
		return w.members(path, func(_, p string) bool { return w.value(t.Elem(), p) })
	case reflect.Slice:
		if tok != json.Delim('[') {
			return w.mismatch(path, "an array", tok)
		}
		for i := 0; w.dec.More(); i++ {
			if !w.value(t.Elem(), at(path, i)) {
				return false
			}
		}
		return w.closing(path)
	case reflect.String:
		if _, ok := tok.(string); !ok {
			return w.mismatch(path, "a string", tok)
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return w.mismatch(path, "true or false", tok)
		}
	case reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.mismatch(path, "an integer", tok)
		}
		if _, err := n.Int64(); err != nil {
			w.ps.add(path, "%s is not an integer", n)
		}
	case reflect.Float64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.mismatch(path, "a number", tok)
		}
		if _, err := n.Float64(); err != nil {
			w.ps.add(path, "%s is out of range", n)
		}
	default:
		panic("importer: no decoding rule for " + t.String())
	}
	return true
}

// members reads the members of an object whose '{' was just read, calling member for each.
func (w *walker) members(path string, member func(name, path string) bool) bool {
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			w.syntax(path, err)
			return false
		}
		name := tok.(string) // the decoder only yields strings in key position
		p := at(path, name)
		if seen[name] {
			w.ps.add(p, "appears twice in the same object")
		}
		seen[name] = true
		if !member(name, p) {
			return false
		}
	}
	return w.closing(path)
}

// closing reads the '}' or ']' that ends the current object or array.
func (w *walker) closing(path string) bool {
	if _, err := w.dec.Token(); err != nil {
		w.syntax(path, err)
		return false
	}
	return true
}

// mismatch records a wrongly typed value and skips it.
func (w *walker) mismatch(path, want string, tok json.Token) bool {
	w.ps.add(path, "want %s, got %s", want, describe(tok))
	return w.skip(path, tok)
}

// skip consumes the rest of a value whose first token is tok.
func (w *walker) skip(path string, tok json.Token) bool {
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		for depth := 1; depth > 0; {
			tok, err := w.dec.Token()
			if err != nil {
				w.syntax(path, err)
				return false
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
	}
	return true
}

func (w *walker) syntax(path string, err error) {
	offset := w.dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of file"
	}
	w.ps.add(path, "%s: invalid JSON: %s", w.position(offset), strings.TrimPrefix(msg, "json: "))
}

// position turns a byte offset into "line L, column C" for a person with an editor.
func (w *walker) position(offset int64) string {
	offset = min(max(offset, 0), int64(len(w.raw)))
	before := w.raw[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return fmt.Sprintf("%t", v)
	}
	return "null"
}

// jsonFields maps a struct's JSON member names to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			fields[name] = f.Type
		}
	}
	return fields
}

// suggest names the known field closest to a misspelt one, if one is close.
func suggest(name string, fields map[string]reflect.Type) string {
	best, bestDist := "", 3
	for f := range fields {
		if d := editDistance(strings.ToLower(name), f); d < bestDist || d == bestDist && f < best {
			best, bestDist = f, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
