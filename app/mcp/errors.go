package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/db"
)

// Tool errors are answers a model can act on: the text starts with a kind, then (for input)
// the argument at fault, then plain words saying what happened and what to do. docs/mcp.md
// lists the kinds. Internal failures are logged and answered with a generic message: a tool
// never shows a stack trace, a database error or a 500.
const (
	kindInvalid       = "invalid_input"  // an argument is wrong: Field names it
	kindNotFound      = "not_found"      // an id names nothing (or nothing this key may see)
	kindTaken         = "just_taken"     // someone else booked that time first; alternatives follow
	kindAlreadyBooked = "already_booked" // the client already holds that time: the booking follows
	kindRefused       = "not_allowed"    // the business's policy refuses it, in plain words
	kindScope         = "scope_denied"   // the API key may not do this
	kindRetry         = "try_again"      // a transient conflict: the same call may succeed shortly
	kindInternal      = "internal_error" // our failure; nothing to fix in the call
)

// toolError is an error a tool answers with.
type toolError struct {
	Kind    string
	Field   string // the argument at fault, if any
	Message string
	Details string // more lines (e.g. alternative times)
}

func (e *toolError) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind)
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Details != "" {
		b.WriteString("\n")
		b.WriteString(e.Details)
	}
	return b.String()
}

func invalid(field, format string, args ...any) *toolError {
	return &toolError{Kind: kindInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

func notFound(field, format string, args ...any) *toolError {
	return &toolError{Kind: kindNotFound, Field: field, Message: fmt.Sprintf(format, args...)}
}

func refused(format string, args ...any) *toolError {
	return &toolError{Kind: kindRefused, Message: fmt.Sprintf(format, args...)}
}

// errorResult is the one place an error becomes a tool's answer.
func (s *Server) errorResult(ctx context.Context, tool string, err error) *sdk.CallToolResult {
	te := s.toToolError(ctx, err)
	if te.Kind == kindInternal {
		s.log.ErrorContext(ctx, "mcp tool failed", slog.String("tool", tool), slog.Any("err", err))
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: te.Error()}}}
	res.SetError(te)
	return res
}

// toToolError translates the domain's refusals by their code (app/fail), the one table of this
// surface. Arguments a tool got from a slot id are reported as slot_id, since that is what the
// model sent.
func (s *Server) toToolError(ctx context.Context, err error) *toolError {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	if f, ok := fail.As(err); ok {
		switch f.Code {
		case fail.CodeNotFound:
			return notFoundError(f.Reason)
		case fail.CodeConflict:
			return conflictError(f.Reason)
		case fail.CodeForbidden:
			return s.policyError(ctx, f.Reason)
		case fail.CodeInvalid:
			var ie *booking.InvalidError
			if errors.As(err, &ie) {
				return bookingInvalid(ie) // its reason codes tell a refused time from a typo
			}
			return invalid(f.Field, "%s", cmp.Or(f.Message, f.Reason))
		}
	}
	if db.IsFull(err) {
		// A full disk (docs/api.md, "Full disk"): nothing was saved; reported once elsewhere.
		s.db.NoteWriteError(err)
		return &toolError{Kind: kindRetry, Message: "the business's server is out of disk space, so nothing was saved; try again later, or ask the customer to contact the business directly"}
	}
	return &toolError{Kind: kindInternal, Message: "something went wrong on our side; try again in a moment, and if it keeps failing, ask the customer to contact the business directly"}
}

// notFoundError names the argument that pointed at nothing: the booking, the client, or else
// something a slot id carried.
func notFoundError(resource string) *toolError {
	switch resource {
	case "booking":
		return notFound("booking_id", "no such booking")
	case "client":
		return notFound("client_id", "no such client; use find_or_create_client first")
	}
	return notFound("slot_id", "the %s of that slot no longer exists; call find_free_times again", resource)
}

// conflictError says what changed under the call: a time or a seat just taken (alternatives are
// the caller's to add), or a change at the same moment, which a second call may get past.
func conflictError(reason string) *toolError {
	switch reason {
	case booking.ConflictSlotUnavailable:
		return &toolError{Kind: kindTaken, Field: "slot_id", Message: "that time was just taken by someone else; call find_free_times again and offer the customer another time"}
	case booking.ConflictClassFull: // classes (docs/classes.md)
		return &toolError{Kind: kindTaken, Field: "slot_id", Message: "the last seat of that class session was just taken; call find_free_times again and offer the customer another session"}
	case booking.ConflictConcurrentUpdate:
		return &toolError{Kind: kindRetry, Message: "the booking was being changed at the same moment; call again"}
	}
	return &toolError{Kind: kindRetry, Message: "that changed at the same moment (" + reason + "); call again"}
}

// bookingInvalid words app/booking's rule failures. A start the engine does not offer carries
// "reason: explanation" (app/booking, Explain).
func bookingInvalid(ie *booking.InvalidError) *toolError {
	switch ie.Field {
	case "start_time", "end_time":
		reason, text, _ := strings.Cut(ie.Message, ": ")
		switch booking.ReasonCode(reason) {
		case booking.ReasonNotice:
			return refused("too soon: %s", text)
		case booking.ReasonBeyondAdvance:
			return refused("too far ahead: %s", text)
		case booking.ReasonClosed, booking.ReasonOutsideHours, booking.ReasonNotWorking, booking.ReasonBreak, booking.ReasonTimeOff, booking.ReasonCalendar,
			booking.ReasonNotSessionTime, booking.ReasonSessionCancelled: // the last two: classes
			return &toolError{Kind: kindRefused, Field: "slot_id", Message: "that time is no longer offered (" + text + "); call find_free_times again"}
		}
		return invalid("slot_id", "%s", ie.Message)
	case "location_id", "service_id", "provider_id":
		return &toolError{Kind: kindRefused, Field: "slot_id", Message: ie.Message + "; call find_free_times again"}
	case "client_id":
		return &toolError{Kind: kindRefused, Field: "client_id", Message: ie.Message}
	case "booking":
		return &toolError{Kind: kindRefused, Field: "booking_id", Message: ie.Message}
	}
	return invalid(ie.Field, "%s", ie.Message)
}

// policyError names the business's policy in plain words, with its numbers.
func (s *Server) policyError(ctx context.Context, rule string) *toolError {
	pol, err := s.db.R.SchedulePolicy(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "mcp: read policy for a refusal", "err", err)
	}
	ask := " The customer can contact the business directly."
	switch rule {
	case booking.RuleCanEdit:
		return refused("this business does not allow bookings to be changed online.%s", ask)
	case booking.RuleCanCancel:
		return refused("this business does not allow bookings to be cancelled online.%s", ask)
	case booking.RuleBeforeEditBooking:
		return refused("this business does not allow changes or cancellations less than %s before the appointment starts.%s", minutes(pol.EditLockMin), ask)
	case booking.RuleMaxChanges:
		return refused("this booking has already been rescheduled %d time(s), the most this business allows; it can no longer be changed or cancelled online.%s", pol.MaxChanges, ask)
	}
	return refused("the business's booking policy does not allow this (%s).%s", rule, ask)
}

// minutes says a number of minutes the way people do: "90 minutes", "2 hours", "1 day".
func minutes(n int64) string {
	switch {
	case n >= 1440 && n%1440 == 0:
		return plural(n/1440, "day")
	case n >= 60 && n%60 == 0:
		return plural(n/60, "hour")
	}
	return plural(n, "minute")
}

func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
