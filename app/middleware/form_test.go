package middleware

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// shortReader gives its text, then fails as a connection that closed early does.
type shortReader struct{ r io.Reader }

func (s shortReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func TestReadForm(t *testing.T) {
	post := func(contentType string, body io.Reader) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/", body)
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		return r
	}
	const form = "application/x-www-form-urlencoded"
	multi := []string{"scopes"}

	r := post(form, strings.NewReader("a=1&scopes=x&scopes=y"))
	if err := ReadForm(r, multi); err != nil || r.PostForm.Get("a") != "1" || len(r.PostForm["scopes"]) != 2 {
		t.Errorf("a form with a checkbox group: %v, %v", err, r.PostForm)
	}
	var repeated *RepeatedFieldError
	if err := ReadForm(post(form, strings.NewReader("website=&website=spam")), multi); !errors.As(err, &repeated) || repeated.Field != "website" {
		t.Errorf("the honeypot twice: got %v, want website refused", err)
	}
	if err := ReadForm(post(form, strings.NewReader("b=1&website=x&a=1&a=2&website=y")), multi); !errors.As(err, &repeated) || repeated.Field != "a" {
		t.Errorf("two repeated fields: got %v, want the first by name, a, every time", err)
	}
	// A body cut short fails, whether or not it is a form: a handler that reads no field must not
	// act on it either.
	for _, ct := range []string{form, "", "text/plain", "multipart/form-data; boundary=x"} {
		if err := ReadForm(post(ct, shortReader{strings.NewReader("a=1&b=")}), multi); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Content-Type %q, body cut short: got %v, want io.ErrUnexpectedEOF", ct, err)
		}
	}
	// A body that is not a form is read to its end, and gives no fields.
	body := strings.NewReader("a=1&a=2")
	r = post("text/plain", body)
	if err := ReadForm(r, nil); err != nil || len(r.PostForm) != 0 || body.Len() != 0 {
		t.Errorf("text body: %v, fields %v, %d bytes unread; want no error, no fields, all read", err, r.PostForm, body.Len())
	}
	// Over the cap the caller set.
	r = post(form, strings.NewReader("a="+strings.Repeat("x", 100)))
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
	var tooLarge *http.MaxBytesError
	if err := ReadForm(r, nil); !errors.As(err, &tooLarge) {
		t.Errorf("body over the cap: got %v, want *http.MaxBytesError", err)
	}
}
