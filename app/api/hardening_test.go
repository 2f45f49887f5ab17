package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tests for the defects of an adversarial run (issue 10, items 7, 10–12, 14 and 15). Each one
// reproduces what used to happen and checks what happens now.

// The daily quota used to count refused requests too: 10,000 fast requests locked a key out
// for the rest of the UTC day. Now only admitted requests count.
func TestDailyQuotaCountsOnlyAdmittedRequests(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits = Limits{PerMinute: 3, PerDay: 10} })
	admitted := 0
	for range 50 { // one instant: 3 pass, 47 are refused by the burst limit
		resp, _ := f.call("GET", "/v3/categories", nil)
		if resp.StatusCode == http.StatusOK {
			admitted++
		}
	}
	if admitted != 3 {
		t.Fatalf("got %d admitted at one instant, want 3", admitted)
	}
	f.now = f.now.Add(time.Minute) // the bucket is full again
	resp, raw := f.call("GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	if got := resp.Header.Get("X-RateLimit-Remaining"); got != "6" {
		t.Fatalf("X-RateLimit-Remaining = %q, want 6 (10 less the 4 admitted)", got)
	}
	// A request refused by the quota does not spend the burst either, and says when the quota
	// resets (the next UTC midnight).
	for range 6 {
		f.now = f.now.Add(time.Minute)
		resp, raw = f.call("GET", "/v3/categories", nil)
		wantStatus(t, resp, raw, http.StatusOK)
	}
	resp, raw = f.call("GET", "/v3/categories", nil)
	wantError(t, resp, raw, http.StatusTooManyRequests, "rate_limited", "daily_quota_exceeded")
	midnight := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	if got, want := resp.Header.Get("X-RateLimit-Reset"), strconv.FormatInt(midnight.Unix(), 10); got != want {
		t.Errorf("X-RateLimit-Reset = %q, want %q (next UTC midnight)", got, want)
	}
	if got, want := resp.Header.Get("Retry-After"), strconv.Itoa(int(midnight.Sub(f.now).Seconds())); got != want {
		t.Errorf("Retry-After = %q, want %q", got, want)
	}
	f.now = midnight
	resp, raw = f.call("GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	if got := resp.Header.Get("X-RateLimit-Remaining"); got != "9" {
		t.Errorf("after midnight: X-RateLimit-Remaining = %q, want 9", got)
	}
}

// A fixed minute window let a burst at 10:00:59.9 and another at 10:01:00.0 both pass: twice
// the limit in a tenth of a second.
func TestBurstAcrossAMinuteBoundary(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits = Limits{PerMinute: 60} })
	f.now = time.Date(2026, 11, 23, 10, 0, 59, 900e6, time.UTC)
	count := func() int {
		n := 0
		for range 60 {
			if resp, _ := f.call("GET", "/v3/categories", nil); resp.StatusCode == http.StatusOK {
				n++
			}
		}
		return n
	}
	if got := count(); got != 60 {
		t.Fatalf("first burst: %d admitted, want 60", got)
	}
	f.now = f.now.Add(100 * time.Millisecond) // 10:01:00.0, a new fixed window
	if got := count(); got != 0 {
		t.Fatalf("second burst 0.1 s later: %d admitted, want 0 (the bucket refills one request per second)", got)
	}
}

