package site_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Hostile or broken input is a clear 4xx page, never a 500, and writes nothing.
func TestHostileInput(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at)
	rows := func() int64 {
		return f.count(`SELECT (SELECT count(*) FROM bookings) + (SELECT count(*) FROM clients) + (SELECT count(*) FROM events) + (SELECT count(*) FROM manage_links)`)
	}
	before := rows()
	for _, path := range []string{"/book/abc", "/book/0", "/book/01", "/book/1/999", "/book/1/4", "/book/9/1",
		"/book/1/1/times?provider=abc", "/book/1/1/times?provider=999", "/book/manage/%E2%9C%93", "/book/manage/" + strings.Repeat("a", 5000)} {
		if res := f.get(path); res.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.status)
		}
	}
	for _, path := range []string{"/book/1/1/times?provider=0&date=2026-02-30&from=x", "/book/1/1/times?provider=0&date=9999-12-31",
		"/book/1/1/times?provider=0&from=1900-01-01", "/book/1?q=%00%ff%27", detailsPath(haircut, 0, at.Add(time.Minute))} {
		if res := f.get(path); res.status >= 500 || res.status == http.StatusNotFound {
			t.Errorf("GET %s: %d, want a page", path, res.status)
		}
	}
	good := f.details(haircut, 0, at.Add(time.Hour))
	for name, change := range map[string]func(url.Values){
		"provider not a number": func(v url.Values) { v.Set("provider", "abc") },
		"start garbage":         func(v url.Values) { v.Set("start", "tomorrow") },
		"start off the grid":    func(v url.Values) { v.Set("start", at.Add(7*time.Minute).Format(time.RFC3339)) },
		"control characters":    func(v url.Values) { v.Set("first_name", "A\x00B\x1b") },
		"long name":             func(v url.Values) { v.Set("last_name", strings.Repeat("ñ", 300)) },
		"bad phone":             func(v url.Values) { v.Set("phone", "call me") },
		"no nonce":              func(v url.Values) { v.Del("nonce") },
		"nonce garbage":         func(v url.Values) { v.Set("nonce", "'; DROP TABLE bookings") },
		"unknown attribute":     func(v url.Values) { v.Set("attr_999", "x"); v.Set("email", "bad") },
		"huge body":             func(v url.Values) { v.Set("notes", strings.Repeat("x", 70<<10)) },
	} {
		form := url.Values{}
		for k, v := range good {
			form[k] = append([]string(nil), v...)
		}
		change(form)
		res := f.post("/book/1/1/details", form)
		if res.status < 400 || res.status >= 500 {
			t.Errorf("%s: status %d, want 4xx", name, res.status)
		}
	}
	for name, form := range map[string]url.Values{
		"no start":      {},
		"start garbage": {"start": {"x"}},
	} {
		if res := f.post(manage+"/reschedule", form); res.status < 400 || res.status >= 500 {
			t.Errorf("reschedule %s: status %d, want 4xx", name, res.status)
		}
	}
	if after := rows(); after != before {
		t.Errorf("hostile input wrote %d rows", after-before)
	}
}
