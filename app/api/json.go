package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// maxBody bounds every request body; a larger one is refused with 413 before it is parsed.
const maxBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":"internal_server_error","detail":null}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
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
// send extras) and never stored, because dst only has the fields we know. Type mismatches name
// the field. Strings with NUL bytes or invalid UTF-8 are refused so they never reach storage.
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
	if dec.More() {
		return invalidBody("trailing_data")
	}
	if bytes.Contains(body, []byte(`\u0000`)) {
		return unprocessable("body", "strings must not contain NUL characters")
	}
	return nil
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

func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.V)
}

// Value returns the value, or nil when absent or null.
func (o Opt[T]) Ptr() *T {
	if !o.Set || o.Null {
		return nil
	}
	return &o.V
}