// The burst headers mean what docs/api.md says: Remaining counts down, Reset is when the bucket
// is full again, and a client that waits Retry-After seconds gets through — not a second
// earlier.
func TestBurstHeaders(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits = Limits{PerMinute: 6} }) // one back every 10 s
	start := f.now
	for i := range 6 {
		resp, raw := f.call("GET", "/v3/categories", nil)
		wantStatus(t, resp, raw, http.StatusOK)
		if got, want := resp.Header.Get("X-RateLimit-Burst-Remaining"), strconv.Itoa(5-i); got != want {
			t.Fatalf("request %d: Burst-Remaining = %q, want %q", i+1, got, want)
		}
		full := start.Add(time.Duration(i+1) * 10 * time.Second)
		if got, want := resp.Header.Get("X-RateLimit-Burst-Reset"), strconv.FormatInt(full.Unix(), 10); got != want {
			t.Fatalf("request %d: Burst-Reset = %q, want %q", i+1, got, want)
		}
		if resp.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("X-RateLimit-Limit sent with the daily quota off")
		}
	}
	f.now = start.Add(3 * time.Second)
	resp, raw := f.call("GET", "/v3/categories", nil)
	wantError(t, resp, raw, http.StatusTooManyRequests, "rate_limited", "burst_limit_exceeded")
	if got := resp.Header.Get("Retry-After"); got != "7" {
		t.Fatalf("Retry-After = %q, want 7 (the first request's share returns at +10 s)", got)
	}
	if got := resp.Header.Get("X-RateLimit-Burst-Remaining"); got != "0" {
		t.Fatalf("Burst-Remaining on a 429 = %q, want 0", got)
	}
	f.now = start.Add(9 * time.Second)
	resp, raw = f.call("GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusTooManyRequests)
	f.now = start.Add(10 * time.Second)
	resp, raw = f.call("GET", "/v3/categories", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	// Steady sending at the limit's rate is always admitted.
	for i := range 20 {
		f.now = f.now.Add(10 * time.Second)
		resp, raw = f.call("GET", "/v3/categories", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("steady request %d: got %d, want 200", i+1, resp.StatusCode)
		}
	}
}

// PATCH …/cancel, PATCH …/deactivate and POST …/payment_requests used to act whatever their
// body held. A body that is present must be JSON (an object, whose fields are ignored) within
// the limit, or the request is a 400 (413 when too large) and nothing happens.
func TestBodylessOperationsRefuseBadBodies(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	huge := `{"pad":"` + strings.Repeat("x", 4<<20) + `"}` // the adversarial run sent 20 MB; anything over 1 MiB is the same case
	bad := []struct {
		name, body string
		status     int
		code       string
		detail     string
	}{
		{"garbage", "garbage", 400, "invalid_body", "expected_object"},
		{"array", "[1]", 400, "invalid_body", "expected_object"},
		{"broken object", `{"reason":`, 400, "invalid_body", "malformed_json"},
		{"two objects", `{}{}`, 400, "invalid_body", "trailing_data"},
		{"duplicate key", `{"a":1,"a":2}`, 400, "invalid_body", "a: duplicate key"},
		{"over 1 MiB", huge, 413, "payload_too_large", "*"},
	}
	booking := f.book(t, nil)
	cart := f.createCart(t, map[string]any{"items": []any{cartItem(nil)}})
	ops := []struct {
		name       string
		method     string
		path       string
		okStatus   int
		unchanged  func() string // a fingerprint of what the operation would change
		idempotent bool
	}{
		{"cancel booking", "PATCH", "/v3/bookings/" + itoa(booking.ID) + "/cancel", 204,
			func() string { return strconv.Itoa(bookingStatus(t, f, booking.ID)) }, true},
		{"CANCEL booking", "CANCEL", "/v3/bookings/" + itoa(booking.ID), 204,
			func() string { return strconv.Itoa(bookingStatus(t, f, booking.ID)) }, true},
		{"deactivate client", "PATCH", "/v3/clients/2/deactivate", 204,
			func() string { return strconv.Itoa(bkCount(t, f, `SELECT active FROM clients WHERE id = 2`)) }, false},
		{"payment request", "POST", "/v3/carts/" + itoa(cart.ID) + "/payment_requests", 201,
			func() string { return strconv.Itoa(f.count("payment_requests")) }, true},
	}
	for _, op := range ops {
		for _, b := range bad {
			before, events := op.unchanged(), f.count("events")
			resp, raw := f.call(op.method, op.path, b.body)
			wantError(t, resp, raw, b.status, b.code, b.detail)
			if after := op.unchanged(); after != before || f.count("events") != events {
				t.Errorf("%s with %s: changed %s → %s (events %d → %d)", op.name, b.name, before, after, events, f.count("events"))
			}
		}
	}
	// Absent, empty, null and an object with fields (ignored) are fine: the operations act.
	for i, body := range []any{nil, " ", "null", `{"reason":"ignored"}`} {
		c := f.createCart(t, map[string]any{"items": []any{cartItem(nil)}})
		resp, raw := f.call("POST", "/v3/carts/"+itoa(c.ID)+"/payment_requests", body)
		wantStatus(t, resp, raw, http.StatusCreated)
		b := f.book(t, map[string]any{"start_time": "2026-11-25T1" + strconv.Itoa(4+i) + ":00:00-03:00"})
		resp, raw = f.call("PATCH", "/v3/bookings/"+itoa(b.ID)+"/cancel", body)
		wantStatus(t, resp, raw, http.StatusNoContent)
		if got := bookingStatus(t, f, b.ID); got != 5 {
			t.Errorf("cancel with body %v: status %d, want 5", body, got)
		}
	}
	resp, raw := f.call("PATCH", "/v3/clients/2/deactivate", `{}`)
	wantStatus(t, resp, raw, http.StatusNoContent)
	pr := f.createPaymentRequest(t, cart.ID)
	resp, raw = f.call("PATCH", "/v3/payment_requests/"+itoa(pr.ID)+"/cancel", "garbage")
	wantError(t, resp, raw, http.StatusBadRequest, "invalid_body", "expected_object")
	if got := bkCount(t, f, `SELECT count(*) FROM payment_requests WHERE id = ? AND status = 'pending'`, pr.ID); got != 1 {
		t.Fatalf("payment request cancelled by a garbage body")
	}
}

// Ids like 01 or +1 used to be read as 1. Only the canonical spelling names a record, on every
// id route; in query filters the others are a 400.
func TestOnlyCanonicalIDsMatch(t *testing.T) {
	f := newFixture(t)
	b := f.book(t, nil)
	f.enablePayments(t)
	cart := f.createCart(t, map[string]any{"items": []any{cartItem(nil)}})
	pr := f.createPaymentRequest(t, cart.ID)
	routes := []struct {
		method, path string
		id           int64
	}{
		{"GET", "/v3/bookings/%s", b.ID},
		{"PATCH", "/v3/bookings/%s", b.ID},
		{"PATCH", "/v3/bookings/%s/cancel", b.ID},
		{"CANCEL", "/v3/bookings/%s", b.ID},
		{"GET", "/v3/clients/%s", 1},
		{"PATCH", "/v3/clients/%s", 1},
		{"PATCH", "/v3/clients/%s/deactivate", 1},
		{"GET", "/v3/clients/%s/custom_attributes", 1},
		{"GET", "/v3/locations/%s", 1},
		{"GET", "/v3/services/%s", 1},
		{"GET", "/v3/providers/%s", 1},
		{"GET", "/v3/carts/%s", cart.ID},
		{"PATCH", "/v3/carts/%s", cart.ID},
		{"POST", "/v3/carts/%s/payment_requests", cart.ID},
		{"PATCH", "/v3/payment_requests/%s/cancel", pr.ID},
	}
	for _, rt := range routes {
		canonical := itoa(rt.id)
		for _, spelling := range []string{"0" + canonical, "+" + canonical, "%2B" + canonical, canonical + ".0", "00" + canonical} {
			path := strings.Replace(rt.path, "%s", spelling, 1)
			resp, raw := f.call(rt.method, path, `{}`)
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s: got %d, want 404 (%s)", rt.method, path, resp.StatusCode, raw)
			}
		}
	}
	if got := bookingStatus(t, f, b.ID); got != 1 {
		t.Fatalf("booking %d has status %d after requests at non-canonical ids, want 1", b.ID, got)
	}
	for _, q := range []string{"client_id=01", "client_id=%2B1", "location_id=1.0", "service_id=0x1"} {
		resp, raw := f.call("GET", "/v3/bookings?"+q, nil)
		name, _, _ := strings.Cut(q, "=")
		wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_"+name)
	}
	resp, raw := f.call("GET", "/v3/providers?location_ids=1,01", nil)
	wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_location_ids")
	resp, raw = f.call("GET", "/v3/categories?page=01", nil)
	wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_page")
}

