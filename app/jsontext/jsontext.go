// Package jsontext appends JSON strings to a byte slice, escaped byte for byte as the standard
// library's encoders escape them, for the few writers where their reflection is a visible share
// of a request: the /v3 answers written by hand (app/resource) and the access log's line
// (app/logjson.go). The tests compare both functions with the encoders they stand in for.
package jsontext

import "unicode/utf8"

// String appends s as encoding/json writes it with HTML escaping off (the /v3 writer's
// setting): quote, backslash and control characters escaped (\b \f \n \r \t by name), invalid
// UTF-8 replaced by U+FFFD, U+2028 and U+2029 escaped.
func String(b []byte, s string) []byte { return appendString(b, s, true) }

// SlogString appends s as log/slog's JSON handler writes it: as String, but \b and \f as
// \u0008 and \u000c.
func SlogString(b []byte, s string) []byte { return appendString(b, s, false) }

func appendString(b []byte, s string, namedBF bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case c == '\\' || c == '"':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b' && namedBF:
				b = append(b, '\\', 'b')
			case c == '\f' && namedBF:
				b = append(b, '\\', 'f')
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

// safe marks the ASCII bytes a JSON string holds as they are.
var safe = func() (safe [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\'
	}
	return safe
}()
