package site_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
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

// The reschedule picker of a visit's manage link offers only the times where the whole visit
// fits, each booking with its own provider: a time free for the first service but not for the
// second is not offered (nor confirmed), and a time free for both moves every booking of it.
func TestVisitRescheduleOffersOnlyWholeVisitTimes(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	client := f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES ('Rosa', 'rosa@example.com', 0, 0)`)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	v, err := booking.BookVisit(ctx, f.db, f.clock.now(), booking.NewVisit{LocationID: 1, ClientID: client, StatusID: booking.StatusConfirmed,
		Source: booking.SourceOnline, Start: at, Segments: []booking.VisitSegment{{ServiceID: haircut, ProviderID: f.ana}, {ServiceID: massage, ProviderID: f.bruno}}})
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
	// Bruno is busy on 2 April from 14:30: a visit at 14:00 would have its massage then.
	f.book(massage, f.details(massage, f.bruno, time.Date(2026, 4, 2, 14, 30, 0, 0, santiago)))

	confirmOf := func(at time.Time) string {
		return link + "/reschedule/confirm?" + url.Values{"start": {at.Format(time.RFC3339)}}.Encode()
	}
	blocked, free := time.Date(2026, 4, 2, 14, 0, 0, 0, santiago), time.Date(2026, 4, 2, 16, 0, 0, 0, santiago)
	res := f.get(link + "/reschedule?date=2026-04-02")
	wantStatus(t, res, http.StatusOK)
	if strings.Contains(res.body, strings.ReplaceAll(confirmOf(blocked), "&", "&amp;")) {
		t.Errorf("the visit's reschedule picker offers 14:00, when its massage's provider is busy")
	}
	if !strings.Contains(res.body, strings.ReplaceAll(confirmOf(free), "&", "&amp;")) {
		t.Errorf("the visit's reschedule picker does not offer 16:00, when the whole visit fits")
	}
	wantBody(t, f.get(confirmOf(blocked)), "Sorry, that time was just taken")

	res = f.post(link+"/reschedule", url.Values{"start": {free.Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusSeeOther)
	for i, b := range f.bookings()[:2] {
		if want := free.Add(time.Duration(i) * 30 * time.Minute).UnixMilli(); b.start != want {
			t.Fatalf("booking %d of the visit starts at %v after the move, want %v", i, time.UnixMilli(b.start).In(santiago), time.UnixMilli(want).In(santiago))
		}
	}

	// With the massage no longer booked online, there is no time to move the visit to: the
	// picker says so, it does not fail.
	f.exec(`UPDATE services SET online_booking = 0 WHERE id = ?`, massage)
	res = f.get(link + "/reschedule?date=2026-04-02")
	wantStatus(t, res, http.StatusOK)
	if strings.Contains(res.body, "/reschedule/confirm?") {
		t.Errorf("the picker offers times for a visit whose massage is not booked online any more")
	}
}
