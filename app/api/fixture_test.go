package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/apikey"
	"frontdesk/app/links"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// fixtureNow is the fixture's clock: Monday 2026-11-23 12:00 UTC (09:00 in Santiago, 07:00 in
// New York).
var fixtureNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// fixture is a real SQLite file with a small seeded business, the real /v3 router behind an
// httptest server, and a full-access key.
type fixture struct {
	t   *testing.T
	db  *db.DB
	api *API
	srv *httptest.Server
	key string
	now time.Time
}

// fixturePublicURL is the public URL the fixture's API is configured with: generated links
// start with it whatever address the test server has.
var fixturePublicURL = func() links.Base {
	b, err := links.Parse("https://book.example.test")
	if err != nil {
		panic(err)
	}
	return b
}()

func newFixture(t *testing.T, opts ...func(*Options)) *fixture {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	f := &fixture{t: t, db: d, now: fixtureNow}
	seed(t, d, f.now)
	o := Options{Now: func() time.Time { return f.now }, Log: testLogger(t), Links: fixturePublicURL}
	for _, opt := range opts {
		opt(&o)
	}
	f.api = New(d, o)
	root := chi.NewRouter()
	root.Mount("/v3", f.api.Routes())
	f.srv = httptest.NewServer(root)
	t.Cleanup(f.srv.Close)
	f.key = f.newKey(apikey.FullAccess)
	return f
}

// newKey creates a key with the given comma-separated scopes (or apikey.FullAccess).
func (f *fixture) newKey(scopes string) string {
	f.t.Helper()
	return f.createKey(apikey.NewKey{Name: "test", Scopes: scopes})
}

