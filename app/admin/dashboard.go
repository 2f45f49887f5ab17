package admin

import (
	"net/http"
	"strings"
	"time"

	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The dashboard: today's bookings at each location (each in its own zone's "today") and the
// webhook engine at a glance. It reads the tables directly; nothing here writes.

// dashboardRows caps the bookings listed per location; the Bookings page has the whole day.
const dashboardRows = 100

func (a *Admin) showDashboard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if scopedProvider(ctx) != 0 { // a provider account's home is its own schedule
		http.Redirect(w, r, "/schedule", http.StatusSeeOther)
		return
	}
	now := a.now()
	locs, err := a.db.R.ListDashboardLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var v ui.DashboardView
	for _, l := range locs {
		zone, err := time.LoadLocation(l.Timezone)
		if err != nil {
			zone = time.UTC // a zone the import accepted but this binary cannot load: show UTC, say so
		}
		local := now.In(zone)
		start := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, zone)
		end := start.AddDate(0, 0, 1)
		rows, err := a.db.R.ListDashboardBookings(ctx, db.ListDashboardBookingsParams{
			LocationID: l.ID, ProviderID: scopedProvider(ctx), FromMs: db.Millis(start), ToMs: db.Millis(end), MaxRows: dashboardRows + 1,
		})
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		day := ui.DayBookings{Location: l.Name, Date: i18n.From(ctx).DateLong(local), Zone: zone.String(), More: len(rows) > dashboardRows}
		for _, b := range rows[:min(len(rows), dashboardRows)] {
			day.Bookings = append(day.Bookings, ui.BookingRow{
				ID:        b.ID,
				Time:      i18n.From(ctx).TimeOnce(db.Time(b.StartAt).In(zone)) + "–" + i18n.From(ctx).TimeOnce(db.Time(b.EndAt).In(zone)),
				Service:   b.ServiceName,
				Provider:  b.ProviderName,
				Client:    strings.TrimSpace(b.ClientFirstName + " " + b.ClientLastName.String),
				Status:    bookingStatusName(r.Context(), b.StatusID),
				Cancelled: b.StatusID == 5,
			})
		}
		v.Locations = append(v.Locations, day)
	}
	if can(ctx, staff.Integrations) { // webhook health is for whoever can act on it
		if v.Alert, err = a.webhookAlert(r); err != nil {
			a.renderError(w, r, err)
			return
		}
		if v.Health, err = a.webhookHealth(r, now); err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	a.render(w, r, http.StatusOK, ui.DashboardPage(a.page(r, translate(r, "dashboard.title")), v))
}

func (a *Admin) webhookHealth(r *http.Request, now time.Time) (ui.WebhookHealth, error) {
	ctx := r.Context()
	var h ui.WebhookHealth
	states, err := a.db.R.CountWebhooksByState(ctx)
	if err != nil {
		return h, err
	}
	for _, s := range states {
		switch s.State {
		case "active":
			h.Active = s.N
		case "deactivated":
			h.Deactivated = s.N
		}
	}
	stats, err := a.db.R.DeliveryAttemptStatsSince(ctx, db.Millis(now.Add(-24*time.Hour)))
	if err != nil {
		return h, err
	}
	h.Attempts, h.Succeeded = stats.Attempts, stats.Succeeded
	pending, err := a.db.R.PendingDeliveryStats(ctx)
	if err != nil {
		return h, err
	}
	h.Pending = pending.Pending
	if pending.Pending > 0 {
		h.OldestPending = age(r, now.Sub(db.Time(pending.OldestCreatedAt)))
	}
	return h, nil
}

// age says a duration the way a person would glance at it.
func age(r *http.Request, d time.Duration) string {
	switch {
	case d < time.Minute:
		return translate(r, "age.under_minute")
	case d < time.Hour:
		return translate(r, "age.minutes", "count", int(d.Minutes()))
	case d < 48*time.Hour:
		return translate(r, "age.hours", "count", int(d.Hours()))
	}
	return translate(r, "age.days", "count", int(d.Hours()/24))
}
