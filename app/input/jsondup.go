package input

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DuplicateKey finds the first object key that appears twice in one object of body, a valid
// JSON document, and returns its path ("client_id", "items[0].quantity"). Keys are compared as
// encoding/json matches them to struct fields — after unescaping and ignoring case — because
// that is what would silently keep only the last of {"client_id":1,"Client_ID":2}. Every surface
// that reads JSON refuses such a document (/v3, /mcp, payment notifications): which value was
// meant cannot be known, and two readers of one document could each take a different one.
func DuplicateKey(body []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := dupWalker{dec: dec}
	if path, dup := w.value(""); dup {
		return path, true
	}
	return "", false
}

type dupWalker struct{ dec *json.Decoder }

// value walks the value starting at the next token; path names it.
func (w *dupWalker) value(path string) (string, bool) {
	tok, err := w.dec.Token()
	if err != nil {
		return "", false // not reached for a valid document
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for w.dec.More() {
			kt, err := w.dec.Token()
			if err != nil {
				return "", false
			}
			key, _ := kt.(string)
			child := key
			if path != "" {
				child = path + "." + key
			}
			folded := foldKey(key)
			if seen[folded] {
				return child, true
			}
			seen[folded] = true
			if p, dup := w.value(child); dup {
				return p, true
			}
		}
		w.dec.Token() // '}'
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if p, dup := w.value(path + "[" + strconv.Itoa(i) + "]"); dup {
				return p, true
			}
		}
		w.dec.Token() // ']'
	}
	return "", false
}

// foldKey folds a key the way encoding/json compares names to struct fields: ASCII letters to
// upper case, other letters through lower then upper case (so "K", "k" and the Kelvin sign
// fold together, as do "s" and "ſ").
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			continue
		}
		b.WriteRune(unicode.ToUpper(unicode.ToLower(r)))
	}
	return b.String()
}
