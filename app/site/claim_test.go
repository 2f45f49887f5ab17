package site_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// TestClaimLinks: a cancel sends claim links; the first visitor to claim books the time on the
// page behind their link and lands on their booking; the second is told it is gone and shown
// other free times, each leading to the booking form.
func TestClaimLinks(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	ms := start.UnixMilli()
	for _, name := range []string{"Held", "First", "Second"} {
		f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES (?, ?, ?, ?)`, name, strings.ToLower(name)+"@example.com", ms, ms)
	}
	at := start.Add(26 * time.Hour)
	v, err := booking.Create(ctx, f.db, start, booking.NewBooking{LocationID: centro, ServiceID: haircut, ProviderID: f.ana, ClientID: 1,
		StatusID: booking.StatusConfirmed, Start: at, Source: booking.SourceAdmin})
	if err != nil {
		t.Fatal(err)
	}
	day := booking.DateOf(at)
	var waits []int64
	for _, c := range []int64{2, 3} {
		w, err := booking.JoinAppointmentWaitlist(ctx, f.db, start, booking.WaitRequest{LocationID: centro, ServiceID: haircut,
			ClientID: c, First: day, Last: day.AddDays(1), Source: booking.SourceOnline})
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w.ID)
	}
	if err := booking.Cancel(ctx, f.db, start, v.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, w := range waits {
		var detail string
		if err := f.db.Read.QueryRow(`SELECT m.detail_json FROM messages m JOIN appointment_offers o ON o.id = m.offer_id WHERE o.wait_id = ?`, w).Scan(&detail); err != nil {
			t.Fatalf("wait %d: no claim link: %v", w, err)
		}
		var d struct{ Token string }
		if err := json.Unmarshal([]byte(detail), &d); err != nil {
			t.Fatal(err)
		}
		links = append(links, "/book/claim/"+d.Token)
	}

	page := f.get(links[0])
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="claim-form"`, "Haircut", "Ana")
	won := f.post(links[0], nil)
	wantStatus(t, won, http.StatusSeeOther)
	if loc := won.header.Get("Location"); !strings.HasPrefix(loc, "/book/manage/") {
		t.Fatalf("a claim leads to %q, want the booking's page", loc)
	}
	lost := f.post(links[1], nil)
	wantStatus(t, lost, http.StatusConflict)
	wantBody(t, lost, `data-testid="claim-gone"`, `data-testid="claim-alternatives"`, "/book/1/1/details?provider=")
	again := f.get(links[0])
	wantStatus(t, again, http.StatusOK)
	wantBody(t, again, `data-testid="claim-gone"`)
	if n := f.count(`SELECT count(*) FROM bookings WHERE start_at = ? AND status_id <> 5`, at.UnixMilli()); n != 1 {
		t.Fatalf("%d live bookings at the freed time, want 1", n)
	}
	if n := f.get("/book/claim/not-a-token"); n.status != http.StatusNotFound {
		t.Fatalf("an unknown claim link: %d", n.status)
	}
}
