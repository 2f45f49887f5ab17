package site_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/site"
)

// POSTs from another origin are refused and write nothing.
func TestCrossOriginPostRefused(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	form := f.details(haircut, f.ana, at)
	for name, h := range map[string]http.Header{
		"Sec-Fetch-Site cross-site": {"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}},
		"Origin of another site":    {"Origin": {"https://evil.example"}},
	} {
		res := f.postWith("/book/1/1/details", form, h)
		if res.status != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", name, res.status)
		}
	}
	if n := len(f.bookings()); n != 0 {
		t.Errorf("%d bookings after cross-origin posts, want 0", n)
	}
}

// A client address may make a burst of POSTs, then waits: 429 with Retry-After, nothing booked.
func TestPerAddressLimit(t *testing.T) {
	f := newFixture(t, func(o *site.Options) { o.PostsPerHour = 60 })
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	bad := f.details(haircut, f.ana, at)
	bad.Set("email", "not an email") // refused by validation: costs a request, books nothing
	for i := range 10 {
		if res := f.post("/book/1/1/details", bad); res.status != http.StatusUnprocessableEntity {
			t.Fatalf("request %d: status %d, want 422", i+1, res.status)
		}
	}
	res := f.post("/book/1/1/details", f.details(haircut, f.ana, at))
	wantStatus(t, res, http.StatusTooManyRequests)
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	wantBody(t, res, "Too many requests came from your connection.")
	f.clock.set(start.Add(time.Minute)) // 60 an hour: one more a minute later
	f.book(haircut, f.details(haircut, f.ana, at))
	// GETs are not limited.
	for range 20 {
		wantStatus(t, f.get("/book/1"), http.StatusOK)
	}
}

// A filled honeypot field is refused and writes nothing.
func TestHoneypot(t *testing.T) {
	f := newFixture(t)
	form := f.details(haircut, f.ana, time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	form.Set("website", "http://spam.example")
	res := f.post("/book/1/1/details", form)
	wantStatus(t, res, http.StatusBadRequest)
	if n := f.count(`SELECT count(*) FROM bookings`) + f.count(`SELECT count(*) FROM clients`); n != 0 {
		t.Errorf("the honeypot let %d rows through", n)
	}
}

// Every site response carries the strict CSP; framing is allowed only to the owner's origins,
// and the appliance-wide X-Frame-Options: DENY is lifted for the site alone.
func TestFramingHeaders(t *testing.T) {
	f := newFixture(t)
	res := f.get("/book/1")
	csp := res.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:;", "frame-ancestors 'self';", "form-action 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	f.exec(`UPDATE site_settings SET frame_origins = 'https://www.salon.example' || char(10) || 'https://*.salon.example'`)
	res = f.get("/book/1")
	if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://www.salon.example https://*.salon.example;") {
		t.Errorf("CSP %q does not allow the owner's origins to frame", csp)
	}
	if res.header.Get("X-Frame-Options") != "" {
		t.Error("X-Frame-Options still set on the site")
	}
}

// Switched off, the booking pages say so (404) while manage links keep working.
func TestSiteOff(t *testing.T) {
	f := newFixture(t)
	manage := f.bookAt(time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	f.exec(`UPDATE site_settings SET enabled = 0`)
	for _, path := range []string{"/book", "/book/1", "/book/1/1/times?provider=0"} {
		res := f.get(path)
		wantStatus(t, res, http.StatusNotFound)
		wantBody(t, res, "does not take bookings online at the moment")
	}
	wantStatus(t, f.get(manage), http.StatusOK)
	f.exec(`UPDATE site_settings SET enabled = 1`)
	f.exec(`INSERT INTO site_locations (location_id, enabled) VALUES (1, 0)`)
	wantStatus(t, f.get("/book/1"), http.StatusNotFound)
}

// Personal data never appears in a URL: not in the redirect after booking, not in any link of
// any page of the flow. The manage token is the only secret in URLs.
func TestNoPersonalDataInURLs(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	form := f.details(haircut, f.ana, at)
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("phone", "12") // a refused form comes back with the input in the page, not the URL
	pages := []response{f.post("/book/1/1/details", bad)}
	res := f.post("/book/1/1/details", form)
	manage := res.location()
	pages = append(pages, res, f.get(manage), f.get(strings.TrimSuffix(manage, "?done=booked")+"/reschedule"))
	for _, p := range pages {
		urls := append([]string{p.location()}, matchAll(hrefRE, p.body)...)
		for _, u := range urls {
			for _, personal := range []string{"Camila", "Rojas", "camila", "8765", "none"} {
				if strings.Contains(u, personal) {
					t.Errorf("URL %q carries personal data %q", u, personal)
				}
			}
		}
	}
}

func matchAll(re interface {
	FindAllStringSubmatch(string, int) [][]string
}, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