// Repeated query parameters used to be resolved silently (the first one won). Now a parameter
// that takes one value is a 400 naming it; list parameters may still repeat.
func TestRepeatedQueryParametersAreRefused(t *testing.T) {
	f := newFixture(t)
	f.book(t, nil)
	cases := []struct{ path, param string }{
		{"/v3/bookings?client_id=1&client_id=2", "client_id"},
		{"/v3/bookings?client_id=1&client_id=1", "client_id"},
		{"/v3/bookings?location_id=1&start_date=2026-11-24&start_date=2026-11-25", "start_date"},
		{"/v3/bookings?client_id=1&scheduled=true&scheduled=false", "scheduled"},
		{"/v3/bookings?client_id=1&page=1&page=2", "page"},
		{"/v3/available_slots?location_id=1&location_id=2&start_date=2026-11-24", "location_id"},
		{"/v3/clients/quick-search?q=ana&q=ben", "q"},
		{"/v3/clients/quick-search?q=ana&limit=1&limit=2", "limit"},
		{"/v3/providers?sort_by=id&sort_by=public_name", "sort_by"},
		{"/v3/providers?public_name=a&public_name=b", "public_name"},
		{"/v3/services?active=true&active=false", "active"},
		{"/v3/sales?client_id=1&client_id=2", "client_id"},
		{"/v3/categories?per_page=2&per_page=3", "per_page"},
	}
	for _, c := range cases {
		resp, raw := f.call("GET", c.path, nil)
		wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "duplicate_"+c.param)
	}
	resp, raw := f.call("GET", "/v3/providers?location_ids=1&location_ids=2&service_ids[]=1&service_ids[]=2", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}

