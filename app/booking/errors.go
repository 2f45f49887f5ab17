package booking

import (
	"fmt"
	"time"

	"frontdesk/app/fail"
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
	// SourceImport is a booking brought from another system's export (app/importer), bound
	// like the owner's.
	SourceImport = "import"
)

// customerFlow reports whether changes from source are bound by the customer policies.
func customerFlow(source string) bool {
	return source == SourceConnect || source == SourceOnline || source == SourceMCP
}

// ErrSlotUnavailable says the provider is already taken for some of the requested time by
// another non-cancelled booking (buffers included). The database refuses the same write with a
// trigger, so no code path can get around it.
var ErrSlotUnavailable = fail.Conflict(ConflictSlotUnavailable, "slot_unavailable")

// ErrConcurrentChange says the booking kept changing under a PATCH; the caller may retry.
var ErrConcurrentChange = fail.Conflict(ConflictConcurrentUpdate, "booking changed concurrently")

// The reasons of the booking rules' conflicts (fail.CodeConflict), as /v3 names them.
const (
	ConflictSlotUnavailable  = "slot_unavailable"
	ConflictClassFull        = "class_full"
	ConflictSeatsAvailable   = "seats_available"
	ConflictConcurrentUpdate = "concurrent_update"
)

// RestrictedError is a refusal by the merchant's customer policy. Rule is the reference's
// detail: can_edit, can_cancel, before_edit_booking or max_changes.
type RestrictedError struct{ Rule string }

func (e *RestrictedError) Error() string { return "restricted: " + e.Rule }

// Fail is the refusal as the shared vocabulary says it: forbidden by the named rule.
func (e *RestrictedError) Fail() *fail.Error {
	return &fail.Error{Code: fail.CodeForbidden, Reason: e.Rule, Message: e.Error(), Msg: RestrictedMsg(e.Rule)}
}

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
	// Zone is the location's zone when the refusal is about its local hours (a start the engine
	// does not offer): a client that sent the time in UTC may have meant that clock.
	Zone *time.Location
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

// Fail is the refusal as the shared vocabulary says it: the field at fault and what is wrong.
func (e *InvalidError) Fail() *fail.Error {
	return &fail.Error{Code: fail.CodeInvalid, Field: e.Field, Message: e.Message, Msg: e.Msg}
}

// invalidTexts are the owner's words for the refusals the admin UI can meet, by the format of
// their Message; the first argument, if any, is the text's {value}.
var invalidTexts = map[string]i18n.Msg{
	"a cancelled booking cannot be changed":       i18n.M("booking.invalid.cancelled"),
	"the client is deactivated":                   i18n.M("booking.invalid.client_deactivated"),
	"at most %d characters":                       i18n.M("booking.invalid.too_long"),
	"the location is inactive":                    i18n.M("booking.invalid.location_inactive"),
	"the service is inactive":                     i18n.M("booking.invalid.service_inactive"),
	"the service is not bookable online":          i18n.M("booking.invalid.service_not_online"),
	"the provider is inactive":                    i18n.M("booking.invalid.provider_inactive"),
	"the provider is not bookable online":         i18n.M("booking.invalid.provider_not_online"),
	"the provider does not work at this location": i18n.M("booking.invalid.provider_elsewhere"),
	"the provider does not offer this service":    i18n.M("booking.invalid.service_not_offered"),
	"a booking lasts at most 24 hours":            i18n.M("booking.invalid.too_long_booking"),
}

func invalid(field, format string, args ...any) *InvalidError {
	e := &InvalidError{Field: field, Message: fmt.Sprintf(format, args...)}
	e.Msg = i18n.M("booking.invalid.other", "detail", e.Message)
	if m, ok := invalidTexts[format]; ok {
		e.Msg = m
		if len(args) > 0 {
			e.Msg = i18n.M(m.Key, "value", args[0])
		}
	}
	return e
}

// RestrictedMsg says a customer-policy refusal in the owner's words.
func RestrictedMsg(rule string) i18n.Msg {
	switch rule {
	case RuleCanEdit:
		return i18n.M("booking.restricted.can_edit")
	case RuleCanCancel:
		return i18n.M("booking.restricted.can_cancel")
	case RuleBeforeEditBooking:
		return i18n.M("booking.restricted.before_edit")
	}
	return i18n.M("booking.restricted.max_changes")
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
