package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/booking"
)

// etagOf GETs path and returns its ETag, failing unless the answer is a 200 with a weak tag.
func (f *fixture) etagOf(t *testing.T, path string) string {
	t.Helper()
	resp, raw := f.call("GET", path, nil)
	wantStatus(t, resp, raw, http.StatusOK)
	tag := resp.Header.Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) || !strings.HasSuffix(tag, `"`) {
		t.Fatalf("GET %s: ETag %q, want a weak tag", path, tag)
	}
	return tag
}

func TestConditionalGetAnswers304WithoutBody(t *testing.T) {
	f := newFixture(t)
	f.book(t, nil)
	for _, path := range []string{
		"/v3/bookings?location_id=1", "/v3/bookings?client_id=1&status_id=1", "/v3/bookings/1",
		"/v3/clients", "/v3/clients/1", "/v3/clients/1/custom_attributes", "/v3/clients/quick-search?q=maria",
		"/v3/custom_attributes", "/v3/services", "/v3/services/1", "/v3/categories", "/v3/locations",
		"/v3/locations/1", "/v3/providers", "/v3/providers/2", "/v3/products",
	} {
		t.Run(path, func(t *testing.T) {
			tag := f.etagOf(t, path)
			inms := []string{tag, strings.TrimPrefix(tag, "W/"), `"other", ` + tag}
			catalogItem := strings.Count(path, "/") == 3 && !strings.HasPrefix(path, "/v3/bookings/") && !strings.HasPrefix(path, "/v3/clients/")
			if !catalogItem {
				inms = append(inms, "*") // a catalog item's tag does not prove it exists
			}
			for _, inm := range inms {
				resp, raw := f.call("GET", path, nil, "If-None-Match", inm)
				wantStatus(t, resp, raw, http.StatusNotModified)
				if len(raw) != 0 {
					t.Fatalf("If-None-Match %s: 304 with a body of %d bytes", inm, len(raw))
				}
				if got := resp.Header.Get("ETag"); got != tag {
					t.Fatalf("304 ETag %q, want %q", got, tag)
				}
				if got := resp.Header.Get("Cache-Control"); got != "private, no-cache" {
					t.Fatalf("304 Cache-Control %q", got)
				}
				if !strings.Contains(resp.Header.Get("Vary"), "Authorization") {
					t.Fatalf("304 Vary %q, want Authorization", resp.Header.Get("Vary"))
				}
			}
			resp, raw := f.call("GET", path, nil, "If-None-Match", `W/"stale"`)
			wantStatus(t, resp, raw, http.StatusOK)
			if len(raw) == 0 || resp.Header.Get("ETag") != tag {
				t.Fatalf("stale If-None-Match: body %d bytes, ETag %q, want the full answer with %q", len(raw), resp.Header.Get("ETag"), tag)
			}
		})
	}
	// Another page, another answer: its tag differs even with no write in between.
	if f.etagOf(t, "/v3/clients?page=1&per_page=1") == f.etagOf(t, "/v3/clients?page=2&per_page=1") {
		t.Fatal("two pages of clients share a tag")
	}
	// Errors carry no tag, whatever If-None-Match says.
	for _, path := range []string{"/v3/bookings/999", "/v3/clients/999", "/v3/bookings", "/v3/services/999"} {
		resp, raw := f.call("GET", path, nil, "If-None-Match", "*")
		if resp.StatusCode < 400 || resp.Header.Get("ETag") != "" {
			t.Fatalf("GET %s: status %d ETag %q, want an error without a tag; body %s", path, resp.StatusCode, resp.Header.Get("ETag"), raw)
		}
	}
}

