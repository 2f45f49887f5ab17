package stripe_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/importer"
	"frontdesk/app/payhook"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

func TestMain(m *testing.M) {
	code := m.Run()
	stripetest.StopShared()
	if template.dir != "" {
		os.RemoveAll(template.dir)
	}
	os.Exit(code)
}

// template is a migrated empty database, made once and copied for each world: migrating is
// most of the cost of a fresh database, and the tests make many.
var template struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func openDB(t *testing.T) *db.DB {
	t.Helper()
	ctx := context.Background()
	template.once.Do(func() {
		if template.dir, template.err = os.MkdirTemp("", "frontdesk-stripe-test"); template.err != nil {
			return
		}
		d, err := db.Open(ctx, filepath.Join(template.dir, "migrated.db"))
		if err != nil {
			template.err = err
			return
		}
		defer d.Close()
		template.path = filepath.Join(template.dir, db.FileName)
		template.err = d.Backup(ctx, template.path)
	})
	if template.err != nil {
		t.Fatal(template.err)
	}
	raw, err := os.ReadFile(template.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), db.FileName)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// The world's clock starts on Monday 2026-11-23 12:00 UTC (09:00 in Santiago).
var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const (
	publicURL     = "https://desk.example.com"
	secretKey     = "sk_test_51FrontdeskTestKey0000"
	webhookSecret = "whsec_frontdeskTestSigningSecret000"
)

// clock is a time the test moves while the code reads it.
type clock struct{ ms atomic.Int64 }

func (c *clock) Now() time.Time          { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *clock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// world is a real SQLite file with a small business (one location in Santiago open around the
// clock, Ana, a haircut paid in full online and a colour with a deposit, Maria), online
// payments through Stripe — a Fake over the real stripe-mock — and the real notification route
// behind httptest.
type world struct {
	t        *testing.T
	d        *db.DB
	clock    *clock
	online   *payments.Online
	stripe   *stripetest.Fake
	hook     *httptest.Server
	logs     *strings.Builder
	currency string
	ids      map[string]int64
}

type links struct{}

func (links) URL(path string, q url.Values) string {
	u := publicURL + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func newWorld(t *testing.T, currency string) *world {
	t.Helper()
	ctx := context.Background()
	d := openDB(t)
	w := &world{t: t, d: d, clock: &clock{}, currency: currency, ids: map[string]int64{}, logs: &strings.Builder{}}
	w.clock.ms.Store(start.UnixMilli())
	if _, err := importer.Load(ctx, d, []byte(business(currency)), start); err != nil {
		t.Fatal(err)
	}
	w.exec(`UPDATE company SET online_payments = 1, payment_expiry_min = 60`)
	for name, q := range map[string]string{
		"location": `SELECT id FROM locations`, "ana": `SELECT id FROM providers`, "maria": `SELECT id FROM clients`,
		"haircut": `SELECT id FROM services WHERE name = 'Haircut'`, "colour": `SELECT id FROM services WHERE name = 'Colour'`,
	} {
		var id int64
		if err := d.Read.QueryRow(q).Scan(&id); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w.ids[name] = id
	}
	w.stripe = stripetest.NewFake(t, stripetest.SharedURL(t))
	key := make([]byte, 32)
	rand.Read(key)
	box, err := secrets.New(key)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(w.logs, testWriter{t}), nil))
	w.online = payments.NewOnline(d, payments.OnlineOptions{
		Sealer: box, Links: links{}, Now: w.clock.Now, Log: log,
		Providers: []payments.Registration{stripe.Registration(stripe.Config{APIURL: w.stripe.URL})},
	})
	problems, err := w.online.SaveSettings(ctx, payments.SettingsInput{Provider: stripe.Name,
		Typed: map[string]payments.Credentials{stripe.Name: {SecretKey: secretKey, WebhookSecret: webhookSecret}}})
	if err != nil || len(problems) > 0 {
		t.Fatalf("save settings: %v %v", problems, err)
	}
	r := chi.NewRouter()
	r.Post("/stripe/webhook", payhook.Handler(w.online, stripe.Name, log).ServeHTTP)
	w.hook = httptest.NewServer(r)
	t.Cleanup(w.hook.Close)
	return w
}

type testWriter struct{ t *testing.T }

