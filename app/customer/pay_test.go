package customer_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/middleware"
	"frontdesk/app/payments"
)

// The checkout page is public: anyone with the link sees what is owed, until when, and how to
// pay; nothing about the client. Unknown or malformed UUIDs are the 404 page. It is the same
// whether the booking site is on or off.
func TestCheckoutPage(t *testing.T) {
	f := newFixture(t)
	start := time.Now().Add(72 * time.Hour).Truncate(time.Hour)
	pr := f.request(start)
	path := "/pay/" + pr.UUID
	if pr.CheckoutURL != f.url+path {
		t.Fatalf("got checkout URL %q, want %q", pr.CheckoutURL, f.url+path)
	}

	res := f.get(path)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="checkout-business">Studio Ana<`, "Studio Ana Centro", "Haircut", `data-testid="checkout-total"`,
		"Awaiting payment", `data-testid="checkout-expiry"`, "minutes left", `data-testid="checkout-instructions"`, "front desk")
	for _, secret := range []string{"María", "López", "maria@example.com", `data-testid="logout"`} {
		if strings.Contains(res.body, secret) {
			t.Errorf("the public checkout page shows %q", secret)
		}
	}
	if got := res.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("got Cache-Control %q, want no-store", got)
	}
	if got := res.header.Get("Content-Security-Policy"); got != middleware.PagePolicy {
		t.Errorf("got Content-Security-Policy %q, want the pages' policy %q", got, middleware.PagePolicy)
	}
	wantStatus(t, f.get("/pay/"+strings.ToUpper(pr.UUID)), http.StatusOK)

	for _, on := range []int{1, 0} {
		f.exec(`UPDATE site_settings SET enabled = ? WHERE id = 1`, on)
		wantStatus(t, f.get(path), http.StatusOK)
	}

	for _, bad := range []string{"/pay/00000000-0000-4000-8000-000000000000", "/pay/not-a-uuid", "/pay/" + pr.UUID + "x",
		"/pay/%27%20OR%201=1", "/pay", "/pay/", "/pay/" + pr.UUID + "/more"} {
		t.Run(bad, func(t *testing.T) {
			res := f.get(bad)
			wantStatus(t, res, http.StatusNotFound)
			wantBody(t, res, `data-testid="error-status"`)
		})
	}
	// The other paths are not the customer pages' (the admin's, under "/").
	for _, other := range []string{"/payments", "/pay-later", "/messages/log"} {
		wantStatus(t, f.get(other), notAdmin)
	}
	// A wrong method is this page's 405, not the router's bare one.
	res = f.post(path, nil, nil)
	wantStatus(t, res, http.StatusMethodNotAllowed)
	wantBody(t, res, `data-testid="error-status"`)

	if _, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodCash, time.Now()); err != nil {
		t.Fatal(err)
	}
	wantBody(t, f.get(path), `data-testid="checkout-paid"`, "Paid")
	cancelled := f.request(start.Add(time.Hour))
	if _, err := payments.Cancel(context.Background(), f.db, time.Now(), cancelled.ID); err != nil {
		t.Fatal(err)
	}
	wantBody(t, f.get("/pay/"+cancelled.UUID), `data-testid="checkout-cancelled"`)
}

// Without online payments the pay button's target is the 404 page; another origin's form post
// is refused before anything is looked at.
func TestStartCheckoutWithoutOnlinePayments(t *testing.T) {
	f := newFixture(t)
	pr := f.request(time.Now().Add(72 * time.Hour).Truncate(time.Hour))
	res := f.post("/pay/"+pr.UUID+"/checkout", nil, nil)
	wantStatus(t, res, http.StatusNotFound)
	res = f.post("/pay/"+pr.UUID+"/checkout", url.Values{}, http.Header{"Sec-Fetch-Site": {"cross-site"}})
	wantStatus(t, res, http.StatusForbidden)
	wantBody(t, res, `data-testid="error-status"`)
}
