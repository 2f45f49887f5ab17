package admin_test

// The booking site (app/site, issue 11) end to end in a real browser. It lives here because the
// whole-appliance harness does (the real server, the owner's setup, headless Chromium): the site
// is configured through Settings → Booking site like an owner would, and booked like a customer.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

// TestBrowserBookingSite books through the public pages as customers do:
//   - at 1280 px with JavaScript: location → service (filtered as you type) → provider → a day
//     (swapped in place by htmx, focus on its times) → a time → details → confirmed, with the
//     manage link; then reschedule and cancel through the link;
//   - two browsers submit the same time: one is booked, the other is told it was just taken
//     and offered the times still free, and the database holds one booking;
//   - at 390 px with JavaScript off, another booking from the first page to the manage page;
//   - embedded in the owner's page on another origin, the frame grows to its content.
//
// On every public page axe-core (vendored, testdata/) finds no serious or critical violation,
// and no page requests anything from another origin. The booking, the client and the webhook
// deliveries are those the /v3 API gives for the same booking made through it.
func TestBrowserBookingSite(t *testing.T) {
	hooks := newHookReceiver(t)
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true", "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,1s,1s")
	owner := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, keywords_json, created_at, updated_at)
		VALUES ('beard', 'Beard Trim', 20, 1500, '["barber"]', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) SELECT id, ? FROM services WHERE uuid = 'beard'`, w.anaID); err != nil {
		t.Fatal(err)
	}
	_, _, err := webhook.NewManager(d, webhook.ManagerOptions{}).Create(context.Background(),
		webhook.CreateInput{URL: hooks.url, Events: []string{"booking.*", "client.*"}, AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	embedder := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		snippet := between(owner.get(t, "/settings/booking-site").Body, `data-testid="embed-snippet">`, "</textarea>")
		fmt.Fprintf(rw, `<!DOCTYPE html><html><body><h1>Our salon</h1>%s</body></html>`, unescapeHTML(snippet))
	}))
	t.Cleanup(embedder.Close)

	// The owner switches the site on for both locations and lets their own website embed it.
	form := url.Values{
		"enabled": {"1"}, "locations": {w.Location, w.Night}, "accent": {"#2a7d4f"}, "display_name": {"Studio online"},
		"policy_text": {"Cancel up to 24 hours ahead."}, "frame_origins": {embedder.URL},
	}
	wantRedirect(t, owner.post(t, "/settings/booking-site", form), "/settings/booking-site")
	wantBody(t, owner.get(t, "/settings/booking-site"), "Booking site settings saved.", "data-frontdesk", "/static/embed.js")

	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1280, 900)
	origins := watchOrigins(t, b)
	audit := func(page string) {
		t.Helper()
		auditPage(t, b, axe, page)
	}

	// 1280 px, JavaScript on.
	b.do("locations", chromedp.Navigate(ts.URL+"/book"), chromedp.WaitVisible(testID("site-locations")))
	audit("locations")
	b.do("services", chromedp.Click(css(`a[href="/book/`+w.Location+`"]`)), chromedp.WaitVisible(testID("service-list")))
	audit("services")
	b.do("filter", chromedp.SendKeys(css("#q"), "barber"),
		chromedp.Poll[chromedp.Void](`document.querySelector('a[href$="/`+w.Service+`"]').closest("li").hidden`))
	if !evalJS[bool](b, `!document.querySelector('[data-search*="barber"]').hidden`) {
		t.Error("typing a keyword hid the service it belongs to")
	}
	evalJS[bool](b, `(() => { const q = document.querySelector("#q"); q.value = ""; q.dispatchEvent(new Event("input")); return true })()`)
	b.do("providers", chromedp.Click(css(`a[href="/book/`+w.Location+`/`+w.Service+`"]`)),
		chromedp.WaitVisible(testID("site-providers")))
	audit("providers")
	b.do("times", chromedp.Click(css(`a[data-testid=provider][href*="provider=`+w.Ana+`"]`)), chromedp.WaitVisible(testID("picker")))
	audit("times")
	day := css(`a[data-testid=day][href*="date=` + w.Day + `"]`)
	b.do("day", chromedp.Click(day), chromedp.Poll[chromedp.Void](`document.activeElement && document.activeElement.id === "times-h"`))
	dayTitle := b.text("[data-testid=times-date]")
	if !strings.Contains(evalJS[string](b, "location.href"), "date="+w.Day) || !strings.Contains(dayTitle, dayOf(w)) {
		t.Errorf("after choosing %s the page is %s with times of %q", w.Day, evalJS[string](b, "location.href"), dayTitle)
	}
	b.do("details", chromedp.Click(css(`a[data-testid=time][aria-label$=", 10:00"]`)), chromedp.WaitVisible(testID("details-form")))
	wantText(t, b, "[data-testid=site-policy]", "Cancel up to 24 hours ahead.")
	b.do("invalid", chromedp.SendKeys(css("#f-first_name"), "Lucia"), chromedp.Click(testID("confirm")),
		chromedp.WaitVisible(testID("error-email")))
	if evalJS[string](b, "document.activeElement.dataset.testid") != "form-error" {
		t.Error("after a refused submit the focus is not on the error summary")
	}
	audit("details with errors")
	fillDetails(b, "", "Vega", "lucia.vega@example.com", "+1 212 555 0134")
	b.do("booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
	audit("manage after booking")
	manageURL := b.text("[data-testid=manage-url]")
	if !strings.HasPrefix(manageURL, ts.URL+"/book/manage/") {
		t.Fatalf("manage link %q", manageURL)
	}
	siteID := lastBooking(t, d, "online")
	compareWithAPI(t, ts, owner, d, hooks, w, siteID)

	// Reschedule to 11:30, then cancel, through the link.
	b.do("reschedule", chromedp.Click(testID("manage-reschedule")), chromedp.WaitVisible(testID("picker")))
	audit("reschedule")
	b.do("reschedule-day", chromedp.Click(day), chromedp.WaitVisible(testID("times-date")))
	b.do("reschedule-confirm", chromedp.Click(css(`a[data-testid=time][aria-label$=", 11:30"]`)), chromedp.WaitVisible(testID("confirm-form")))
	audit("reschedule confirmation")
	b.do("rescheduled", chromedp.Click(testID("confirm-change")), chromedp.WaitVisible(testID("manage-message")))
	wantText(t, b, "[data-testid=site-when]", "11:30")
	b.do("cancel", chromedp.Click(testID("manage-cancel")), chromedp.WaitVisible(testID("confirm-form")))
	audit("cancel confirmation")
	b.do("cancelled", chromedp.Click(testID("confirm-change")), chromedp.WaitVisible(testID("manage-cancelled")))
	audit("cancelled booking")
	if status, _, start := bookingRow(t, d, fmt.Sprint(siteID)); status != 5 || start.In(w.zone).Format("15:04") != "11:30" {
		t.Errorf("after reschedule and cancel the booking is status %d at %v", status, start)
	}
	b.do("not found", chromedp.Navigate(ts.URL+"/book/manage/"+strings.Repeat("x", 43)), chromedp.WaitVisible(testID("site-message")))
	audit("not found")

	// Two browsers submit Bruno at 14:00.
	raceTwoBrowsers(t, ts, d, w)
	origins.check(t, ts.URL)

	// 390 px, JavaScript off.
	// Our scripts are blocked from loading (the pages have no inline script), which is what a
	// browser with JavaScript off runs; DevTools can still look into the page.
	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	phoneOrigins := watchOrigins(t, phone)
	if _, err := chromedp.Call(phone.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/*.js", Block: true}},
	}); err != nil {
		t.Fatal(err)
	}
	narrow := func(page string) {
		t.Helper()
		if got := evalJS[int](phone, "document.documentElement.scrollWidth"); got > 390 {
			t.Errorf("%s is %d px wide on a 390 px phone", page, got)
		}
	}
	phone.do("phone-locations", chromedp.Navigate(ts.URL+"/book"), chromedp.WaitVisible(testID("site-locations")))
	if evalJS[bool](phone, `typeof htmx !== "undefined"`) {
		t.Fatal("the phone runs our scripts; want JavaScript off")
	}
	narrow("locations")
	// A long word (a name, a link pasted in a description) wraps instead of widening the list.
	if _, err := d.Write.Exec(`UPDATE services SET description = ? WHERE id = ?`, "https://www.example.com/"+strings.Repeat("tratamientocapilar", 8), w.Service); err != nil {
		t.Fatal(err)
	}
	audit = func(page string) { t.Helper(); auditPage(t, phone, axe, page+" (390 px, no JavaScript)") }
	phone.do("phone-services", chromedp.Click(css(`a[href="/book/`+w.Night+`"]`)), chromedp.WaitVisible(testID("service-list")))
	narrow("services")
	phone.do("phone-times", chromedp.Click(css(`a[href="/book/`+w.Night+`/`+w.Service+`"]`)), chromedp.WaitVisible(testID("picker")))
	narrow("times")
	audit("times")
	phone.do("phone-day", chromedp.Click(css(`a[data-testid=day][href*="date=`+w.Day+`"]`)), chromedp.WaitVisible(testID("times-date")))
	phone.do("phone-details", chromedp.Click(css(`a[data-testid=time][aria-label$=", 22:00"]`)), chromedp.WaitVisible(testID("details-form")))
	narrow("details")
	audit("details")
	fillDetails(phone, "Tomás", "Núñez", "tomas@example.com", "+1 646 555 0199")
	phone.do("phone-booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
	narrow("manage")
	audit("manage")
	if !evalJS[bool](phone, `getComputedStyle(document.querySelector("[data-copy]")).display === "none"`) {
		t.Error("without JavaScript the copy button, which needs it, is shown")
	}
	if id := lastBooking(t, d, "online"); id == siteID {
		t.Error("the phone booking was not stored")
	} else if _, provider, start := bookingRow(t, d, fmt.Sprint(id)); provider != w.noraID || start.In(w.zone).Format("15:04") != "22:00" {
		t.Errorf("the phone booking is provider %d at %v, want Nora at 22:00", provider, start)
	}
	phoneOrigins.check(t, ts.URL)

	// Embedded in the owner's page at another origin, on a phone: the frame fits its content.
	frame := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	frame.do("embedded", chromedp.Navigate(embedder.URL), chromedp.WaitVisible(css("iframe[data-frontdesk]")),
		chromedp.Poll[chromedp.Void](`document.querySelector("iframe[data-frontdesk]").style.height.endsWith("px")`))
	if h := evalJS[float64](frame, `parseFloat(document.querySelector("iframe[data-frontdesk]").style.height)`); h < 200 {
		t.Errorf("the embedded frame is %v px high, want it grown to the booking page", h)
	}
}

// hookReceiver is a webhook endpoint that keeps what it receives.
type hookReceiver struct {
	url string
	mu  sync.Mutex
	got []map[string]any
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var env map[string]any
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &env) == nil {
			h.mu.Lock()
			h.got = append(h.got, env)
			h.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/hooks"
	return h
}

// event waits for the delivery of eventType whose data has id.
func (h *hookReceiver) event(t *testing.T, eventType string, id int64) map[string]any {
	t.Helper()
	var found map[string]any
	waitFor(t, eventType+" "+fmt.Sprint(id), func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, env := range h.got {
			data, _ := env["data"].(map[string]any)
			if env["type"] == eventType && data["id"] == float64(id) {
				found = data
				return true
			}
		}
		return false
	})
	return found
}

// compareWithAPI books the same service, provider and client through POST /v3/bookings and
// checks that the site's booking, its client and their webhook deliveries match what the API
// gives, field by field, but for what must differ (ids, times, timestamps).
func compareWithAPI(t *testing.T, ts *testServer, owner *client, d *db.DB, hooks *hookReceiver, w bookingWorld, siteID int64) {
	t.Helper()
	key := apiKey(t, owner)
	site := v3(t, ts, key, http.MethodGet, fmt.Sprintf("/v3/bookings/%d", siteID), "")
	clientID := int64(site["client_id"].(float64))
	start := fmt.Sprintf("%sT15:00:00%s", w.Day, offsetOf(w))
	api := v3(t, ts, key, http.MethodPost, "/v3/bookings", fmt.Sprintf(`{"location_id": %s, "service_id": %s, "provider_id": %s, "client_id": %d, "start_time": %q, "status_id": 1}`,
		w.Location, w.Service, w.Ana, clientID, start))
	apiID := int64(api["id"].(float64))
	api = v3(t, ts, key, http.MethodGet, fmt.Sprintf("/v3/bookings/%d", apiID), "")
	differ := map[string]bool{"id": true, "start_time": true, "end_time": true, "created_at": true, "updated_at": true}
	sameFields(t, "GET /v3/bookings", site, api, differ)
	sameFields(t, "booking.created", hooks.event(t, "booking.created", siteID), hooks.event(t, "booking.created", apiID), differ)

	c := v3(t, ts, key, http.MethodGet, fmt.Sprintf("/v3/clients/%d", clientID), "")
	if c["first_name"] != "Lucia" || c["last_name"] != "Vega" || c["email"] != "lucia.vega@example.com" || c["phone"] != "+12125550134" {
		t.Errorf("client %v", c)
	}
	sameFields(t, "client.created", hooks.event(t, "client.created", clientID), c, nil)
}

func sameFields(t *testing.T, what string, got, want map[string]any, differ map[string]bool) {
	t.Helper()
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: the site's lacks %q", what, k)
		}
	}
	for k, v := range got {
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("%s: the site's has %q, the API's does not", what, k)
		case !differ[k] && !jsonEqual(v, w):
			t.Errorf("%s: %q is %v from the site, %v from the API", what, k, v, w)
		}
	}
}

// apiKey creates an API key through the UI.
func apiKey(t *testing.T, c *client) string {
	t.Helper()
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", url.Values{"name": {"site test"}, "access": {"full"}}), "/settings/integrations/api-keys")
	return between(c.get(t, "/settings/integrations/api-keys").Body, `data-testid="new-api-key">`, "<")
}

func v3(t *testing.T, ts *testServer, key, method, path, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// raceTwoBrowsers opens the details of Bruno at 14:00 in two more browsers, fills both and
// submits one after the other: the first is booked, the second sees "just taken" with the
// times still free and what it typed kept.
func raceTwoBrowsers(t *testing.T, ts *testServer, d *db.DB, w bookingWorld) {
	t.Helper()
	at := fmt.Sprintf("%sT14:00:00%s", w.Day, offsetOf(w))
	page := ts.URL + "/book/" + w.Location + "/" + w.Service + "/details?" + url.Values{"provider": {w.Bruno}, "start": {at}}.Encode()
	tabs := make([]*browser, 2)
	for i := range tabs {
		tabs[i] = newBrowser(t, 1280, 900)
		tabs[i].do(fmt.Sprintf("tab%d-details", i), chromedp.Navigate(page), chromedp.WaitVisible(testID("details-form")))
		fillDetails(tabs[i], fmt.Sprintf("Racer%d", i), "Fast", fmt.Sprintf("racer%d@example.com", i), fmt.Sprintf("+1 917 555 010%d", i))
	}
	tabs[0].do("tab0-booked", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("manage-url")))
	tabs[1].do("tab1-taken", chromedp.Click(testID("confirm")), chromedp.WaitVisible(testID("just-taken")))
	if n := evalJS[int](tabs[1], `document.querySelectorAll("[data-testid=alternative]").length`); n == 0 {
		t.Error("the second tab is offered no other time")
	}
	if evalJS[string](tabs[1], `document.querySelector("#f-first_name").value`) != "Racer1" {
		t.Error("the second tab lost what was typed")
	}
	auditPage(t, tabs[1], mustRead(t, "testdata/axe-4.11.0.min.js"), "details, just taken")
	var n int
	start, _ := time.Parse(time.RFC3339, at)
	if err := d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE provider_id = ? AND start_at = ? AND status_id <> 5`, w.brunoID, start.UnixMilli()).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d bookings of Bruno at 14:00 (%v), want 1", n, err)
	}
}