// TestETagFollowsWrites: every write that changes an answer changes its tag, and the tag of an
// answer the write does not touch stays.
func TestETagFollowsWrites(t *testing.T) {
	f := newFixture(t)
	b := f.book(t, nil) // location 1, provider 2, client 1, service 1
	other := f.book(t, map[string]any{"start_time": "2026-11-24T15:00:00-03:00"})
	nyc := f.book(t, map[string]any{"start_time": "2026-11-24T10:00:00-05:00", "location_id": 2, "provider_id": 3, "service_id": 3, "client_id": 2})
	bPath := fmt.Sprintf("/v3/bookings/%d", b.ID)
	watched := []string{
		"/v3/bookings?location_id=1", "/v3/bookings?location_id=2", "/v3/bookings?service_provider_id=2",
		"/v3/bookings?provider_id=3", "/v3/bookings?client_id=1", "/v3/bookings?client_id=2",
		"/v3/bookings?service_id=1", "/v3/bookings?service_id=3", bPath, fmt.Sprintf("/v3/bookings/%d", other.ID),
		fmt.Sprintf("/v3/bookings/%d", nyc.ID), "/v3/clients", "/v3/clients/1", "/v3/clients/2",
		"/v3/services", "/v3/services/1", "/v3/custom_attributes", "/v3/products",
	}
	bookingsOf := func(extra ...string) []string {
		return append([]string{"/v3/bookings?location_id=1", "/v3/bookings?service_provider_id=2", "/v3/bookings?client_id=1", "/v3/bookings?service_id=1"}, extra...)
	}
	exec := func(q string, args ...any) func(t *testing.T) {
		return func(t *testing.T) {
			if _, err := f.db.Write.Exec(q, args...); err != nil {
				t.Fatal(err)
			}
		}
	}
	call := func(method, path, body string, status int) func(t *testing.T) {
		return func(t *testing.T) {
			var b any
			if body != "" {
				b = body
			}
			resp, raw := f.call(method, path, b)
			wantStatus(t, resp, raw, status)
		}
	}
	steps := []struct {
		name    string
		write   func(t *testing.T)
		changed []string // every other watched path keeps its tag
	}{
		{"create at location 1", func(t *testing.T) { f.book(t, map[string]any{"start_time": "2026-11-25T10:00:00-03:00"}) }, bookingsOf()},
		{"reschedule", call("PATCH", bPath, `{"start_time":"2026-11-24T11:00:00-03:00"}`, 200), bookingsOf(bPath)},
		{"status", call("PATCH", bPath, `{"status_id":3}`, 200), bookingsOf(bPath)},
		{"move to provider 1", call("PATCH", bPath, `{"provider_id":1}`, 200), bookingsOf(bPath)},
		// Now with provider 1: provider 2's list does not show it any more.
		{"cancel", call("PATCH", bPath+"/cancel", "", 204), []string{"/v3/bookings?location_id=1", "/v3/bookings?client_id=1", "/v3/bookings?service_id=1", bPath}},
		{"client edit", call("PATCH", "/v3/clients/1", `{"first_name":"Mariana"}`, 200), []string{"/v3/clients", "/v3/clients/1"}},
		{"client attribute value", exec(`UPDATE client_attribute_values SET value = 'Ben' WHERE client_id = 1 AND attribute_id = 1`), []string{"/v3/clients", "/v3/clients/1"}},
		{"client deactivated", call("PATCH", "/v3/clients/2/deactivate", "", 204), []string{"/v3/clients", "/v3/clients/2"}},
		// Templates show in clients, and the booking site counts them in the catalog (00270).
		{"attribute template", exec(`UPDATE custom_attributes SET name = 'Stylist' WHERE id = 1`), watched},
		{"sale attached", func(t *testing.T) {
			exec(`INSERT INTO carts (id, uuid, location_id, created_at, updated_at, expires_at) VALUES (1, 'cart-1', 1, 0, 0, 0)`)(t)
			exec(`INSERT INTO sales (id, cart_id, location_id, status, created_at, updated_at) VALUES (1, 1, 1, 'partially_paid', 0, 0)`)(t)
			exec(`UPDATE bookings SET sale_id = 1 WHERE id = ?`, other.ID)(t)
		}, []string{"/v3/bookings?location_id=1", "/v3/bookings?service_provider_id=2", "/v3/bookings?client_id=1", "/v3/bookings?service_id=1", fmt.Sprintf("/v3/bookings/%d", other.ID)}},
		// A booking shows its sale's status: paying the sale changes the booking's answers.
		{"sale paid", exec(`UPDATE sales SET status = 'paid' WHERE id = 1`), []string{"/v3/bookings?location_id=1", "/v3/bookings?service_provider_id=2", "/v3/bookings?client_id=1", "/v3/bookings?service_id=1", fmt.Sprintf("/v3/bookings/%d", other.ID)}},
		{"sale amounts only", exec(`UPDATE sales SET paid_cents = 5 WHERE id = 1`), nil},
		{"product", exec(`INSERT INTO products (name, price_cents, created_at, updated_at) VALUES ('Shampoo', 100, 0, 0)`), []string{"/v3/products"}},
		// The catalog's names show in every booking, so a service edit changes them all.
		{"service edit", exec(`UPDATE services SET name = 'Cut' WHERE id = 1`), slicesWithout(watched, "/v3/clients", "/v3/clients/1", "/v3/clients/2", "/v3/custom_attributes")},
		{"booking deleted", exec(`DELETE FROM bookings WHERE id = ?`, nyc.ID), []string{"/v3/bookings?location_id=2", "/v3/bookings?provider_id=3", "/v3/bookings?client_id=2", "/v3/bookings?service_id=3", fmt.Sprintf("/v3/bookings/%d", nyc.ID)}},
		{"client deleted", exec(`DELETE FROM clients WHERE id = 3`), []string{"/v3/clients"}},
	}
	tags := map[string]string{}
	for _, p := range watched {
		tags[p] = f.etagOf(t, p)
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.write(t)
			changed := map[string]bool{}
			for _, p := range s.changed {
				changed[p] = true
			}
			for _, p := range watched {
				if tags[p] == "gone" {
					continue
				}
				resp, raw := f.call("GET", p, nil, "If-None-Match", tags[p])
				switch {
				case changed[p] && resp.StatusCode == http.StatusNotModified:
					t.Errorf("%s: still 304 after the write", p)
				case !changed[p] && resp.StatusCode != http.StatusNotModified:
					t.Errorf("%s: status %d after a write that does not change it, want 304", p, resp.StatusCode)
				}
				switch {
				case resp.StatusCode == http.StatusOK:
					tags[p] = resp.Header.Get("ETag")
					f.wantFreshAnswer(t, p)
				case resp.StatusCode == http.StatusNotFound && changed[p] && resp.Header.Get("ETag") == "":
					tags[p] = "gone" // deleted: a 404, without a tag
				case resp.StatusCode != http.StatusNotModified:
					t.Errorf("%s: status %d %s", p, resp.StatusCode, raw)
				}
			}
		})
	}
}

