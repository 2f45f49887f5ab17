package stripe_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/customer"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/site"
)

// pages mounts the customer pages over the world, as app/server.go does, and returns a client
// that does not follow redirects.
func (w *world) pages() (base string, get func(path string) (*http.Response, string), post func(path string, form url.Values) (*http.Response, string)) {
	w.t.Helper()
	r := chi.NewRouter()
	r.Use(middleware.SecurityHeaders)
	customer.New(w.d, customer.Options{Now: w.clock.Now, Online: w.online}).Mount(r)
	srv := httptest.NewServer(r)
	w.t.Cleanup(srv.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(req *http.Request) (*http.Response, string) {
		res, err := client.Do(req)
		if err != nil {
			w.t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	get = func(path string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		return do(req)
	}
	post = func(path string, form url.Values) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		return do(req)
	}
	return srv.URL, get, post
}

// The sign-up page lists the active plans; a filled form finds or makes the client by their
// email and sends them to Stripe Checkout in subscription mode (the page's policy lets the form
// go there); a bad form is the form again with what is wrong, and nothing written. The
// membership's page then offers Stripe's customer portal to manage or cancel it.
func TestMembershipSignUpPage(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	if _, err := payments.SavePlan(ctx, w.d, w.clock.Now(), 0, payments.PlanInput{
		Name: "Monthly cuts", Price: "30000", Sessions: map[int64]int64{w.ids["haircut"]: 4},
	}); err != nil {
		t.Fatal(err)
	}
	_, get, post := w.pages()
	res, body := get("/membership/join")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="membership-join-form"`) || !strings.Contains(body, "Monthly cuts") {
		t.Fatalf("join page: %d\n%s", res.StatusCode, body)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' https://checkout.stripe.com") {
		t.Errorf("policy %q does not let the form go to Stripe Checkout", csp)
	}
	plan := w.count(`SELECT id FROM membership_plans`)
	res, _ = post("/membership/join", url.Values{"plan_id": {itoa(plan)}, "first_name": {"Nadia"}, "email": {"not an email"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("bad email: %d, want 422", res.StatusCode)
	}
	res, _ = post("/membership/join", url.Values{"plan_id": {"999"}, "first_name": {"Nadia"}, "email": {"nadia@example.com"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("unknown plan: %d, want 422", res.StatusCode)
	}
	if n := w.count(`SELECT count(*) FROM memberships`) + w.count(`SELECT count(*) FROM clients WHERE email = 'nadia@example.com'`); n != 0 {
		t.Fatalf("%d rows after refused forms, want none", n)
	}
	res, _ = post("/membership/join", url.Values{"plan_id": {itoa(plan)}, "first_name": {"Nadia"}, "last_name": {"Núñez"}, "email": {"Nadia@Example.com"}})
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "https://checkout.stripe.com/") {
		t.Fatalf("sign-up: %d to %q, want 303 to Stripe Checkout", res.StatusCode, res.Header.Get("Location"))
	}
	if n := w.count(`SELECT count(*) FROM memberships m JOIN clients c ON c.id = m.client_id
		WHERE c.email = 'nadia@example.com' AND m.status = 'pending'`); n != 1 {
		t.Errorf("%d pending memberships for the new client, want 1", n)
	}
	calls := w.stripe.Requests(http.MethodPost, "/v1/checkout/sessions")
	if len(calls) != 1 || calls[0].Form.Get("mode") != "subscription" || calls[0].Form.Get("customer_email") != "nadia@example.com" {
		t.Errorf("checkout calls %+v, want one subscription session for nadia@example.com", calls)
	}
	// María, a known client, signs up: her own record is used.
	post("/membership/join", url.Values{"plan_id": {itoa(plan)}, "first_name": {"María"}, "email": {"maria@example.com"}})
	if n := w.count(`SELECT count(*) FROM memberships WHERE client_id = ?`, w.ids["maria"]); n != 1 {
		t.Errorf("%d memberships for María, want 1", n)
	}

	var id int64
	var uuid string
	if err := w.d.Read.QueryRow(`SELECT id, uuid FROM memberships WHERE client_id = ?`, w.ids["maria"]).Scan(&id, &uuid); err != nil {
		t.Fatal(err)
	}
	w.mustDeliver(stripetest.Event("", "invoice.paid", stripetest.Invoice("in_j", "sub_j", "cus_j", id, start, 30000, "clp", true)), payments.OutcomeMembershipRenewed)
	res, body = get("/membership/" + uuid)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `data-testid="membership-portal-form"`) {
		t.Fatalf("membership page: %d\n%s", res.StatusCode, body)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "https://billing.stripe.com") {
		t.Errorf("policy %q does not let the manage form go to Stripe's portal", csp)
	}
	res, _ = post("/membership/"+uuid+"/portal", url.Values{})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") == "" {
		t.Errorf("portal: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// The booking site's services page links to the sign-up page, in the visitor's language, only
// while clients can sign up there: a provider is active and so is a plan.
func TestBookingSiteLinksToMembershipJoin(t *testing.T) {
	w := newWorld(t, "CLP")
	ctx := context.Background()
	w.exec(`UPDATE site_settings SET enabled = 1`)
	r := chi.NewRouter()
	r.Mount("/book", site.New(w.d, site.Options{Now: w.clock.Now, Links: links{}, PostsPerHour: -1, Online: w.online}).Routes())
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	services := func(lang string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/book/"+itoa(w.ids["location"]), nil)
		req.Header.Set("Accept-Language", lang)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("services page: %d %s", res.StatusCode, body)
		}
		return string(body)
	}
	link := `<a href="/membership/join" data-testid="membership-link">`
	if body := services("en"); strings.Contains(body, "/membership/join") {
		t.Errorf("no plan yet, but the services page links to the sign-up page")
	}
	plan, err := payments.SavePlan(ctx, w.d, w.clock.Now(), 0, payments.PlanInput{
		Name: "Monthly cuts", Price: "30000", Sessions: map[int64]int64{w.ids["haircut"]: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	if body := services("en"); !strings.Contains(body, link+"Become a member</a>") {
		t.Errorf("an active plan and Stripe: no link to the sign-up page in English")
	}
	if body := services("es"); !strings.Contains(body, link+"Hazte miembro</a>") {
		t.Errorf("an active plan and Stripe: no link to the sign-up page in Spanish")
	}
	w.exec(`UPDATE payment_provider_settings SET provider = 'none'`)
	if body := services("en"); strings.Contains(body, "/membership/join") {
		t.Errorf("no payment provider, but the services page links to the sign-up page")
	}
	w.exec(`UPDATE payment_provider_settings SET provider = ?`, stripe.Name)
	w.exec(`UPDATE membership_plans SET active = 0 WHERE id = ?`, plan.ID)
	if body := services("en"); strings.Contains(body, "/membership/join") {
		t.Errorf("no active plan, but the services page links to the sign-up page")
	}
}
