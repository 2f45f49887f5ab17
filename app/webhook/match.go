package webhook

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Event types a webhook can subscribe to (docs/webhooks.md). They are stored and sent
// as these exact strings, so renaming one is a breaking change for receivers.
const (
	BookingCreated        = "booking.created"
	BookingUpdated        = "booking.updated" // also cancel and reschedule
	ClientCreated         = "client.created"
	ClientUpdated         = "client.updated"
	PaymentRequestPaid    = "payment_request.paid"
	PaymentRequestExpired = "payment_request.expired"
	ServiceUpdated        = "service.updated"
)

// TestEvent is the type of the event sent by "send a test event" in
// Integrations (and `frontdesk webhook test`), to that one endpoint. Matches
// reports true for it whatever the patterns are, because the owner asked for
// that endpoint to receive it (the dispatcher targets it directly; no other
// webhook gets it). It may also be subscribed to, as docs/webhooks.md lists it
// in the catalogue: a receiver developer's webhook subscribed to it alone gets
// test events and nothing else.
const TestEvent = "webhook.test"

// MatchAll is the pattern that subscribes to every event type, including
// types added in later releases.
const MatchAll = "*"

// eventTypes and groupPatterns are read-only tables; EventTypes and
// Patterns hand out copies so no caller can change them.
var (
	eventTypes = []string{
		BookingCreated, BookingUpdated,
		ClientCreated, ClientUpdated,
		PaymentRequestPaid, PaymentRequestExpired,
		ServiceUpdated,
	}
	groupPatterns = []string{MatchAll, "booking.*", "client.*", "payment_request.*", "service.*"}
)

// ErrInvalidPatterns is wrapped by every ValidatePatterns error so the API
// can answer 422 with the message, which names the offending pattern.
var ErrInvalidPatterns = errors.New("invalid webhook events")

// EventTypes returns the subscribable event types in display order.
func EventTypes() []string { return slices.Clone(eventTypes) }

// Patterns returns every valid subscription pattern: the wildcards first,
// then the exact event types, then the test event, in the order the admin UI
// lists them.
func Patterns() []string { return slices.Concat(groupPatterns, eventTypes, []string{TestEvent}) }

// ValidatePatterns checks a webhook's subscription list before it is stored.
// At least one pattern is required, since a webhook that matches nothing is
// a mistake rather than a way to pause it (that is deactivation). Every
// pattern must be "*", a group wildcard such as "booking.*", a known event
// type or TestEvent, matched exactly: case and surrounding spaces count. Duplicates
// are rejected rather than silently removed, so what is stored is exactly
// what the caller sent; overlapping patterns ("*" with "booking.created")
// are allowed because they are not wrong, only redundant.
func ValidatePatterns(patterns []string) error {
	if len(patterns) == 0 {
		return fmt.Errorf("%w: at least one event type or pattern is required", ErrInvalidPatterns)
	}
	seen := make(map[string]bool, len(patterns))
	for _, p := range patterns {
		switch {
		case !slices.Contains(groupPatterns, p) && !slices.Contains(eventTypes, p) && p != TestEvent:
			return fmt.Errorf("%w: unknown event type or pattern %q (want one of %s)", ErrInvalidPatterns, p, strings.Join(Patterns(), ", "))
		case seen[p]:
			return fmt.Errorf("%w: %q is listed more than once", ErrInvalidPatterns, p)
		}
		seen[p] = true
	}
	return nil
}

// Matches reports whether a webhook subscribed to patterns receives an event
// of eventType. Patterns are assumed to have passed ValidatePatterns; the
// match itself is structural ("*" matches anything, "x.*" anything starting
// with "x."), so an event type added later is picked up by the wildcards
// without a data migration. TestEvent always matches.
func Matches(patterns []string, eventType string) bool {
	if eventType == TestEvent {
		return true
	}
	for _, p := range patterns {
		if p == MatchAll || p == eventType {
			return true
		}
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasSuffix(prefix, ".") && strings.HasPrefix(eventType, prefix) {
			return true
		}
	}
	return false
}
