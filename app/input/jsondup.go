package input

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// DuplicateKey finds the first object key that appears twice in one object of body, a valid
// JSON document, and returns its path ("client_id", "items[0].quantity"). Keys are compared as
// encoding/json matches them to struct fields — after unescaping and ignoring case — because
// that is what would silently keep only the last of {"client_id":1,"Client_ID":2}. Every surface
// that reads JSON refuses such a document (/v3, /mcp, payment notifications): which value was
// meant cannot be known, and two readers of one document could each take a different one.
//
// body has been parsed already, so it is walked byte by byte rather than tokenized again: only
// where each key begins matters, and a document without duplicates costs no allocation but its
// escaped keys'.
func DuplicateKey(body []byte) (string, bool) {
	w := dupWalker{doc: body}
	if up, dup := w.value(); dup {
		slices.Reverse(up)
		return pathString(up), true
	}
	return "", false
}

// dupWalker walks a valid JSON document from doc[i].
type dupWalker struct {
	doc []byte
	i   int
}

// segment is one step of a path: an object's key (quoted, as in the document) or an index.
type segment struct {
	key   []byte
	index int
}

// smallObject is how many keys of one object are compared one by one before a map.
const smallObject = 8

// value walks the value at w.i and reports whether it holds a duplicate key, with the path to
// it from the value, innermost step first.
func (w *dupWalker) value() ([]segment, bool) {
	w.space()
	if w.i >= len(w.doc) {
		return nil, false // not reached for a valid document
	}
	switch w.doc[w.i] {
	case '{':
		return w.object()
	case '[':
		return w.array()
	case '"':
		w.skipString()
	default: // a number, true, false or null
		for w.i < len(w.doc) && !delimiter(w.doc[w.i]) {
			w.i++
		}
	}
	return nil, false
}

func (w *dupWalker) object() ([]segment, bool) {
	w.i++ // '{'
	var buf [16 * smallObject]byte
	folded := buf[:0]          // the folded keys, end to end
	var small [smallObject]int // where each key's folded form ends in folded
	ends := small[:0]
	var seen map[string]bool // past smallObject keys
	for {
		w.space()
		if w.i >= len(w.doc) || w.doc[w.i] == '}' {
			w.i++
			return nil, false
		}
		if w.doc[w.i] == ',' {
			w.i++
			continue
		}
		start := w.i
		w.skipString()
		raw := w.doc[start:w.i]
		from := len(folded)
		folded = appendFolded(folded, raw)
		key := folded[from:]
		dup := false
		if seen == nil && len(ends) < smallObject {
			prev := 0
			for _, end := range ends {
				if bytes.Equal(folded[prev:end], key) {
					dup = true
					break
				}
				prev = end
			}
			ends = append(ends, len(folded))
		} else {
			if seen == nil {
				seen = make(map[string]bool, 2*smallObject)
				prev := 0
				for _, end := range ends {
					seen[string(folded[prev:end])] = true
					prev = end
				}
			}
			dup = seen[string(key)]
			seen[string(key)] = true
			folded = folded[:from] // kept in the map
		}
		if dup {
			return []segment{{key: raw}}, true
		}
		w.space()
		w.i++ // ':'
		if up, dup := w.value(); dup {
			return append(up, segment{key: raw}), true
		}
	}
}

func (w *dupWalker) array() ([]segment, bool) {
	w.i++ // '['
	for n := 0; ; {
		w.space()
		if w.i >= len(w.doc) || w.doc[w.i] == ']' {
			w.i++
			return nil, false
		}
		if w.doc[w.i] == ',' {
			w.i++
			n++
			continue
		}
		if up, dup := w.value(); dup {
			return append(up, segment{index: n}), true
		}
	}
}

// skipString moves past the string that starts at w.i.
func (w *dupWalker) skipString() {
	for w.i++; w.i < len(w.doc); w.i++ {
		switch w.doc[w.i] {
		case '\\':
			w.i++
		case '"':
			w.i++
			return
		}
	}
}

func (w *dupWalker) space() {
	for w.i < len(w.doc) && isSpace(w.doc[w.i]) {
		w.i++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func delimiter(c byte) bool { return isSpace(c) || c == ',' || c == ']' || c == '}' }

// pathString names a path, outermost step first: keys joined by dots, indexes in brackets
// ("items[1].q").
func pathString(steps []segment) string {
	path := ""
	for _, s := range steps {
		switch {
		case s.key == nil:
			path += "[" + strconv.Itoa(s.index) + "]"
		case path == "":
			path = unquote(s.key)
		default:
			path += "." + unquote(s.key)
		}
	}
	return path
}

// unquote is the text of a quoted key, as encoding/json reads it (escapes undone, each byte
// that is not UTF-8 read as U+FFFD).
func unquote(quoted []byte) string {
	var s string
	json.Unmarshal(quoted, &s) // valid: the document parsed
	return s
}

// appendFolded appends the quoted key, unescaped, folded the way encoding/json compares names
// to struct fields: ASCII letters to upper case, other letters through lower then upper case
// (so "K", "k" and the Kelvin sign fold together, as do "s" and "ſ"); a byte that is not UTF-8
// reads as U+FFFD, as encoding/json reads it.
func appendFolded(dst, quoted []byte) []byte {
	s := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(s, '\\') >= 0 {
		s = []byte(unquote(quoted))
	}
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRune(s)
		dst = utf8.AppendRune(dst, unicode.ToUpper(unicode.ToLower(r)))
		s = s[n:]
	}
	return dst
}
