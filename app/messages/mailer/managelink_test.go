package mailer_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"frontdesk/app/ical"
	"frontdesk/app/managelink"
)

// A client's confirmation carries a personal manage link of the booking site that leads to the
// booking, and its calendar file has the UID the booking site's download uses.
func TestConfirmationCarriesManageLink(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := time.Date(2026, 11, 30, 15, 30, 0, 0, santiago)
	v := e.book("María", start)
	got := e.waitFor("Booking confirmed", 1)[0]
	m := regexp.MustCompile(`https://book\.example\.com/book/manage/([A-Za-z0-9_-]{43})`).FindStringSubmatch(got.Text)
	if m == nil {
		t.Fatalf("the confirmation has no manage link:\n%s", got.Text)
	}
	id, err := managelink.Find(context.Background(), e.db.R, m[1], e.now())
	if err != nil || id != v.Booking.ID {
		t.Errorf("the link leads to booking %d (%v), want %d", id, err, v.Booking.ID)
	}
	var calendarID string
	if err := e.db.Read.QueryRow(`SELECT calendar_id FROM site_settings`).Scan(&calendarID); err != nil {
		t.Fatal(err)
	}
	_, ev := calendarStart(t, got.Attachments["booking.ics"])
	if uid := ev.GetProperty("UID"); uid == nil || uid.Value != ical.UID(v.Booking.ID, calendarID) {
		t.Errorf(".ics UID %+v, want the booking site's %s", uid, ical.UID(v.Booking.ID, calendarID))
	}
}
