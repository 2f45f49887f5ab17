package site_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/managelink"
	"frontdesk/db"
)

// A visit's manage link shows the whole visit — every service with its provider and local
// times, its total — and moving or cancelling through it moves or cancels every booking of the
// visit at once, through the visit functions.
func TestManageLinkOfAVisit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	client := f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES ('Rosa', 'rosa@example.com', 0, 0)`)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	v, err := booking.BookVisit(ctx, f.db, f.clock.now(), booking.NewVisit{LocationID: 1, ClientID: client, StatusID: booking.StatusConfirmed,
		Source: booking.SourceOnline, Start: at, Segments: []booking.VisitSegment{{ServiceID: haircut, ProviderID: f.ana}, {ServiceID: 3, ProviderID: f.bruno}}})
	if err != nil {
		t.Fatal(err)
	}
	var token string
	if err := f.db.InTx(ctx, func(q *db.Queries) (err error) {
		token, err = managelink.New(ctx, q, v.Bookings[0].Booking.ID, f.clock.now())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	link := managelink.Path(token)
	res := f.get(link)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="visit-segment"`, "Haircut · Ana · 10:00–10:30", "Massage · Bruno · 10:30–11:15", "$45,000", "1 h 15 min")

	to := time.Date(2026, 4, 2, 14, 0, 0, 0, santiago)
	res = f.post(link+"/reschedule", url.Values{"start": {to.Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusSeeOther)
	for i, b := range f.bookings() {
		if want := to.Add(time.Duration(i) * 30 * time.Minute).UnixMilli(); b.start != want {
			t.Fatalf("booking %d of the visit starts at %v after the move, want %v", i, time.UnixMilli(b.start).In(santiago), time.UnixMilli(want).In(santiago))
		}
	}

	res = f.post(link+"/cancel", nil)
	wantStatus(t, res, http.StatusSeeOther)
	for i, b := range f.bookings() {
		if b.status != booking.StatusCancelled {
			t.Fatalf("booking %d of the visit has status %d after the cancel", i, b.status)
		}
	}
}