// createKey creates a key with any options and returns it in clear.
func (f *fixture) createKey(nk apikey.NewKey) string {
	f.t.Helper()
	_, key, err := apikey.Create(context.Background(), f.db, nk, f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	return key
}

// call sends a request with the fixture's key. body may be nil, a string/[]byte (sent raw) or
// any value (sent as JSON).
func (f *fixture) call(method, path string, body any, header ...string) (*http.Response, []byte) {
	f.t.Helper()
	return f.callWithKey(f.key, method, path, body, header...)
}

func (f *fixture) callWithKey(key, method, path string, body any, header ...string) (*http.Response, []byte) {
	f.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewReader([]byte(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" { // Go sends req.Host, not a Host header
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, raw
}

// wantStatus fails unless resp has the status; it returns the body for chaining.
func wantStatus(t *testing.T, resp *http.Response, raw []byte, status int) []byte {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: got status %d, want %d; body %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, raw)
	}
	return raw
}

// wantError fails unless the response is the {error, detail} envelope with these values.
func wantError(t *testing.T, resp *http.Response, raw []byte, status int, code, detail string) {
	t.Helper()
	wantStatus(t, resp, raw, status)
	var e struct {
		Error  string  `json:"error"`
		Detail *string `json:"detail"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("error body %s: %v", raw, err)
	}
	got := ""
	if e.Detail != nil {
		got = *e.Detail
	}
	if e.Error != code || (detail != "*" && got != detail) {
		t.Fatalf("got error %q detail %q, want %q %q", e.Error, got, code, detail)
	}
}

// seed writes a small business with plain SQL, independent of the code under test:
// company 1; locations 1 (Santiago) and 2 (New York) open Mon–Sat 09:00–19:00; categories
// Hair (1), Nails (2), Wellness (3); services 1 Haircut 30 min, 2 Colour 90 min (+15 min
// after), 3 Manicure 45 min, 4 Massage 60 min (video), 5 inactive Old service; providers 1 Ana
// (locations 1 and 2), 2 Ben (location 1), 3 Cleo (location 2), 4 Dan inactive (location 1);
// working Mon–Fri 09:00–18:00 with a 13:00–14:00 break; custom attributes 1 text, 2 categoric,
// 3 boolean; clients 1–3.
func seed(t testing.TB, d *db.DB, now time.Time) {
	t.Helper()
	ms := db.Millis(now)
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO company (id, name, currency, slot_step_min, created_at, updated_at) VALUES (1, 'Test Salon', 'CLP', 15, ?, ?)`, []any{ms, ms}},
		{`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile'), (2, 'US', 'United States')`, nil},
		{`INSERT INTO locations (id, uuid, name, address_json, phone, email, latitude, longitude, timezone, image_url, country_id, created_at, updated_at) VALUES
			(1, 'loc-1', 'Providencia', '{"route":"Av. Providencia","street_number":"1234"}', '+56912345678', 'prov@example.com', -33.42, -70.61, 'America/Santiago', 'https://img.example.com/l1.jpg', 1, ?, ?),
			(2, 'loc-2', 'Manhattan', '{}', NULL, 'nyc@example.com', NULL, NULL, 'America/New_York', NULL, 2, ?, ?)`, []any{ms, ms, ms, ms}},
		{`INSERT INTO location_hours (location_id, day_id, open_min, close_min)
			SELECT l.id, d.day, 540, 1140 FROM locations l, (SELECT 1 AS day UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6) d`, nil},
		{`INSERT INTO categories (id, name, sort_order, created_at, updated_at) VALUES (1, 'Hair', 2, ?, ?), (2, 'Nails', 1, ?, ?), (3, 'Wellness', 3, ?, ?)`, []any{ms, ms, ms, ms, ms, ms}},
		{`INSERT INTO services (id, uuid, name, price_cents, has_discount, discount_bp, duration_min, buffer_after_min, description, category_id, online_booking, outcall, is_video, keywords_json, capacity, created_at, updated_at) VALUES
			(1, '11111111-1111-4111-8111-111111111111', 'Haircut', 1500000, 1, 1000, 30, 0, 'Classic cut', 1, 1, 0, 0, '["cut","hair"]', 1, ?, ?),
			(2, '22222222-2222-4222-8222-222222222222', 'Colour', 4500000, 0, NULL, 90, 15, NULL, 1, 1, 0, 0, '["colour"]', 1, ?, ?),
			(3, '33333333-3333-4333-8333-333333333333', 'Manicure', 1200000, 0, NULL, 45, 0, NULL, 2, 1, 1, 0, '[]', 1, ?, ?),
			(4, '44444444-4444-4444-8444-444444444444', 'Massage', 3000000, 0, NULL, 60, 0, NULL, 3, 0, 0, 1, '["relax"]', 4, ?, ?)`, []any{ms, ms, ms, ms, ms, ms, ms, ms}},
		{`INSERT INTO services (id, uuid, name, active, duration_min, created_at, updated_at) VALUES (5, '55555555-5555-4555-8555-555555555555', 'Old service', 0, 30, ?, ?)`, []any{ms, ms}},
		{`INSERT INTO service_images (service_id, url, position) VALUES (1, 'https://img.example.com/s1a.jpg', 0), (1, 'https://img.example.com/s1b.jpg', 1)`, nil},
		{`INSERT INTO providers (id, public_name, active, location_id, created_at, updated_at) VALUES
			(1, 'Ana', 1, 1, ?, ?), (2, 'Ben', 1, 1, ?, ?), (3, 'Cleo', 1, 2, ?, ?), (4, 'Dan', 0, 1, ?, ?)`, []any{ms, ms, ms, ms, ms, ms, ms, ms}},
		{`INSERT INTO provider_locations (provider_id, location_id) VALUES (1, 1), (1, 2), (2, 1), (3, 2), (4, 1)`, nil},
		{`INSERT INTO service_providers (service_id, provider_id) VALUES (1, 1), (1, 2), (2, 1), (3, 3), (4, 3), (1, 3)`, nil},
		{`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min)
			SELECT p.provider_id, p.location_id, d.day, 540, 1080 FROM provider_locations p,
			(SELECT 1 AS day UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5) d
			WHERE NOT (p.provider_id = 1 AND p.location_id = 2)`, nil},
		{`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (1, 2, 6, 600, 960)`, nil},
		{`INSERT INTO provider_breaks (hours_id, start_min, end_min) SELECT id, 780, 840 FROM provider_hours WHERE day_id BETWEEN 1 AND 5`, nil},
		{`INSERT INTO attribute_groups (id, name, sort_order) VALUES (1, 'Preferences', 1)`, nil},
		{`INSERT INTO custom_attributes (id, name, datatype, sort_order, description, mandatory, group_id) VALUES
			(1, 'Preferred stylist', 'text', 1, 'Pick your stylist', 0, 1),
			(2, 'Hair type', 'categoric', 2, NULL, 1, NULL),
			(3, 'VIP', 'boolean', 3, NULL, 0, NULL)`, nil},
		{`INSERT INTO attribute_options (attribute_id, label, sort_order) VALUES (2, 'Curly', 1), (2, 'Straight', 2)`, nil},
		{`INSERT INTO clients (id, first_name, last_name, email, phone, identification_number, region, gender, record_number, created_at, updated_at) VALUES
			(1, 'Maria', 'Lopez', 'maria.lopez@example.com', '+56912345678', '12345678-9', 'RM', 1, 'C-0001', ?, ?),
			(2, 'John', 'Smith', 'john@example.com', '+12125550123', NULL, 'NY', 2, 'C-0002', ?, ?),
			(3, 'Ana María', NULL, NULL, '+56987654321', NULL, '', 0, NULL, ?, ?)`, []any{ms, ms, ms, ms, ms, ms}},
		{`INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (1, 1, 'Ana'), (1, 3, 'true')`, nil},
	}
	for _, s := range stmts {
		if _, err := d.Write.Exec(s.sql, s.args...); err != nil {
			t.Fatalf("seed: %v\n%s", err, s.sql)
		}
	}
}

// testLogger sends the API's logs to the test log, so a 500 shows its cause.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, nil))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
