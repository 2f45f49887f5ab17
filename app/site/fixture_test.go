package site_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/site"
	"frontdesk/db"
)

// fixture is the booking site over a fresh database, served by httptest, with a clock the test
// moves. Its business (seeded with plain SQL):
//   - company "Studio" (CLP, 30-minute step, no notice, 400 days ahead, edits and cancels allowed);
//   - location Centro in America/Santiago, open around the clock every day, on the site;
//   - category Hair with Haircut (30 min, 15000, keywords "corte", "peluquería") and Colour
//     (60 min, MANDATORY_TOTAL online payment); Massage (45 min, no category, keyword "relajación");
//     Offline (online booking off);
//   - Ana and Bruno, working at Centro around the clock every day, giving every service;
//   - custom attributes Allergies (text, mandatory, asked online) and Shoe size (integer, not asked);
//   - the site on, with the policy "Cancel 24 h ahead."
type fixture struct {
	t       testing.TB
	db      *db.DB
	srv     *httptest.Server
	handler http.Handler
	clock   *clock
	ana     int64
	bruno   int64
	allerg  int64
}

const (
	centro  = 1
	haircut = 1
	colour  = 2
	massage = 3
	offline = 4
)

// clock is the site's injected time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// links is the public URL of the tests.
type links struct{}

func (links) URL(path string, q url.Values) string {
	u := "https://desk.example.com" + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// santiago is America/Santiago.
var santiago = mustZone("America/Santiago")

func mustZone(name string) *time.Location {
	z, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return z
}

// start is the fixture's clock: Monday 2026-03-30 09:00 in Santiago, before the April fall-back.
var start = time.Date(2026, 3, 30, 9, 0, 0, 0, santiago)

func newFixture(t testing.TB, opts ...func(*site.Options)) *fixture {
	t.Helper()
	return newFixtureIn(t, t.TempDir(), opts...)
}

// newFixtureIn is newFixture with its database in dir (a small tmpfs, for a full disk).
func newFixtureIn(t testing.TB, dir string, opts ...func(*site.Options)) *fixture {
	t.Helper()
	// Every fixture starts from a copy of one migrated database: migrating takes seconds under
	// the race detector, copying a file nothing.
	path := filepath.Join(dir, db.FileName)
	if err := os.WriteFile(path, migrated(t), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	f := &fixture{t: t, db: d, clock: &clock{t: start}}
	ms := start.UnixMilli()
	f.exec(`INSERT INTO company (id, name, currency, slot_step_min, min_notice_min, max_advance_days, online_payments, created_at, updated_at)
		VALUES (1, 'Studio', 'CLP', 30, 0, 400, 1, ?, ?)`, ms, ms)
	f.exec(`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`)
	f.exec(`INSERT INTO locations (id, uuid, name, timezone, country_id, address_json, created_at, updated_at)
		VALUES (1, 'l1', 'Centro', 'America/Santiago', 1, '{"route":"Av. Providencia","street_number":"1234","locality":"Santiago"}', ?, ?)`, ms, ms)
	for day := 0; day < 7; day++ {
		f.exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, ?, 0, 1440)`, day)
	}
	f.exec(`INSERT INTO categories (id, name, created_at, updated_at) VALUES (1, 'Hair', ?, ?)`, ms, ms)
	f.exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, category_id, keywords_json, online_payment_mode, online_booking, created_at, updated_at) VALUES
		(1, 's1', 'Haircut', 1500000, 30, 1, '["corte","peluquería"]', 'NOT_AVAILABLE', 1, ?, ?),
		(2, 's2', 'Colour', 4000000, 60, 1, '[]', 'MANDATORY_TOTAL', 1, ?, ?),
		(3, 's3', 'Massage', 3000000, 45, NULL, '["relajación"]', 'NOT_AVAILABLE', 1, ?, ?),
		(4, 's4', 'Offline', 1000000, 30, NULL, '[]', 'NOT_AVAILABLE', 0, ?, ?)`, ms, ms, ms, ms, ms, ms, ms, ms)
	f.ana = f.provider("Ana")
	f.bruno = f.provider("Bruno")
	f.allerg = f.exec(`INSERT INTO custom_attributes (name, datatype, mandatory, sort_order) VALUES ('Allergies', 'text', 1, 1)`)
	f.exec(`INSERT INTO custom_attributes (name, datatype, mandatory, sort_order) VALUES ('Shoe size', 'integer', 0, 2)`)
	f.exec(`INSERT INTO site_attributes (attribute_id) VALUES (?)`, f.allerg)
	f.exec(`UPDATE site_settings SET enabled = 1, policy_text = 'Cancel 24 h ahead.', updated_at = ?`, ms)

	o := site.Options{Now: f.clock.now, Links: links{}, PostsPerHour: -1}
	for _, opt := range opts {
		opt(&o)
	}
	r := chi.NewRouter()
	s := site.New(d, o)
	r.Mount("/book", s.Routes())
	r.Mount("/feeds", s.FeedRoutes())
	f.handler = r
	f.srv = httptest.NewServer(r)
	t.Cleanup(f.srv.Close)
	return f
}

var (
	migratedOnce  sync.Once
	migratedBytes []byte
	migratedErr   error
)

// migrated is an empty database file with every migration applied.
func migrated(t testing.TB) []byte {
	t.Helper()
	migratedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "frontdesk-site-")
		if err != nil {
			migratedErr = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, db.FileName)
		d, err := db.Open(context.Background(), path)
		if err != nil {
			migratedErr = err
			return
		}
		if migratedErr = d.Close(); migratedErr != nil {
			return
		}
		migratedBytes, migratedErr = os.ReadFile(path)
	})
	if migratedErr != nil {
		t.Fatal(migratedErr)
	}
	return migratedBytes
}