// wantFreshAnswer GETs path twice, the second time from the kept answer if there is one, then
// once more with nothing kept, and fails unless all three answers are the same: a kept answer
// is never older than the data.
func (f *fixture) wantFreshAnswer(t *testing.T, path string) {
	t.Helper()
	var bodies [3]string
	for i := range bodies {
		if i == 2 {
			f.api.answers.clear()
		}
		resp, raw := f.call("GET", path, nil)
		wantStatus(t, resp, raw, http.StatusOK)
		bodies[i] = string(raw)
	}
	if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
		t.Errorf("GET %s: answers differ (built, kept, rebuilt):\n%s\n%s\n%s", path, bodies[0], bodies[1], bodies[2])
	}
}

// TestForgetKeptDropsAnswers: the answers kept by tag and by schedule version go when serve's
// idle free asks (app/idlefree.go), and the next requests build them again.
func TestForgetKeptDropsAnswers(t *testing.T) {
	f := newFixture(t)
	f.book(t, nil)
	tue := booking.Date{Year: 2026, Month: time.November, Day: 24}
	paths := []string{"/v3/bookings?location_id=1",
		"/v3/available_slots?" + slotsQueryString(booking.ScheduleQuery{LocationID: 1, ServiceID: 1, First: tue, Last: tue})}
	kept := func() (int, int) { return len(f.api.answers.kept), len(f.api.slots.answers) }
	for range 2 {
		for _, p := range paths {
			resp, raw := f.call("GET", p, nil)
			wantStatus(t, resp, raw, http.StatusOK)
		}
		if answers, slots := kept(); answers == 0 || slots == 0 {
			t.Fatalf("kept %d answers and %d slot answers, want both", answers, slots)
		}
		f.api.ForgetKept()
		if answers, slots := kept(); answers != 0 || slots != 0 {
			t.Fatalf("after ForgetKept: %d answers and %d slot answers still kept", answers, slots)
		}
	}
}

