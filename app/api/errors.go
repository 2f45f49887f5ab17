package api

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"

	"frontdesk/app/fail"
	"frontdesk/app/middleware"
	"frontdesk/db"
)

// Error is an answer the client is meant to see: the Connect v3 {error, detail} envelope with
// its status. A refusal of the domain (app/fail) becomes one by its code (fromFail); anything
// else that reaches writeError is logged and becomes a bare 500.
type Error struct {
	Status int
	Code   string
	Detail string // empty means null
}

func (e *Error) Error() string { return e.Code + ": " + e.Detail }

func newError(status int, code, detail string) *Error {
	return &Error{Status: status, Code: code, Detail: detail}
}

// notFound is the reference's 404 for a resource ("booking", "client", …).
func notFound(resource string) *Error { return newError(http.StatusNotFound, "not_found", resource) }

// badRequest is a 400 whose detail names what was wrong ("invalid_page", "missing_q", …).
func badRequest(detail string) *Error { return newError(http.StatusBadRequest, "bad_request", detail) }

// invalidBody is a 400 for a body that is not the JSON object the operation expects.
func invalidBody(detail string) *Error {
	return newError(http.StatusBadRequest, "invalid_body", detail)
}

// unprocessable is a 422 for a well-formed request that breaks a rule; detail is
// "field: message" so a client can point at the field.
func unprocessable(field, msg string) *Error {
	return newError(http.StatusUnprocessableEntity, "unprocessable_entity", field+": "+msg)
}

type errorBody struct {
	Error  string  `json:"error"`
	Detail *string `json:"detail"`
}

// fromFail is the /v3 answer for each code of the shared vocabulary (app/fail): the one table
// of the domain's refusals. Handlers whose reference answers differ for a resource translate
// those first (bookingError, paymentError, slotsError).
func fromFail(f *fail.Error) *Error {
	switch f.Code {
	case fail.CodeNotFound:
		return notFound(cmp.Or(f.Reason, "resource"))
	case fail.CodeInvalid:
		if f.Field == "" {
			return newError(http.StatusUnprocessableEntity, "unprocessable_entity", cmp.Or(f.Reason, f.Message))
		}
		return unprocessable(f.Field, f.Message)
	case fail.CodeConflict:
		return newError(http.StatusConflict, "conflict", f.Reason)
	case fail.CodeForbidden:
		return newError(http.StatusUnprocessableEntity, "restricted", f.Reason)
	}
	return nil
}

// writeError is the one place an error becomes a /v3 response.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	f, refused := fail.As(err)
	switch {
	case errors.As(err, &e):
	case refused && fromFail(f) != nil:
		e = fromFail(f)
	case db.IsNotFound(err):
		// A handler that forgot to translate "no rows" still must not answer 500.
		e = notFound("resource")
	case db.IsFull(err):
		// The disk is full: nothing was written (SQLite rolled the write back) and reads go on.
		// The client may retry; the owner sees a banner and /readyz says why (db/storage.go).
		a.db.NoteWriteError(err)
		w.Header().Set("Retry-After", "60")
		e = newError(http.StatusInsufficientStorage, "insufficient_storage", "disk_full")
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client hung up while we worked (its context is cancelled): nothing of ours
		// failed, and nobody reads the answer. Not an error in our log.
		a.log.InfoContext(r.Context(), "request abandoned by the client", slog.String("request_id", middleware.RequestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path))
		e = badRequest("request_aborted")
	default:
		a.log.ErrorContext(r.Context(), "request failed", slog.String("request_id", middleware.RequestID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("err", err))
		e = newError(http.StatusInternalServerError, "internal_server_error", "")
	}
	// A tag set by conditional (etag.go) belongs to the answer that was not built.
	w.Header().Del("ETag")
	w.Header().Del("Cache-Control")
	body := errorBody{Error: e.Code}
	if e.Detail != "" {
		body.Detail = &e.Detail
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="frontdesk"`)
	}
	writeJSON(w, e.Status, body)
}
