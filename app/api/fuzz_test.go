package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/apikey"
	"frontdesk/app/input"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// Fuzz targets for everything /v3 reads from a request: bodies, query strings, path ids. The
// invariant is the same everywhere: no panic, no 5xx, and a refusal writes nothing. The write
// targets go through the real router onto a real SQLite file, as requests do; .ci/run runs
// each target for a few seconds, and the seeds in testdata/fuzz run as ordinary tests.

// fuzzAPI is the seeded business of fixture_test.go behind the real router, for fuzzing.
type fuzzAPI struct {
	db      *db.DB
	handler http.Handler
	key     string
}

func newFuzzAPI(f *testing.F) *fuzzAPI {
	d := dbtest.Open(f, filepath.Join(f.TempDir(), db.FileName))
	seed(f, d, fixtureNow)
	if _, err := d.Write.Exec(`UPDATE company SET online_payments = 1; UPDATE services SET online_payment_mode = 'OPTIONAL'`); err != nil {
		f.Fatal(err)
	}
	a := New(d, Options{Now: func() time.Time { return fixtureNow }, Log: slog.New(slog.DiscardHandler)})
	root := chi.NewRouter()
	root.Mount("/v3", a.Routes())
	_, key, err := apikey.Create(context.Background(), d, apikey.NewKey{Name: "fuzz", Scopes: apikey.FullAccess}, fixtureNow)
	if err != nil {
		f.Fatal(err)
	}
	fa := &fuzzAPI{db: d, handler: root, key: key}
	// Records the write routes act on: booking 1, cart 1 with payment request 1. The first
	// request also records the key's use, so later ones write nothing of their own.
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/v3/bookings", `{"start_time":"2026-11-24T10:00:00-03:00","service_id":1,"provider_id":2,"client_id":1,"location_id":1,"status_id":1}`},
		{"POST", "/v3/carts", `{"client_id":1,"items":[{"item_id":1,"item_type":"service","unit_price":"100","quantity":1}]}`},
		{"POST", "/v3/carts/1/payment_requests", ``},
	} {
		if status, body := fa.do(r.method, r.path, []byte(r.body)); status >= 300 {
			f.Fatalf("%s %s: %d %s", r.method, r.path, status, body)
		}
	}
	return fa
}

func (fa *fuzzAPI) do(method, target string, body []byte) (int, string) {
	return fa.doQuery(method, target, "", body)
}