func (tw testWriter) Write(p []byte) (int, error) {
	tw.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// business is an import file (docs/import.md) in currency.
func business(currency string) string {
	var hours []string
	for _, day := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		hours = append(hours, fmt.Sprintf(`{"day": %q, "open": "00:00", "close": "24:00"}`, day))
	}
	h := strings.Join(hours, ",")
	return `{
  "company": {"name": "Studio", "currency": "` + currency + `"},
  "locations": [{"key": "centro", "name": "Centro", "timezone": "America/Santiago",
    "country": {"code": "CL", "name": "Chile"}, "hours": [` + h + `]}],
  "services": [
    {"key": "cut", "name": "Haircut", "price": "15000", "duration": 30, "online_payment": {"mode": "MANDATORY_TOTAL"}},
    {"key": "colour", "name": "Colour", "price": "45000", "duration": 60,
     "online_payment": {"mode": "MANDATORY_PARTIAL", "amount": "10000"}}
  ],
  "providers": [{"key": "ana", "public_name": "Ana", "locations": ["centro"], "services": ["cut", "colour"],
    "hours": [` + strings.ReplaceAll(h, `"day"`, `"location": "centro", "day"`) + `]}],
  "clients": [{"key": "maria", "first_name": "María", "last_name": "López", "email": "maria@example.com"}]
}`
}

func (w *world) exec(q string, args ...any) {
	w.t.Helper()
	if _, err := w.d.Write.Exec(q, args...); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) count(q string, args ...any) int64 {
	w.t.Helper()
	var n int64
	if err := w.d.Read.QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// request raises a payment request for service at hour (Santiago) tomorrow, as /v3 does.
func (w *world) request(service string, hour int, price string) db.PaymentRequest {
	w.t.Helper()
	ctx := context.Background()
	santiago, _ := time.LoadLocation("America/Santiago")
	tomorrow := start.In(santiago).AddDate(0, 0, 1)
	at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), hour, 0, 0, 0, santiago).UTC().Format(time.RFC3339)
	client, location, provider := w.ids["maria"], w.ids["location"], w.ids["ana"]
	cart, err := payments.CreateCart(ctx, w.d, w.clock.Now(), payments.CartInput{
		ClientID: &client, LocationID: &location,
		Items: []payments.ItemInput{{ItemID: w.ids[service], ItemType: "service", UnitPrice: price, Quantity: 1,
			Instances: []payments.InstanceInput{{InstanceType: "booking", StartTime: &at, ProviderID: &provider}}}},
	})
	if err != nil {
		w.t.Fatal(err)
	}
	pr, err := payments.CreatePaymentRequest(ctx, w.d, w.clock.Now(), cart.Cart.ID, publicURL)
	if err != nil {
		w.t.Fatal(err)
	}
	return pr
}

// checkout sends the customer of pr to Stripe and returns the session frontdesk made.
func (w *world) checkout(pr db.PaymentRequest) (url string, session map[string]any) {
	w.t.Helper()
	url, err := w.online.StartCheckout(context.Background(), pr.UUID, "en")
	if err != nil {
		w.t.Fatalf("start checkout: %v", err)
	}
	var id string
	if err := w.d.Read.QueryRow(`SELECT session_id FROM online_checkouts WHERE payment_request_id = ? AND status = 'open'`, pr.ID).Scan(&id); err != nil {
		w.t.Fatal(err)
	}
	return url, w.stripe.Session(id)
}

// deliver posts a Stripe event to the real notification route, signed with secret.
func (w *world) deliver(payload []byte, secret string) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.hook.URL+"/stripe/webhook", strings.NewReader(string(payload)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", stripetest.Sign(secret, payload))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

func (w *world) status(id int64) string {
	w.t.Helper()
	var s string
	if err := w.d.Read.QueryRow(`SELECT status FROM payment_requests WHERE id = ?`, id).Scan(&s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

// events counts outbox events of type about payment request id.
func (w *world) events(eventType string, id int64) int64 {
	w.t.Helper()
	return w.count(`SELECT count(*) FROM events WHERE type = ? AND json_extract(CAST(body AS TEXT), '$.data.id') = ?`, eventType, id)
}

// bookingStatus is the status of the booking request id reserved.
func (w *world) bookingStatus(id int64) int64 {
	w.t.Helper()
	return w.count(`SELECT status_id FROM bookings WHERE payment_request_id = ?`, id)
}

// CI installs the stripe-mock these tests are written against.
func TestCIPinsStripeMock(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "STRIPE_MOCK_VERSION=" + stripetest.Version + "\n"; !strings.Contains(string(raw), want) {
		t.Errorf(".ci/run does not install stripe-mock %s (want a line %q)", stripetest.Version, strings.TrimSpace(want))
	}
}