func fillDetails(b *browser, first, last, email, phone string) {
	b.t.Helper()
	var actions []chromedp.Action[chromedp.Void]
	for id, v := range map[string]string{"#f-first_name": first, "#f-last_name": last, "#f-email": email, "#f-phone": phone} {
		if v != "" {
			evalJS[bool](b, fmt.Sprintf(`(() => { document.querySelector(%q).value = ""; return true })()`, id))
			actions = append(actions, chromedp.SendKeys(css(id), v))
		}
	}
	b.do("fill", actions...)
}

// auditPage runs axe-core on the current page and fails on serious or critical violations.
func auditPage(t *testing.T, b *browser, axe []byte, page string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(axe)+";true")); err != nil {
		t.Fatalf("%s: inject axe: %v", page, err)
	}
	report, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(
		r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" "))}))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe: %v", page, err)
	}
	if report != "[]" {
		t.Errorf("%s: axe found serious or critical violations: %s", page, report)
	}
}

// originWatch records every request a browser's tab makes.
type originWatch struct {
	mu   sync.Mutex
	urls []string
}

func watchOrigins(t *testing.T, b *browser) *originWatch {
	t.Helper()
	o := &originWatch{}
	events := chromedp.Events(b.ctx, network.RequestWillBeSent)
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			o.mu.Lock()
			o.urls = append(o.urls, ev.Request.URL)
			o.mu.Unlock()
		}
	}()
	return o
}

