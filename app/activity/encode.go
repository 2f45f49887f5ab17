package activity

import (
	"encoding/json"
	"slices"
	"strconv"
)

// marshalChanges is json.Marshal(c), byte for byte, without reflection for the values entries
// mostly hold (nil, booleans, integers, plain text): every booking's trail entry is encoded on
// the single writer, where the reflecting encoder and its key sort were a tenth of the entry's
// cost. Anything else, and text that JSON escapes, goes through encoding/json.
func marshalChanges(c Changes) ([]byte, error) {
	names := make([]string, 0, len(c))
	for name := range c {
		names = append(names, name)
	}
	slices.Sort(names) // encoding/json orders a map's keys so
	b := make([]byte, 0, 48*len(c)+2)
	b = append(b, '{')
	var err error
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendString(b, name); err != nil {
			return nil, err
		}
		b = append(b, ':', '[')
		for j, v := range c[name] {
			if j > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, v); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendJSON appends v encoded as json.Marshal encodes it.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case string:
		return appendString(b, x)
	}
	enc, err := json.Marshal(v)
	return append(b, enc...), err
}

// appendString appends s encoded as json.Marshal encodes it.
func appendString(b []byte, s string) ([]byte, error) {
	if !plainText(s) {
		enc, err := json.Marshal(s)
		return append(b, enc...), err
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// plainText reports whether encoding/json writes s as it is between quotes: printable ASCII
// with nothing it escapes (a quote, a backslash, and <, > and & for HTML).
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
