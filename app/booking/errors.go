package booking

import (
	"errors"
	"fmt"

	"frontdesk/ui/i18n"
)

// Booking statuses, mirrored by the booking_statuses catalogue of the schema.
const (
	StatusConfirmed int64 = 1
	StatusReserved  int64 = 2
	StatusAttended  int64 = 3
	StatusNoShow    int64 = 4
	StatusCancelled int64 = 5
)

// Sources say who makes a change, mirrored by the CHECK on bookings.source. The merchant's
// customer policies (availability, notice, online booking, edit and cancel rules) bind the
// customer flows — the public API, the booking site and the MCP server; the owner in the admin
// UI is bound only by the rule that a provider is never double-booked.
const (
	SourceConnect = "connect" // the /v3 API
	SourceOnline  = "online"  // the public booking site
	SourceMCP     = "mcp"     // the MCP server
	SourceAdmin   = "admin"   // the owner in the admin UI
)

// customerFlow reports whether changes from source are bound by the customer policies.
func customerFlow(source string) bool {
	return source == SourceConnect || source == SourceOnline || source == SourceMCP
}

// ErrSlotUnavailable says the provider is already taken for some of the requested time by
// another non-cancelled booking (buffers included). The database refuses the same write with a
// trigger, so no code path can get around it.
var ErrSlotUnavailable = errors.New("slot_unavailable")

// ErrConcurrentChange says the booking kept changing under a PATCH; the caller may retry.
var ErrConcurrentChange = errors.New("booking changed concurrently")

// RestrictedError is a refusal by the merchant's customer policy. Rule is the reference's
// detail: can_edit, can_cancel, before_edit_booking or max_changes.
type RestrictedError struct{ Rule string }

func (e *RestrictedError) Error() string { return "restricted: " + e.Rule }

// Policy rules, as the reference names them.
const (
	RuleCanEdit           = "can_edit"
	RuleCanCancel         = "can_cancel"
	RuleBeforeEditBooking = "before_edit_booking"
	RuleMaxChanges        = "max_changes"
)

// InvalidError is a request that breaks a booking rule about its own content: Field names the
// request field at fault and Message says what is wrong, for the client to show.
type InvalidError struct {
	Field, Message string
	// Msg is the same refusal as a catalog message (ui/i18n), for the owner's pages in their
	// language; empty for rules that predate the catalogs, whose Message is shown instead. The
	// API always answers with Message.
	Msg i18n.Msg
}

// with attaches the catalog message of the refusal.
func (e *InvalidError) with(m i18n.Msg) *InvalidError {
	e.Msg = m
	return e
}

func (e *InvalidError) Error() string { return e.Field + ": " + e.Message }

func invalid(field, format string, args ...any) *InvalidError {
	return &InvalidError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// validStatus checks a status a booking may be created with or changed to.
func validStatus(id int64) error {
	switch {
	case id == StatusCancelled:
		return invalid("status_id", "a booking is cancelled only through the cancel operation")
	case id < StatusConfirmed || id > StatusNoShow:
		return invalid("status_id", "unknown status %d (1 confirmed, 2 reserved, 3 attended, 4 no_show)", id)
	}
	return nil
}