// Duplicate JSON keys used to be resolved silently (the last one won, also across letter
// case, as encoding/json matches names). Now they are a 400 naming the field, and nothing is
// written.
func TestDuplicateJSONKeysAreRefused(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cases := []struct{ method, path, body, field string }{
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"A","first_name":"Eve"}`, "first_name"},
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"A","First_Name":"Eve"}`, "First_Name"},
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"A","\u0066irst_name":"Eve"}`, "first_name"},
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"A","custom_attributes":[{"id":1,"value":"x","value":"y"}]}`, "custom_attributes[0].value"},
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"A","extra":{"x":1,"x":2}}`, "extra.x"},
		{"PATCH", "/v3/clients/1", `{"email":"a@example.com","email":"b@example.com"}`, "email"},
		{"POST", "/v3/bookings", `{"start_time":"2026-11-24T10:00:00-03:00","service_id":1,"provider_id":2,"provider_id":1,"client_id":1,"location_id":1,"status_id":1}`, "provider_id"},
		{"POST", "/v3/carts", `{"client_id":1,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1,"quantity":2}]}`, "items[0].quantity"},
	}
	for _, c := range cases {
		counts := []int{f.count("clients"), f.count("bookings"), f.count("carts"), f.count("events")}
		resp, raw := f.call(c.method, c.path, c.body)
		wantError(t, resp, raw, http.StatusBadRequest, "invalid_body", c.field+": duplicate key")
		if after := []int{f.count("clients"), f.count("bookings"), f.count("carts"), f.count("events")}; !equalInts(counts, after) {
			t.Errorf("%s %s: row counts %v → %v", c.method, c.path, counts, after)
		}
	}
	resp, raw := f.call("PATCH", "/v3/clients/1", nil)
	_ = raw
	if got := bkCount(t, f, `SELECT count(*) FROM clients WHERE id = 1 AND email = 'maria.lopez@example.com'`); got != 1 {
		t.Fatalf("client 1's email changed by a refused PATCH (%d)", resp.StatusCode)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Two Authorization headers used to be resolved by taking the first. Now it is a 400, whichever
// of them is valid.
func TestTwoAuthorizationHeadersAreRefused(t *testing.T) {
	f := newFixture(t)
	for _, pair := range [][2]string{
		{"Bearer " + f.key, "Bearer " + f.key},
		{"Bearer " + f.key, "Bearer apk_live_other"},
		{"Bearer apk_live_other", "Bearer " + f.key},
	} {
		req, err := http.NewRequest("GET", f.srv.URL+"/v3/categories", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Add("Authorization", pair[0])
		req.Header.Add("Authorization", pair[1])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw := new(bytes.Buffer)
		raw.ReadFrom(resp.Body)
		resp.Body.Close()
		wantError(t, resp, raw.Bytes(), http.StatusBadRequest, "bad_request", "duplicate_authorization_header")
	}
}

// GET /v3/bookings refused ranges over 31 days, so a CRM module asking for its six-week month
// view (42 dates) got 400 date_range_exceeds_31_days. Any range is answered now, paged like any
// list (per_page at most 100): a six-week view, a year, every date there is — also for a
// provider who works in two zones, whose bookings belong to the local date of their own
// location. The answers are checked against the bookings' local dates computed here.
func TestBookingsAnyDateRange(t *testing.T) {
	f := newFixture(t)
	// Ana works at Providencia (Santiago) and Manhattan (New York): one booking a day from
	// 2026-09-01, alternating between them, at 23:30 local time, where the UTC date is already
	// the next one, so a range computed in the wrong zone would miss or add bookings at its ends.
	type seeded struct {
		id   int64
		date string // the local date at the booking's location
		loc  int64
	}
	var all []seeded
	zones := map[int64]*time.Location{}
	for _, l := range []struct {
		id   int64
		zone string
	}{{1, "America/Santiago"}, {2, "America/New_York"}} {
		z, err := time.LoadLocation(l.zone)
		if err != nil {
			t.Fatal(err)
		}
		zones[l.id] = z
	}
	for i := range 150 {
		loc := int64(1 + i%2)
		start := time.Date(2026, 9, 1+i, 23, 30, 0, 0, zones[loc])
		ms := start.UnixMilli()
		id := int64(100 + i)
		bkExec(t, f, `INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (?, ?, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, 'admin', 0, 0)`, id, loc, ms, ms+1_800_000, ms, ms+1_800_000)
		all = append(all, seeded{id, start.Format(time.DateOnly), loc})
	}
	want := func(from, to string, loc int64) []int64 {
		ids := []int64{}
		for _, b := range all {
			if b.date >= from && b.date <= to && (loc == 0 || b.loc == loc) {
				ids = append(ids, b.id)
			}
		}
		return ids
	}
	// pages reads every page of a query and returns the ids in order and total_records.
	pages := func(query string, perPage int) ([]int64, int) {
		t.Helper()
		ids := []int64{}
		total := -1
		for page := 1; ; page++ {
			resp, raw := f.call("GET", "/v3/bookings?"+query+"&per_page="+strconv.Itoa(perPage)+"&page="+strconv.Itoa(page), nil)
			wantStatus(t, resp, raw, http.StatusOK)
			validateResponse(t, "listBookings", resp, raw)
			got := decodeAs[struct {
				Data       []bkResource `json:"data"`
				Pagination struct {
					TotalRecords int `json:"total_records"`
					TotalPages   int `json:"total_pages"`
				} `json:"pagination"`
			}](t, raw)
			total = got.Pagination.TotalRecords
			for _, b := range got.Data {
				ids = append(ids, b.ID)
			}
			if len(got.Data) < perPage {
				if page < got.Pagination.TotalPages {
					t.Fatalf("%s: page %d of %d has %d bookings", query, page, got.Pagination.TotalPages, len(got.Data))
				}
				return ids, total
			}
		}
	}
	for _, c := range []struct {
		query, from, to string
		loc             int64
		perPage         int
	}{
		{"provider_id=1&start_date=2026-10-26&end_date=2026-12-06", "2026-10-26", "2026-12-06", 0, 30}, // a six-week month view
		{"provider_id=1&start_date=2026-09-01&end_date=2027-08-31", "2026-09-01", "2027-08-31", 0, 100},
		{"provider_id=1&start_date=0001-01-01&end_date=9999-12-31", "0001-01-01", "9999-12-31", 0, 100},
		{"location_id=2&start_date=2026-09-02&end_date=2026-12-31", "2026-09-02", "2026-12-31", 2, 7},
		{"client_id=1&start_date=2026-10-15&end_date=2027-01-15", "2026-10-15", "2027-01-15", 0, 100},
	} {
		ids, total := pages(c.query, c.perPage)
		w := want(c.from, c.to, c.loc)
		if fmt.Sprint(ids) != fmt.Sprint(w) || total != len(w) {
			t.Errorf("%s: got %d of %d: %v\nwant %d: %v", c.query, len(ids), total, ids, len(w), w)
		}
	}
	// The page is what stays bounded.
	resp, raw := f.call("GET", "/v3/bookings?provider_id=1&start_date=0001-01-01&end_date=9999-12-31&per_page=101", nil)
	wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_per_page")
}

// Names with bidirectional controls or zero-width characters used to be stored as sent, so
// "Ana\u202Eagrom" showed as "Anamorga" in every list. Now they are a 422 naming the field and
// the character; a Persian name keeps its non-joiner.
func TestNamesRefuseHiddenCharacters(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	cases := []struct{ method, path, body, detail string }{
		{"POST", "/v3/clients", `{"first_name":"Ana\u202Eagrom","last_name":"A"}`, "first_name: must not contain direction-changing characters (U+202E)"},
		{"POST", "/v3/clients", `{"first_name":"Ana","last_name":"Lo\u200Bpez"}`, "last_name: must not contain invisible characters (U+200B)"},
		{"POST", "/v3/clients", `{"first_name":"\u2066Ana","email":"a@example.com"}`, "first_name: must not contain direction-changing characters (U+2066)"},
		{"PATCH", "/v3/clients/1", `{"first_name":"Ma\u200Dria"}`, "first_name: must not contain invisible characters (U+200D)"},
		{"PATCH", "/v3/clients/1", `{"last_name":"\uFEFFLopez"}`, "last_name: must not contain invisible characters (U+FEFF)"},
		{"POST", "/v3/carts", `{"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1,"item_name":"Cut\u202E"}]}`, "items[0].item_name: must not contain direction-changing characters (U+202E)"},
	}
	for _, c := range cases {
		counts := []int{f.count("clients"), f.count("carts"), f.count("events")}
		resp, raw := f.call(c.method, c.path, c.body)
		wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", c.detail)
		if after := []int{f.count("clients"), f.count("carts"), f.count("events")}; !equalInts(counts, after) {
			t.Errorf("%s %s: row counts %v → %v", c.method, c.path, counts, after)
		}
	}
	if got := bkCount(t, f, `SELECT count(*) FROM clients WHERE id = 1 AND first_name = 'Maria' AND last_name = 'Lopez'`); got != 1 {
		t.Fatal("client 1 changed by refused PATCHes")
	}
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"می\u200cخواهم","last_name":"Rezaei"}`)
	wantStatus(t, resp, raw, http.StatusCreated)
}
