package customer_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/customer"
	"frontdesk/app/importer"
	"frontdesk/app/messages"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// fixture is a real SQLite file with the messages fixture business (Studio Ana in Santiago,
// a haircut, clients with addresses: app/messages/testdata/business.json) and the customer
// pages on a real listener, mounted on a root router as app/server.go mounts them, beside a
// stand-in for the admin at "/" that answers 418.
type fixture struct {
	t    *testing.T
	db   *db.DB
	url  string
	msgs *messages.Service
}

// notAdmin is what the stand-in for the admin answers: a path the customer pages must leave alone.
const notAdmin = http.StatusTeapot

func newFixture(t *testing.T) *fixture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "messages", "testdata", "business.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	if _, err := importer.Load(context.Background(), d, raw, time.Now()); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: d}
	// Payment requests need online payments on; the business has no provider, so requests are
	// paid at the front desk.
	f.exec(`UPDATE company SET online_payments = 1`)
	f.exec(`UPDATE services SET online_payment_mode = 'OPTIONAL'`)
	f.msgs = messages.New(d, messages.Options{Links: links{f}})
	r := chi.NewRouter()
	r.Use(middleware.SecurityHeaders, middleware.HeadAsGet)
	customer.New(d, customer.Options{Messages: f.msgs}).Mount(r)
	r.Mount("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(notAdmin) }))
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

// links builds the fixture's absolute links (the opt-out link) on its listener.
type links struct{ f *fixture }

func (l links) URL(path string, _ url.Values) string { return l.f.url + path }

// request raises a payment request for a haircut with Ana at start.
func (f *fixture) request(start time.Time) db.PaymentRequest {
	f.t.Helper()
	ctx := context.Background()
	client, location, provider := int64(1), int64(1), int64(1)
	at := start.UTC().Format(time.RFC3339)
	cart, err := payments.CreateCart(ctx, f.db, time.Now(), payments.CartInput{
		ClientID: &client, LocationID: &location,
		Items: []payments.ItemInput{{ItemID: 1, ItemType: "service", UnitPrice: "25000", Quantity: 1,
			Instances: []payments.InstanceInput{{InstanceType: "booking", StartTime: &at, ProviderID: &provider}}}},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	pr, err := payments.CreatePaymentRequest(ctx, f.db, time.Now(), cart.Cart.ID, f.url)
	if err != nil {
		f.t.Fatal(err)
	}
	return pr
}

// exec runs a statement behind the pages' back.
func (f *fixture) exec(query string, args ...any) {
	f.t.Helper()
	if _, err := f.db.Write.Exec(query, args...); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
}

type response struct {
	status int
	header http.Header
	body   string
}

// do sends req and reads the whole answer; redirects are not followed.
func (f *fixture) do(req *http.Request) response {
	f.t.Helper()
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(body)}
}

func (f *fixture) get(path string) response {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.url+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.do(req)
}

// post sends a form as a browser on the page's own origin does; header adds or replaces
// headers (a mail client's one-click request, another origin's form).
func (f *fixture) post(path string, form url.Values, header http.Header) response {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range header {
		req.Header[k] = v
	}
	return f.do(req)
}

func wantStatus(t *testing.T, res response, want int) {
	t.Helper()
	if res.status != want {
		t.Fatalf("status %d, want %d; body:\n%s", res.status, want, res.body)
	}
}

func wantBody(t *testing.T, res response, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(res.body, s) {
			t.Errorf("body lacks %q:\n%s", s, res.body)
		}
	}
}