// check fails for any request that went anywhere but origin (data: URLs are not requests).
func (o *originWatch) check(t *testing.T, origin string) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.urls) == 0 {
		t.Fatal("no requests were seen: the watch is broken")
	}
	for _, u := range o.urls {
		if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("a public page requested %s, outside %s", u, origin)
		}
	}
}

func lastBooking(t *testing.T, d *db.DB, source string) int64 {
	t.Helper()
	var id int64
	if err := d.Read.QueryRow(`SELECT max(id) FROM bookings WHERE source = ?`, source).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func wantText(t *testing.T, b *browser, sel, want string) {
	t.Helper()
	if got := b.text(sel); !strings.Contains(got, want) {
		t.Errorf("%s says %q, want %q", sel, got, want)
	}
}

// dayOf is the world's day as the site writes it ("24 November 2026").
func dayOf(w bookingWorld) string {
	day, _ := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	return fmt.Sprintf("%d %s %d", day.Day(), day.Month(), day.Year())
}

// offsetOf is the world's day's UTC offset in New York ("-05:00").
func offsetOf(w bookingWorld) string {
	day, _ := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	return day.Add(12 * time.Hour).Format("-07:00")
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unescapeHTML undoes the escaping of the embed snippet as the settings page prints it.
func unescapeHTML(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&quot;", `"`, "&amp;", "&", "&#39;", "'").Replace(s)
}