// doQuery sends a request with rawQuery as its query string, byte for byte.
func (fa *fuzzAPI) doQuery(method, path, rawQuery string, body []byte) (int, string) {
	req := httptest.NewRequest(method, "http://fuzz.test"+path, bytes.NewReader(body))
	req.URL.RawQuery = rawQuery
	req.Header.Set("Authorization", "Bearer "+fa.key)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	fa.handler.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// changes is the writer connection's running count of rows written (SQLite total_changes()):
// it moves on any write, by any statement, committed or not.
func (fa *fuzzAPI) changes(t *testing.T) int64 {
	var n int64
	if err := fa.db.Write.QueryRow(`SELECT total_changes()`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// writeRoutes are the operations that take a body; FuzzWriteBodies picks one by number.
var writeRoutes = []struct{ method, path string }{
	{"POST", "/v3/bookings"}, {"PATCH", "/v3/bookings/1"}, {"POST", "/v3/clients"}, {"PATCH", "/v3/clients/1"},
	{"POST", "/v3/carts"}, {"PATCH", "/v3/carts/1"}, {"PATCH", "/v3/bookings/1/cancel"}, {"CANCEL", "/v3/bookings/1"},
	{"PATCH", "/v3/clients/2/deactivate"}, {"POST", "/v3/carts/1/payment_requests"}, {"PATCH", "/v3/payment_requests/1/cancel"},
}

// FuzzWriteBodies sends any body to every write operation: the answer is never a 5xx, and a
// 4xx leaves the database exactly as it was.
func FuzzWriteBodies(f *testing.F) {
	f.Add(uint8(0), []byte(`{"start_time":"2026-11-24T11:00:00-03:00","service_id":1,"provider_id":2,"client_id":1,"location_id":1,"status_id":1}`))
	f.Add(uint8(2), []byte(`{"first_name":"Ana","last_name":"Diaz","custom_attributes":[{"id":3,"value":true}]}`))
	f.Add(uint8(4), []byte(`{"items":[{"item_id":1,"item_type":"service","unit_price":1e5,"quantity":1}]}`))
	fa := newFuzzAPI(f)
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		r := writeRoutes[int(route)%len(writeRoutes)]
		before := fa.changes(t)
		status, answer := fa.do(r.method, r.path, body)
		if status >= 500 {
			t.Fatalf("%s %s with %q: %d %s", r.method, r.path, body, status, answer)
		}
		if status >= 400 && fa.changes(t) != before {
			t.Fatalf("%s %s with %q: refused with %d %s, but %d rows were written", r.method, r.path, body, status, answer, fa.changes(t)-before)
		}
	})
}

// readRoutes are the operations that read a query string.
var readRoutes = []string{"/v3/bookings", "/v3/available_slots", "/v3/providers", "/v3/clients/quick-search", "/v3/sales",
	"/v3/services", "/v3/clients", "/v3/locations", "/v3/categories"}

// FuzzQueries sends any query string to every list: never a 5xx, never a write, and a refused
// one is a documented 400 with a detail.
func FuzzQueries(f *testing.F) {
	f.Add(uint8(0), "client_id=1&start_date=2026-11-01&end_date=2026-11-30&page=2&per_page=5")
	f.Add(uint8(1), "location_id=1&service_id=1&start_date=2026-11-24&end_date=2026-12-24")
	f.Add(uint8(2), "location_ids[]=1&location_ids=2,3&sort_by=public_name&order_by=desc")
	fa := newFuzzAPI(f)
	f.Fuzz(func(t *testing.T, route uint8, query string) {
		path := readRoutes[int(route)%len(readRoutes)]
		before := fa.changes(t)
		status, answer := fa.doQuery("GET", path, query, nil)
		if status >= 500 || (status >= 400 && status != 404 && !strings.Contains(answer, `"detail":"`)) {
			t.Fatalf("GET %s?%s: %d %s", path, query, status, answer)
		}
		if fa.changes(t) != before {
			t.Fatalf("GET %s?%s wrote %d rows", path, query, fa.changes(t)-before)
		}
	})
}

// idRoutes are the routes with an {id}.
var idRoutes = []struct{ method, path string }{
	{"GET", "/v3/bookings/%s"}, {"GET", "/v3/clients/%s"}, {"GET", "/v3/clients/%s/custom_attributes"}, {"GET", "/v3/locations/%s"},
	{"GET", "/v3/services/%s"}, {"GET", "/v3/providers/%s"}, {"GET", "/v3/sales/%s"}, {"GET", "/v3/carts/%s"},
	{"PATCH", "/v3/bookings/%s/cancel"}, {"PATCH", "/v3/payment_requests/%s/cancel"},
}

// FuzzPathIDs puts any text where an id goes: never a 5xx, and only the canonical spelling of
// an id (input.ParseID) ever finds a record.
func FuzzPathIDs(f *testing.F) {
	for _, id := range []string{"1", "01", "+1", "-1", "1.0", "99999999999999999999", "0x1", "1 ", "%00"} {
		f.Add(uint8(0), id)
	}
	fa := newFuzzAPI(f)
	f.Fuzz(func(t *testing.T, route uint8, id string) {
		r := idRoutes[int(route)%len(idRoutes)]
		target := strings.Replace(r.path, "%s", url.PathEscape(id), 1)
		status, answer := fa.do(r.method, target, nil)
		if status >= 500 {
			t.Fatalf("%s %s: %d %s", r.method, target, status, answer)
		}
		if _, canonical := input.ParseID(id); status < 300 && !canonical {
			t.Fatalf("%s %s: %d for the non-canonical id %q", r.method, target, status, id)
		}
	})
}

// FuzzDecodeObject: the body decoder never panics; it accepts only one JSON object without
// duplicate keys and refuses everything else with a 4xx naming why.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"first_name":"Ana"}`, `{"a":1,"a":2}`, `{"A":1,"a":2}`, `{"x":{"y":[{"z":1,"z":2}]}}`, `[]`, `{}{}`, `{"a":"\u0000"}`, "\xff", `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var dst clientBody
		err := decodeObject(body, &dst)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Status < 400 || e.Status >= 500 || e.Detail == "" {
				t.Fatalf("decodeObject(%q) = %v, want a 4xx with a detail", body, err)
			}
			return
		}
		trimmed := bytes.TrimSpace(body)
		if !json.Valid(trimmed) || trimmed[0] != '{' {
			t.Fatalf("decodeObject(%q) accepted something that is not one JSON object", body)
		}
		if exactDuplicate(t, trimmed) {
			t.Fatalf("decodeObject(%q) accepted a duplicate key", body)
		}
	})
}

// exactDuplicate is an independent check for a key repeated byte for byte in one object: a
// map decoding keeps one value per key, so it sees fewer keys than the tokens list.
func exactDuplicate(t *testing.T, doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			dup := false
			for dec.More() {
				k, _ := dec.Token()
				ks, _ := k.(string)
				if seen[ks] {
					dup = true
				}
				seen[ks] = true
				if walk() {
					dup = true
				}
			}
			dec.Token()
			return dup
		case json.Delim('['):
			dup := false
			for dec.More() {
				if walk() {
					dup = true
				}
			}
			dec.Token()
			return dup
		}
		return false
	}
	return walk()
}

// FuzzBookingTime: booking times are accepted only as RFC 3339 with an offset, and keep the
// instant and offset they were sent with.
func FuzzBookingTime(f *testing.F) {
	for _, s := range []string{"2026-11-24T10:00:00-03:00", "2026-11-24T13:00:00Z", "2026-11-24T10:00:00", "2026-11-24 10:00", "2026-02-30T10:00:00Z", "2026-11-24T10:00:00+14:00", "2026-11-24T10:00:00.123456789-03:30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseBookingTime("start_time", s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Status != http.StatusUnprocessableEntity {
				t.Fatalf("parseBookingTime(%q) = %v, want a 422", s, err)
			}
			return
		}
		if !strings.ContainsAny(s[10:], "Zz+-") {
			t.Fatalf("parseBookingTime(%q) accepted a time without an offset", s)
		}
		again, err := time.Parse(time.RFC3339Nano, got.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(got) {
			t.Fatalf("parseBookingTime(%q) = %v, which does not round-trip", s, got)
		}
	})
}
