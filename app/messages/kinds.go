package messages

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is a type of message, mirrored by the CHECKs on message_kinds.kind and messages.kind.
type Kind string

// The message types (docs/messages.md).
const (
	Confirmation   Kind = "confirmation"
	Rescheduled    Kind = "rescheduled"
	Cancelled      Kind = "cancelled"
	Reminder       Kind = "reminder"
	PaymentRequest Kind = "payment_request"
	Receipt        Kind = "receipt"
	// WaitlistSeat tells a waiting client they were given a seat in a class session
	// (docs/classes.md): it goes instead of the booking confirmation (SeatGiven).
	WaitlistSeat Kind = "waitlist_seat"
	Test         Kind = "test"
	// Messages to providers (providers.go): a booking of theirs made, moved or cancelled, and
	// their daily agenda.
	ProviderBooked    Kind = "provider_booked"
	ProviderMoved     Kind = "provider_moved"
	ProviderCancelled Kind = "provider_cancelled"
	ProviderAgenda    Kind = "provider_agenda"
)

// ProviderKinds are the messages to providers, in the order the log's filter lists them. Each
// provider switches them on for themselves (their form), not the owner per type: they are not
// among Kinds.
var ProviderKinds = []Kind{ProviderBooked, ProviderMoved, ProviderCancelled, ProviderAgenda}

// Kinds are the types the owner configures, in the order Settings shows them.
var Kinds = []Kind{Confirmation, Rescheduled, Cancelled, Reminder, PaymentRequest, Receipt, WaitlistSeat}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// aboutBooking reports whether a message of kind k is about a booking's appointment, and so is
// not sent once the appointment has started.
func (k Kind) aboutBooking() bool {
	return k == Confirmation || k == Rescheduled || k == Cancelled || k == Reminder || k == WaitlistSeat ||
		k == ProviderBooked || k == ProviderMoved || k == ProviderCancelled
}

// Recipients of a message, mirrored by the CHECK on messages.recipient.
const (
	ToClient  = "client"
	ToOwner   = "owner"
	ToAddress = "address" // a test message's given address
	// ToProvider is a message to the provider messages.provider_id names: never a customer
	// message, so no unsubscribe link, no manage link and no client opt-out applies.
	ToProvider = "provider"
)

// Message states, mirrored by the CHECK on messages.state.
const (
	StatePending = "pending"
	StateSent    = "sent"
	StateFailed  = "failed"
	StateSkipped = "skipped"
)

// Booking statuses the rules look at (app/booking owns the catalogue; messages only reads it).
const (
	statusConfirmed = 1
	statusReserved  = 2
	statusCancelled = 5
)

// sourceImport is the source of a booking imported from another system (app/booking's
// SourceImport, mirrored by the CHECK on bookings.source).
const sourceImport = "import"

// DefaultOffsets are the reminders a new installation sends: 24 hours and 2 hours before.
var DefaultOffsets = []time.Duration{24 * time.Hour, 2 * time.Hour}

// MaxOffsets bounds the reminder list; maxOffset bounds one reminder (a reminder a month
// ahead is a newsletter).
const (
	MaxOffsets = 5
	maxOffset  = 30 * 24 * time.Hour
)

// ParseOffsets reads the stored reminder list: whole minutes, comma separated. Durations are
// returned largest first, without duplicates.
func ParseOffsets(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("reminder offset %q: want whole minutes above 0", part)
		}
		d := time.Duration(n) * time.Minute
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b time.Duration) int { return int(b - a) })
	return out, nil
}

// FormatOffsets writes a reminder list the way it is stored.
func FormatOffsets(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = strconv.FormatInt(int64(d/time.Minute), 10)
	}
	return strings.Join(parts, ",")
}
