// Package fail is the one vocabulary of refusals every door understands: a handful of codes
// (not found, invalid, conflict, forbidden), the field at fault and a stable reason. Domain
// packages return these; each surface turns a code into its own form in one table (the /v3
// status and {error, detail}, an admin or booking-site page, an MCP tool error kind), so no
// surface has to know the domain's sentinels one by one. An error with no code is internal:
// logged, and shown to nobody.
package fail

import (
	"errors"
	"fmt"

	"frontdesk/ui/i18n"
)

// Code says what kind of refusal an error is, whichever door it reaches.
type Code string

const (
	// CodeInternal is every error without a code: our failure, nothing the caller can fix.
	CodeInternal Code = "internal"
	// CodeNotFound: the record asked for, or referred to, does not exist. Reason names it
	// ("booking", "client").
	CodeNotFound Code = "not_found"
	// CodeInvalid: the input breaks a rule about its own content. Field names it when one field
	// is at fault.
	CodeInvalid Code = "invalid"
	// CodeConflict: the input is fine but the state of things refuses it now (a time just taken,
	// a change made at the same moment). Reason says which.
	CodeConflict Code = "conflict"
	// CodeForbidden: the business's policy refuses it (bookings may not be changed online, …).
	// Reason names the rule.
	CodeForbidden Code = "forbidden"
)

// Error is a refusal in the shared vocabulary.
type Error struct {
	Code Code
	// Field is the input at fault ("start_time", "email"), as the API names it; empty when the
	// refusal is about the request as a whole.
	Field string
	// Reason is a stable word a program may act on: what was not found ("client"), which
	// conflict ("slot_unavailable"), which policy rule ("can_edit"), which refusal
	// ("client_already_deactivated"). Clients of /v3 read it.
	Reason string
	// Message says what is wrong, in English, for a person.
	Message string
	// Msg is Message in the catalogs (ui/i18n), for pages in the reader's language; empty when
	// the domain has no catalog text for it, and the page then says what the code means.
	Msg i18n.Msg
}

// Error is the message, after the field at fault if there is one.
func (e *Error) Error() string {
	switch {
	case e.Field != "":
		return e.Field + ": " + e.Message
	case e.Message != "":
		return e.Message
	}
	return e.Reason
}

// Coded is a domain error of its own type (kept for what only its package's callers need, such
// as a booking refusal's time zone) that says what it is in the shared vocabulary.
type Coded interface {
	error
	Fail() *Error
}

// NotFound says the resource ("client", "booking") does not exist.
func NotFound(resource string) *Error {
	return &Error{Code: CodeNotFound, Reason: resource, Message: resource + " not found"}
}

// Invalid says field breaks a rule; the message is format with args.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// Refused is an invalid request as a whole, with a reason a program may act on.
func Refused(reason, message string) *Error {
	return &Error{Code: CodeInvalid, Reason: reason, Message: message}
}

// Conflict says the state of things refuses the request now, for reason.
func Conflict(reason, message string) *Error {
	return &Error{Code: CodeConflict, Reason: reason, Message: message}
}

// Forbidden says the business's policy rule refuses the request.
func Forbidden(rule, message string) *Error {
	return &Error{Code: CodeForbidden, Reason: rule, Message: message}
}

// As finds the refusal in err's chain: an *Error, or a Coded error's view of itself. It
// reports false for an internal error.
func As(err error) (*Error, bool) {
	var e *Error
	var c Coded
	switch {
	case err == nil:
		return nil, false
	case errors.As(err, &e):
		return e, true
	case errors.As(err, &c):
		if e := c.Fail(); e != nil {
			return e, true
		}
	}
	return nil, false
}

// CodeOf is err's code; CodeInternal when it has none.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return CodeInternal
}

// FieldOf is the input field at fault in err, if any.
func FieldOf(err error) string {
	if e, ok := As(err); ok {
		return e.Field
	}
	return ""
}

// ReasonOf is err's reason: what was not found, which conflict or rule; empty if none.
func ReasonOf(err error) string {
	if e, ok := As(err); ok {
		return e.Reason
	}
	return ""
}

// Is reports whether err is a refusal with code and, when reason is not empty, that reason.
func Is(err error, code Code, reason string) bool {
	e, ok := As(err)
	return ok && e.Code == code && (reason == "" || e.Reason == reason)
}
