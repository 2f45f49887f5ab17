package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"frontdesk/app/input"
)

// maxBody bounds every request body; a larger one is refused with 413 before it is parsed.
const maxBody = 1 << 20

// writeJSON encodes v into a pooled buffer, so a response costs no buffer growth or garbage of
// its own, and sends it with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	if err := encodeJSON(buf, v); err != nil {
		http.Error(w, `{"error":"internal_server_error","detail":null}`, http.StatusInternalServerError)
		return
	}
	writeRawJSON(w, status, buf.Bytes())
}

// encodeJSON appends v to buf as every /v3 answer is encoded: no HTML escaping, a newline at
// the end.
func encodeJSON(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

var jsonContentType = []string{"application/json; charset=utf-8"}

// writeRawJSON sends body, an encoded JSON answer, with status.
func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType // shared, never modified (middleware.SecurityHeaders)
	if len(body) > 2048 {
		// net/http measures a body that fits its 2 KiB buffer itself and chunks a longer one
		// of unknown length; a day of slots (some 47 KB) goes as one plain write instead.
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	w.Write(body)
}

var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps the odd huge answer's buffer out of the pool, so the pool's memory stays
// near what typical answers need.
const maxPooledBuffer = 256 << 10

func putJSONBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	jsonBuffers.Put(buf)
}

// readBody reads the whole body, enforcing maxBody. The raw bytes are kept so idempotency can
// fingerprint exactly what was sent.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, invalidBody("unreadable_body")
	}
	if len(b) > maxBody {
		return nil, newError(http.StatusRequestEntityTooLarge, "payload_too_large", fmt.Sprintf("body_exceeds_%d_bytes", maxBody))
	}
	return b, nil
}

// decodeObject parses a JSON object into dst. Unknown fields are ignored (Connect v3 clients
// send extras) and never stored, because dst only has the fields we know. Type mismatches and
// keys sent twice name the field. Strings with NUL bytes or invalid UTF-8 are refused so they
// never reach storage.
func decodeObject(body []byte, dst any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return invalidBody("expected_object")
	}
	if !utf8.Valid(body) {
		return invalidBody("invalid_utf8")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var fieldErr *fieldError
		switch {
		case errors.As(err, &fieldErr):
			return fieldErr.asAPI()
		case errors.As(err, &typeErr):
			field := typeErr.Field
			if field == "" {
				field = "body"
			}
			return invalidBody(fmt.Sprintf("%s: expected %s", field, typeName(typeErr.Type.String())))
		default:
			return invalidBody("malformed_json")
		}
	}
	// Anything but space after the object is refused. (Decoder.More would miss a stray "}" or
	// "]": it answers whether an enclosing array or object goes on.)
	if len(bytes.TrimSpace(trimmed[dec.InputOffset():])) > 0 {
		return invalidBody("trailing_data")
	}
	if path, dup := input.DuplicateKey(trimmed); dup {
		return invalidBody(path + ": duplicate key")
	}
	return checkEscapes(trimmed)
}

// checkEscapes refuses \u escapes whose text cannot be stored as sent: NUL, and a surrogate
// that is not half of a pair, which encoding/json would silently replace by U+FFFD. It walks
// the strings of a document that has already parsed, so an escaped backslash followed by
// "u0000" is text, not an escape.
func checkEscapes(doc []byte) error {
	inString := false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '"':
			inString = !inString
		case c != '\\' || !inString:
		case doc[i+1] != 'u':
			i++ // \" \\ \n …: the escaped byte is not a quote or the start of an escape
		default:
			r := hex4(doc[i+2 : i+6])
			switch {
			case r == 0:
				return unprocessable("body", "strings must not contain NUL characters")
			case r >= 0xD800 && r <= 0xDBFF:
				if i+12 > len(doc) || doc[i+6] != '\\' || doc[i+7] != 'u' || !isLowSurrogate(hex4(doc[i+8:i+12])) {
					return unprocessable("body", "strings must not contain unpaired surrogates ("+string(doc[i:i+6])+")")
				}
				i += 11
			case isLowSurrogate(r):
				return unprocessable("body", "strings must not contain unpaired surrogates ("+string(doc[i:i+6])+")")
			default:
				i += 5
			}
		}
	}
	return nil
}

// hex4 reads the four hex digits of a \u escape (the document has parsed, so they are digits).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

func isLowSurrogate(r rune) bool { return r >= 0xDC00 && r <= 0xDFFF }

// readIgnoredBody reads the body of an operation that takes none (cancel, deactivate, a payment
// request): it may be absent, empty or JSON null, or a JSON object whose fields are ignored, as
// elsewhere. Anything else — garbage, an array, a body over the limit — is refused before the
// operation does anything, so a client that sent something it thinks matters learns that it
// was not understood.
func readIgnoredBody(r *http.Request) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	var ignored struct{}
	return decodeObject(raw, &ignored)
}

func typeName(goType string) string {
	switch {
	case strings.Contains(goType, "int"):
		return "integer"
	case strings.Contains(goType, "float"):
		return "number"
	case strings.Contains(goType, "bool"):
		return "boolean"
	case strings.Contains(goType, "string"):
		return "string"
	case strings.HasPrefix(goType, "[]"):
		return "array"
	default:
		return "object"
	}
}

// fieldError lets Opt report a bad value with its field name.
type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }
func (e *fieldError) asAPI() *Error { return invalidBody(e.msg) }

// Opt is a request field that remembers whether it was sent and whether it was null, which PATCH
// merge semantics need: absent leaves a value alone, null clears it, a value replaces it.
type Opt[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON reads b, one valid JSON value (encoding/json hands over nothing else). A plain
// integer or a string without escapes, most of what a request sends, is read directly; all else
// goes through json.Unmarshal, whose errors name the field.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	switch v := any(&o.V).(type) {
	case *int64:
		if n, ok := plainInt(b); ok {
			*v = n
			return nil
		}
	case *string:
		if s, ok := plainString(b); ok {
			*v = s
			return nil
		}
	}
	return json.Unmarshal(b, &o.V)
}

// plainInt reads a JSON number written as an integer that fits in an int64 (false: any other
// value, which json.Unmarshal reads or refuses).
func plainInt(b []byte) (int64, bool) {
	digits := b
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// plainString reads a JSON string without escapes whose text is UTF-8 (false: any other value).
func plainString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' {
		return "", false
	}
	text := b[1 : len(b)-1]
	if bytes.IndexByte(text, '\\') >= 0 || !utf8.Valid(text) {
		return "", false
	}
	return string(text), true
}

// Value returns the value, or nil when absent or null.
func (o Opt[T]) Ptr() *T {
	if !o.Set || o.Null {
		return nil
	}
	return &o.V
}
