package resource

import (
	"strconv"
	"unicode/utf8"
)

// The functions below write JSON by appending to a byte slice, for the few answers that are
// large enough for encoding/json's reflection to be a visible share of a request (a day of
// slots is some 47 KB). Their output is byte for byte what encoding/json produces with HTML
// escaping off, the /v3 writer's setting; the tests compare the two.

// appendJSONString appends s as a JSON string, escaped as encoding/json escapes it with HTML
// escaping off: quote, backslash and control characters escaped (\b \f \n \r \t by name),
// invalid UTF-8 replaced by U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonSafe marks the ASCII bytes a JSON string holds as they are.
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\'
	}
	return safe
}()

func appendJSONInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func appendJSONNullString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

func appendJSONNullInt(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return appendJSONInt(b, *v)
}

// appendJSON appends the paging block as encoding/json would.
func (p Pagination) appendJSON(b []byte) []byte {
	b = append(b, `{"current_page":`...)
	b = appendJSONInt(b, p.CurrentPage)
	b = append(b, `,"per_page":`...)
	b = appendJSONInt(b, p.PerPage)
	b = append(b, `,"next_page":`...)
	b = appendJSONNullInt(b, p.NextPage)
	b = append(b, `,"prev_page":`...)
	b = appendJSONNullInt(b, p.PrevPage)
	b = append(b, `,"total_records":`...)
	b = appendJSONInt(b, p.TotalRecords)
	b = append(b, `,"total_pages":`...)
	b = appendJSONInt(b, p.TotalPages)
	return append(b, '}')
}
