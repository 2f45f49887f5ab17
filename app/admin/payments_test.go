package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
)

// payWorld is the booking world with online payments on and a way to raise payment requests
// the way /v3 does: a cart for Maria with a haircut booked with Ana at 10:00 (or later) on the
// world's day.
type payWorld struct {
	bookingWorld
	ts *testServer
	d  *db.DB
}

func seedPayWorld(t *testing.T, ts *testServer) payWorld {
	t.Helper()
	w := payWorld{bookingWorld: seedBookingWorld(t, ts), ts: ts, d: openBookingDB(t, ts)}
	for _, q := range []string{`UPDATE company SET online_payments = 1`, `UPDATE services SET online_payment_mode = 'OPTIONAL'`} {
		if _, err := w.d.Write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// request raises a payment request for a haircut with Ana at clock (HH:MM) on the world's day.
func (w payWorld) request(t *testing.T, clock string) db.PaymentRequest {
	t.Helper()
	ctx := context.Background()
	day, err := time.ParseInLocation("2006-01-02 15:04", w.Day+" "+clock, w.zone)
	if err != nil {
		t.Fatal(err)
	}
	start := day.UTC().Format(time.RFC3339)
	provider := w.anaID
	cart, err := payments.CreateCart(ctx, w.d, time.Now(), payments.CartInput{
		ClientID: &w.mariaID, LocationID: &w.norteID,
		Items: []payments.ItemInput{{ItemID: w.serviceID, ItemType: "service", UnitPrice: "25", Quantity: 1,
			Instances: []payments.InstanceInput{{InstanceType: "booking", StartTime: &start, ProviderID: &provider}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := payments.CreatePaymentRequest(ctx, w.d, time.Now(), cart.Cart.ID, w.ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func (w payWorld) status(t *testing.T, id int64) string {
	t.Helper()
	pr, err := w.d.R.GetPaymentRequest(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return pr.Status
}

func (w payWorld) reservedBooking(t *testing.T, prID int64) (id, status int64) {
	t.Helper()
	if err := w.d.Read.QueryRow(`SELECT id, status_id FROM bookings WHERE payment_request_id = ?`, prID).Scan(&id, &status); err != nil {
		t.Fatal(err)
	}
	return id, status
}

// The owner settles a request at the front desk: the settle form refuses a missing method,
// then records the payment (sale, confirmed booking, payment_request.paid) and the sale shows
// in the sales list.
func TestSettlePaymentRequest(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	pr := w.request(t, "10:00")
	path := ui.PaymentURL(pr.ID)

	list := c.get(t, "/payments")
	wantStatus(t, list, http.StatusOK)
	wantBody(t, list, `data-testid="payment-row"`, "Maria Lopez", "$25.00", "Awaiting payment", `href="`+path+`"`)
	page := c.get(t, path)
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="settle-form"`, `data-testid="cancel-payment-form"`, "Haircut", pr.CheckoutURL, "Booking #")

	res := c.post(t, ui.PaymentSettleURL(pr.ID), url.Values{"method": {""}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-method"`, "Choose how the client paid.")
	res = c.post(t, ui.PaymentSettleURL(pr.ID), url.Values{"method": {strconv.FormatInt(int64(payments.MethodOnline), 10)}})
	wantStatus(t, res, http.StatusUnprocessableEntity) // online payments come from an adapter, not the desk
	if got := w.status(t, pr.ID); got != payments.StatusPending {
		t.Fatalf("got status %s after refused forms, want pending", got)
	}

	wantRedirect(t, c.post(t, ui.PaymentSettleURL(pr.ID), url.Values{"method": {"1"}}), path)
	page = c.get(t, path)
	wantBody(t, page, `data-testid="flash"`, "Payment recorded", `data-testid="payment-sale"`, "Paid")
	if got := w.status(t, pr.ID); got != payments.StatusPaid {
		t.Errorf("got status %s, want paid", got)
	}
	if _, status := w.reservedBooking(t, pr.ID); status != 1 {
		t.Errorf("got booking status %d, want 1 (confirmed)", status)
	}
	if got := eventTypes(t, w.d); !slices.Contains(got, "payment_request.paid") {
		t.Errorf("got events %v, want payment_request.paid among them", got)
	}
	sales := c.get(t, "/payments/sales")
	wantStatus(t, sales, http.StatusOK)
	wantBody(t, sales, `data-testid="sale-row"`, "Cash", "Maria Lopez", "Norte")

	// Settling again is refused with a message, not a second sale.
	wantRedirect(t, c.post(t, ui.PaymentSettleURL(pr.ID), url.Values{"method": {"2"}}), path)
	wantBody(t, c.get(t, path), "only a pending request can be changed")
	var n int
	if err := w.d.Read.QueryRow(`SELECT count(*) FROM sales`).Scan(&n); err != nil || n != 1 {
		t.Errorf("got %d sales (err %v), want 1", n, err)
	}
}

func TestCancelPaymentRequestInAdmin(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	pr := w.request(t, "11:00")
	wantRedirect(t, c.post(t, ui.PaymentCancelURL(pr.ID), nil), ui.PaymentURL(pr.ID))
	page := c.get(t, ui.PaymentURL(pr.ID))
	wantBody(t, page, "Payment request cancelled", "Cancelled")
	if got := w.status(t, pr.ID); got != payments.StatusCancelled {
		t.Errorf("got status %s, want cancelled", got)
	}
	if _, status := w.reservedBooking(t, pr.ID); status != 5 {
		t.Errorf("got booking status %d, want 5 (released)", status)
	}
	filtered := c.get(t, "/payments?status=cancelled")
	wantBody(t, filtered, `data-testid="payment-row"`)
	if c.get(t, "/payments?status=paid").Body == filtered.Body {
		t.Error("the status filter does not change the list")
	}
}

func TestPaymentPagesNotFound(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	for _, path := range []string{"/payments/999", "/payments/abc", "/payments/0"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
	}
	wantStatus(t, c.post(t, "/payments/999/settle", url.Values{"method": {"1"}}), http.StatusNotFound)
	wantStatus(t, c.post(t, "/payments/999/cancel", nil), http.StatusNotFound)
	wantStatus(t, c.get(t, "/payments?status=%3Cscript%3E&page=-4"), http.StatusOK)
}

// The checkout page and a payment request's admin page fit a 390-px phone (the route-walking
// mobile test opens them without data).
func TestPaymentPagesOnPhone(t *testing.T) {
	const width = 390
	ts := startServer(t)
	setup := ts.setupURL(t)
	b := newBrowser(t, width, 844, chromedp.EmulateMobile)
	b.do("setup", chromedp.Navigate(setup), chromedp.WaitVisible(testID("setup-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword), chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("webhook-health")))
	w := seedPayWorld(t, ts)
	pr := w.request(t, "10:00")
	for _, page := range []struct{ path, wait string }{
		{"/pay/" + pr.UUID, "checkout-instructions"},
		{"/payments", "payment-row"},
		{"/payments/" + strconv.FormatInt(pr.ID, 10), "settle-form"},
	} {
		b.do(strings.ReplaceAll(strings.Trim(page.path, "/"), "/", "-"), chromedp.Navigate(ts.URL+page.path), chromedp.WaitVisible(testID(page.wait)))
		if got := evalJS[int](b, "document.documentElement.scrollWidth"); got > width {
			t.Errorf("%s: page is %d px wide on a %d px screen", page.path, got, width)
		}
	}
}
