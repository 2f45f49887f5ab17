package middleware

import (
	"io"
	"net/http"
	"slices"
)

// RepeatedFieldError is a submitted form that carries one field more than once where the form
// has room for one value. Which value was meant cannot be guessed, and taking the first or the
// last lets a second copy slip past whatever checked the other (a honeypot, say): the form is
// refused, as the API refuses a JSON object with a key twice.
type RepeatedFieldError struct {
	Field string
}

func (e *RepeatedFieldError) Error() string { return "form field " + e.Field + " sent more than once" }

// ReadForm reads the whole body of a form POST into r.PostForm before anything acts on it. A body
// that does not arrive whole — shorter than its Content-Length, too slow for the server's read
// timeout, over the size cap the caller set with http.MaxBytesHandler — is an error, so a
// request that came only in part changes nothing, even one whose handler reads no field (a
// cancel button). A body that is not a form is read to its end all the same. A field sent
// more than once is a *RepeatedFieldError unless multi names it (a checkbox group).
//
// It is each form surface's one reader (the admin and the booking site call it from a
// middleware): handlers then find the form already in r.PostForm.
func ReadForm(r *http.Request, multi []string) error {
	if err := r.ParseForm(); err != nil {
		return err
	}
	if r.Body != nil {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return err
		}
	}
	var repeated []string
	for name, values := range r.PostForm {
		if len(values) > 1 && !slices.Contains(multi, name) {
			repeated = append(repeated, name)
		}
	}
	if len(repeated) > 0 {
		return &RepeatedFieldError{Field: slices.Min(repeated)} // the same answer every time
	}
	return nil
}
