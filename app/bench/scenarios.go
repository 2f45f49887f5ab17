package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

type scenario struct {
	name string
	run  func(ctx context.Context, e *env) ScenarioReport
}

// scenarioTable is every scenario in run order. The booking scenarios run before the webhooks
// are registered, so their outbox writes the event rows but no delivery competes with them;
// list_bookings_100k runs last because its bulk seeding grows the bookings table for all.
func scenarioTable() []scenario {
	return []scenario{
		{"read_service", readService},
		{"list_bookings", listBookings},
		{"list_bookings_not_modified", listBookingsNotModified},
		{"slots_day", slotsDay},
		{"slots_day_synced", slotsDaySynced},
		{"create_booking", createBooking},
		{"conflicting_booking", conflictingBooking},
		{"webhook_fanout", webhookFanout},
		{"day_in_the_life", dayInTheLife},
		{"week_view", weekView},
		{"slots_visit", slotsVisit},
		{"series_check", seriesCheck},
		{"feed_provider", feedProvider},
		{"site_times", siteTimes},
		{"list_bookings_100k", listBookings100k},
		{"report_month", reportMonth}, // after the 100,000 bookings are seeded
	}
}

func unavailable(format string, args ...any) ScenarioReport {
	return ScenarioReport{Status: "unavailable", Reason: fmt.Sprintf(format, args...)}
}

func failed(err error) ScenarioReport {
	return ScenarioReport{Status: "failed", Reason: err.Error()}
}

// notServed reports whether a probe's answer means the appliance does not serve the operation
// yet (501 not_implemented, or no such route), as opposed to serving it wrongly.
func notServed(err error) (string, bool) {
	var se *statusError
	if errors.As(err, &se) && (se.status == http.StatusNotImplemented || se.status == http.StatusNotFound && isRouteNotFound(se.body)) {
		return fmt.Sprintf("%s %s answers %d %s", se.method, se.path, se.status, trimBody(se.body)), true
	}
	return "", false
}

// isRouteNotFound tells the router's 404 for an unknown route from a 404 for a missing record.
func isRouteNotFound(body string) bool {
	return strings.Contains(body, `"route"`) || strings.Contains(body, "404 page not found")
}

func trimBody(b string) string {
	if len(b) > 120 {
		return b[:120] + "…"
	}
	return b
}
