package site_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/payments"
)

// A service whose online payment is mandatory goes through a payment request: the booking is
// reserved (status 2, source online) behind a pending request for the price, and the visitor
// lands on the checkout page with their manage link. For a deposit (MANDATORY_PARTIAL) the
// request is for the price and what is due online is the deposit. Without online payments the
// site does not offer such a service at all.
func TestServicesPaidOnline(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	form := f.details(colour, f.ana, at)
	page := f.get(detailsPath(colour, f.ana, at))
	wantBody(t, page, "Paid online when booking: $40,000", "Confirm and pay", `target="_top"`)
	res := f.post("/book/1/2/details", form)
	wantStatus(t, res, http.StatusSeeOther)
	loc, err := url.Parse(res.location())
	if err != nil || !strings.HasPrefix(loc.Path, "/pay/") || loc.Query().Get("manage") == "" {
		t.Fatalf("a paid service leads to %q, want the checkout page with the manage link", res.location())
	}
	var status, amount int64
	var prStatus, checkoutURL string
	err = f.db.Read.QueryRow(`SELECT b.status_id, pr.amount_cents, pr.status, pr.checkout_url FROM bookings b
		JOIN payment_requests pr ON pr.id = b.payment_request_id WHERE b.source = 'online'`).Scan(&status, &amount, &prStatus, &checkoutURL)
	if err != nil {
		t.Fatal(err)
	}
	if status != 2 || amount != 4000000 || prStatus != "pending" || checkoutURL != "https://desk.example.com"+loc.Path {
		t.Errorf("booking status %d, request %d %s %s; want reserved, 4000000 pending, the public checkout URL", status, amount, prStatus, checkoutURL)
	}
	manage := "/book/manage/" + loc.Query().Get("manage")
	held := f.get(manage)
	wantBody(t, held, "Held, waiting for payment", `href="`+loc.Path+`"`, "A booking waiting for its payment cannot be moved.", `data-testid="manage-cancel"`)
	wantStatus(t, f.post(manage+"/reschedule", url.Values{"start": {at.Add(time.Hour).Format(time.RFC3339)}}), http.StatusUnprocessableEntity)
	// Submitted again, the form leads to the same checkout and books nothing more.
	again := f.post("/book/1/2/details", form)
	if l, _ := url.Parse(again.location()); l == nil || l.Path != loc.Path {
		t.Errorf("a resubmitted paid booking leads to %q, want %s", again.location(), loc.Path)
	}
	if n := f.count(`SELECT count(*) FROM payment_requests`); n != 1 {
		t.Errorf("%d payment requests, want 1", n)
	}
	// Cancelling the held booking cancels its payment request: it can no longer be paid.
	wantStatus(t, f.post(manage+"/cancel", nil), http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM payment_requests WHERE status = 'cancelled'`) + f.count(`SELECT count(*) FROM bookings WHERE status_id = 5`); n != 2 {
		t.Errorf("after cancelling a held booking: %d of (request cancelled, booking cancelled), want both", n)
	}

	// A deposit.
	f.exec(`UPDATE services SET online_payment_mode = 'MANDATORY_PARTIAL', online_payment_cents = 1000000 WHERE id = 2`)
	wantBody(t, f.get("/book/1"), "A deposit of $10,000 is paid online when booking")
	f.book2(colour, at.Add(2*time.Hour))
	var prID int64
	if err := f.db.Read.QueryRow(`SELECT id, amount_cents FROM payment_requests ORDER BY id DESC LIMIT 1`).Scan(&prID, &amount); err != nil {
		t.Fatal(err)
	}
	v, err := payments.LoadRequest(context.Background(), f.db.R, prID)
	if err != nil {
		t.Fatal(err)
	}
	due, err := payments.DueOnline(context.Background(), f.db.R, v, "en")
	if err != nil {
		t.Fatal(err)
	}
	if amount != 4000000 || due.AmountCents != 1000000 || !due.Partial {
		t.Errorf("deposit: request %d, due online %d (partial %v); want 4000000 with 1000000 due online", amount, due.AmountCents, due.Partial)
	}

	// No online payments: the service is not offered.
	f.exec(`UPDATE company SET online_payments = 0`)
	if strings.Contains(f.get("/book/1").body, "Colour") {
		t.Error("a service needing online payment is offered while the business takes none")
	}
	wantStatus(t, f.get("/book/1/2"), http.StatusNotFound)
}

// book2 books a service with Ana and expects the checkout page.
func (f *fixture) book2(service int64, at time.Time) {
	f.t.Helper()
	res := f.post("/book/1/2/details", f.details(service, f.ana, at))
	wantStatus(f.t, res, http.StatusSeeOther)
	if !strings.HasPrefix(res.location(), "/pay/") {
		f.t.Fatalf("led to %q, want /pay/…", res.location())
	}
}