// TestKeptAnswers: a tagged answer is kept and sent again byte for byte with the same tag; a
// write that changes it is in the next answer; and a key without the route's scope gets
// neither a 304 nor a kept answer.
func TestKeptAnswers(t *testing.T) {
	f := newFixture(t)
	f.book(t, nil)
	const path = "/v3/bookings?location_id=1"
	first, firstRaw := f.call("GET", path, nil)
	wantStatus(t, first, firstRaw, http.StatusOK)
	if _, ok := f.api.answers.get(answerURLOf(first.Request), first.Header.Get("ETag")); !ok {
		t.Fatal("the 200 answer was not kept")
	}
	again, againRaw := f.call("GET", path, nil)
	wantStatus(t, again, againRaw, http.StatusOK)
	if string(againRaw) != string(firstRaw) || again.Header.Get("ETag") != first.Header.Get("ETag") ||
		again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("kept answer differs: %q %q\n%s\nwant %q %q\n%s", again.Header.Get("ETag"), again.Header.Get("Content-Type"), againRaw,
			first.Header.Get("ETag"), first.Header.Get("Content-Type"), firstRaw)
	}
	b := f.book(t, map[string]any{"start_time": "2026-11-25T10:00:00-03:00"})
	_, after := f.call("GET", path, nil)
	if !strings.Contains(string(after), fmt.Sprintf(`"id":%d`, b.ID)) {
		t.Fatalf("the answer after a new booking does not show it: %s", after)
	}
	// The answer for the old tag can never be sent again: the new one took its place.
	if _, ok := f.api.answers.get(answerURLOf(first.Request), first.Header.Get("ETag")); ok {
		t.Fatal("the answer for the tag before the booking is still kept")
	}
	if n, nbytes := len(f.api.answers.kept), f.api.answers.nbytes; n != 1 || nbytes != len(after) {
		t.Fatalf("kept %d answers of %d bytes; want the one current answer (%d bytes)", n, nbytes, len(after))
	}

	// A key that may not read bookings: 403, never the kept answer or a 304.
	noRead := f.newKey("clients:read")
	tag := f.etagOf(t, path)
	for _, inm := range []string{"", tag, "*"} {
		var headers []string
		if inm != "" {
			headers = []string{"If-None-Match", inm}
		}
		resp, raw := f.callWithKey(noRead, "GET", path, nil, headers...)
		wantStatus(t, resp, raw, http.StatusForbidden)
	}
}

func slicesWithout(all []string, drop ...string) []string {
	var out []string
	for _, s := range all {
		keep := true
		for _, d := range drop {
			keep = keep && s != d
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// Polling one booking or one client while nothing commits costs no statement: their tags'
// counters are kept while the database's commit stamp stays (db.Unchanged), as the catalog's
// version is kept with the key. Such a poll costs about what a service's does, whose answer
// needs no statement at all; a statement would cost some thirty allocations more.
func TestRecordPollCostsNoStatement(t *testing.T) {
	f := newFixture(t)
	b := f.book(t, nil)
	h := chi.NewRouter()
	h.Mount("/v3", f.api.Routes())
	allocs := func(path string) float64 {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+f.key)
		w := &discardWriter{h: http.Header{}}
		h.ServeHTTP(w, req) // keeps the answer
		if w.status != http.StatusOK {
			t.Fatalf("GET %s: got status %d, want 200", path, w.status)
		}
		return testing.AllocsPerRun(50, func() {
			clear(w.h)
			h.ServeHTTP(w, req)
		})
	}
	service := allocs("/v3/services/1")
	for _, path := range []string{fmt.Sprintf("/v3/bookings/%d", b.ID), "/v3/clients/1"} {
		if got := allocs(path); got > service+4 {
			t.Errorf("GET %s: got %v allocations per poll, want at most %v (a service's %v, and its counter's key)", path, got, service+4, service)
		}
	}
}

// discardWriter is a ResponseWriter that keeps headers and the status and drops the body.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