func (f *fixture) provider(name string) int64 {
	ms := start.UnixMilli()
	id := f.exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, 1, ?, ?)`, name, ms, ms)
	f.exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, 1)`, id)
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (1, ?), (2, ?), (3, ?), (4, ?)`, id, id, id, id)
	for day := 0; day < 7; day++ {
		f.exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, 1, ?, 0, 1440)`, id, day)
	}
	return id
}

func (f *fixture) exec(q string, args ...any) int64 {
	f.t.Helper()
	res, err := f.db.Write.Exec(q, args...)
	if err != nil {
		f.t.Fatalf("%v\n%s", err, q)
	}
	id, _ := res.LastInsertId()
	return id
}

func (f *fixture) count(q string, args ...any) int64 {
	f.t.Helper()
	var n int64
	if err := f.db.Read.QueryRow(q, args...).Scan(&n); err != nil {
		f.t.Fatalf("%v\n%s", err, q)
	}
	return n
}

// response is what a request got.
type response struct {
	status int
	header http.Header
	body   string
}

func (r response) location() string { return r.header.Get("Location") }

var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (f *fixture) get(path string) response {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.do(req)
}

// post submits a form as a page of the site does (same origin).
func (f *fixture) post(path string, form url.Values) response {
	f.t.Helper()
	return f.postWith(path, form, http.Header{"Origin": {f.srv.URL}, "Sec-Fetch-Site": {"same-origin"}})
}

func (f *fixture) postWith(path string, form url.Values, h http.Header) response {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return f.do(req)
}

func (f *fixture) do(req *http.Request) response {
	f.t.Helper()
	res, err := client.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

func wantStatus(t testing.TB, r response, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body:\n%.3000s", r.status, want, r.body)
	}
}

func wantBody(t testing.TB, r response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(r.body, p) {
			t.Errorf("body lacks %q:\n%.3000s", p, r.body)
		}
	}
}

var (
	nonceRE       = regexp.MustCompile(`name="nonce" value="([^"]+)"`)
	hrefRE        = regexp.MustCompile(`href="([^"]+)"`)
	manageTokenRE = regexp.MustCompile(`manage/[A-Za-z0-9_-]{43}`)
)

// details opens step 5 for provider (0: anyone) at instant at, and returns a filled form.
func (f *fixture) details(service, provider int64, at time.Time) url.Values {
	f.t.Helper()
	res := f.get(detailsPath(service, provider, at))
	wantStatus(f.t, res, http.StatusOK)
	m := nonceRE.FindStringSubmatch(res.body)
	if m == nil {
		f.t.Fatalf("no nonce on the details page:\n%s", res.body)
	}
	return url.Values{
		"nonce": {m[1]}, "provider": {strconv.FormatInt(provider, 10)}, "start": {at.Format(time.RFC3339)},
		"first_name": {"Camila"}, "last_name": {"Rojas"}, "email": {"Camila.Rojas@Example.com"}, "phone": {"+56 9 8765 4321"},
		"attr_" + strconv.FormatInt(f.allerg, 10): {"none"},
	}
}

func detailsPath(service, provider int64, at time.Time) string {
	return "/book/1/" + strconv.FormatInt(service, 10) + "/details?" + url.Values{
		"provider": {strconv.FormatInt(provider, 10)}, "start": {at.Format(time.RFC3339)},
	}.Encode()
}

// book submits a details form and returns the manage path it leads to.
func (f *fixture) book(service int64, form url.Values) string {
	f.t.Helper()
	res := f.post("/book/1/"+strconv.FormatInt(service, 10)+"/details", form)
	wantStatus(f.t, res, http.StatusSeeOther)
	loc := res.location()
	if !strings.HasPrefix(loc, "/book/manage/") {
		f.t.Fatalf("booked, redirected to %q, want a manage link", loc)
	}
	return strings.TrimSuffix(loc, "?done=booked")
}

// bookingRow is a booking as stored.
type bookingRow struct {
	id, client, provider, status, start, changes int64
	source                                       string
}

func (f *fixture) bookings() []bookingRow {
	f.t.Helper()
	rows, err := f.db.Read.Query(`SELECT id, client_id, provider_id, status_id, start_at, change_count, source FROM bookings ORDER BY id`)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	var out []bookingRow
	for rows.Next() {
		var b bookingRow
		if err := rows.Scan(&b.id, &b.client, &b.provider, &b.status, &b.start, &b.changes, &b.source); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// events are the outbox events of a type, oldest first, as decoded data.
func (f *fixture) events(eventType string) []map[string]any {
	f.t.Helper()
	rows, err := f.db.Read.Query(`SELECT body FROM events WHERE type = ? ORDER BY created_at, rowid`, eventType)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	var out []map[string]any
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			f.t.Fatal(err)
		}
		var env struct {
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(raw), &env); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, env.Data)
	}
	return out
}
