package admin_test

// Every admin page in a real browser (issue 13): at 1280 px and at 390 px no page is wider than
// the screen (only the day grid scrolls, inside its own box), the day view's sticky header row
// and time column stay on their columns after scrolling, and axe-core finds no serious or
// critical violation. One server, one world, two tabs, one loop over the pages.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"frontdesk/app/webhook"
)

func TestBrowserEveryPage(t *testing.T) {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(receiver.Close)
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	owner := ts.setupOwner(t)
	w := seedEveryPageWorld(t, ts, owner, receiver.URL)
	pages := browsedPages(t, ts, owner, w)

	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	desktop := newBrowser(t, 1280, 900)
	phone := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	for _, b := range []*browser{desktop, phone} {
		b.do("login", chromedp.Navigate(ts.URL+"/login"), chromedp.WaitVisible(testID("login-form")))
		checkPage(t, b, axe, "/login")
		b.do("signed-in", chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
			chromedp.Submit(testID("login-form")), chromedp.WaitVisible(css("main h1")))
	}
	for _, path := range pages {
		for _, b := range []*browser{desktop, phone} {
			visit(t, b, ts.URL+path)
			checkPage(t, b, axe, path)
		}
	}

	// The day with ten providers: at 1280 px every column fits the grid's box; on the phone the
	// box scrolls. Either way the header row and the time column stick to the box's edges and
	// stay over and beside their own cells.
	visit(t, desktop, ts.URL+w.dayPath())
	if n := evalJS[int](desktop, `document.querySelectorAll("[data-testid=day-provider]").length`); n < 10 {
		t.Fatalf("the day shows %d providers, want the 10 of the world", n)
	}
	if over := evalJS[int](desktop, `(() => { const w = document.querySelector(".day-wrap"); return w.scrollWidth - w.clientWidth })()`); over > 0 {
		t.Errorf("at 1280 px the day grid of 10 providers scrolls sideways by %d px", over)
	}
	for name, b := range map[string]*browser{"1280 px": desktop, "390 px": phone} {
		visit(t, b, ts.URL+w.dayPath())
		if msg := evalJS[string](b, stickyCheck); msg != "" {
			b.screenshot("sticky-failed")
			t.Errorf("%s: day view after scrolling the grid: %s", name, msg)
		}
	}
}

// stickyCheck scrolls the day grid's box down (and sideways where it can) and returns what is
// out of place: "" when the header row sits at the box's top edge, the time column at its left
// edge, and every header cell exactly over its provider's cells.
const stickyCheck = `(() => {
	const wrap = document.querySelector(".day-wrap");
	if (!wrap) return "no .day-wrap";
	if (wrap.scrollHeight <= wrap.clientHeight) return "the grid's box does not scroll vertically (" + wrap.scrollHeight + " px in " + wrap.clientHeight + " px)";
	wrap.scrollTop = 400;
	wrap.scrollLeft = 200;
	const box = wrap.getBoundingClientRect();
	const top = box.top + wrap.clientTop, left = box.left + wrap.clientLeft;
	const problems = [];
	const corner = document.querySelector(".day-grid thead th").getBoundingClientRect();
	if (Math.abs(corner.top - top) > 1) problems.push("header row at " + corner.top + ", box top at " + top);
	if (Math.abs(corner.left - left) > 1) problems.push("time header at " + corner.left + ", box left at " + left);
	const rowHead = [...document.querySelectorAll(".day-grid tbody th")].find(th => th.getBoundingClientRect().top > corner.bottom);
	if (!rowHead) problems.push("no time label below the header");
	else if (Math.abs(rowHead.getBoundingClientRect().left - left) > 1) problems.push("time column at " + rowHead.getBoundingClientRect().left + ", box left at " + left);
	for (const th of document.querySelectorAll(".day-grid thead th[data-provider]")) {
		const td = document.querySelector(".day-grid tbody td[data-provider='" + th.dataset.provider + "']");
		if (!td) { problems.push("no cells for provider " + th.dataset.provider); continue; }
		const h = th.getBoundingClientRect(), c = td.getBoundingClientRect();
		if (Math.abs(h.left - c.left) > 1 || Math.abs(h.width - c.width) > 1) problems.push("provider " + th.dataset.provider + " header at " + h.left + "+" + h.width + ", cells at " + c.left + "+" + c.width);
	}
	return problems.join("; ");
})()`

// visit opens a page and waits for its heading (no screenshot: checkPage takes one on failure).
func visit(t *testing.T, b *browser, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitVisible(css("main h1"))); err != nil {
		b.screenshot("visit-failed")
		t.Fatalf("open %s: %v", u, err)
	}
	b.checkConsole(u)
}

// checkPage fails when the page is wider than the screen, and runs axe-core on it.
func checkPage(t *testing.T, b *browser, axe []byte, path string) {
	t.Helper()
	width := evalJS[int](b, "document.documentElement.clientWidth")
	if got := evalJS[int](b, "document.documentElement.scrollWidth"); got > width {
		wide := evalJS[string](b, `[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest(".day-wrap")).slice(0, 3).map(e => e.tagName + "." + e.className).join(", ")`)
		b.screenshot("too-wide")
		t.Errorf("%s at %d px: the page is %d px wide (%s)", path, width, got, wide)
	}
	if width < 640 {
		// A list is stacked rows on a phone: every cell carries its column's name.
		if bad := evalJS[int](b, `[...document.querySelectorAll(".stacking td")].filter(td => !td.hasAttribute("data-label") || getComputedStyle(td).display !== "block").length`); bad > 0 {
			t.Errorf("%s at %d px: %d table cells are not stacked rows with a label", path, width, bad)
		}
	}
	auditPage(t, b, axe, fmt.Sprintf("%s at %d px", path, width))
}

// auditPage injects the vendored axe-core (testdata/, MPL 2.0) and fails on any serious or
// critical violation.
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

// seedEveryPageWorld fills the appliance so that every page has something to show, with id 1
// of every kind of record existing: the booking world (with ten providers at Norte), a
// booking, a payment request, a webhook with deliveries, an API key, a category, a custom
// attribute, a product.
func seedEveryPageWorld(t *testing.T, ts *testServer, owner *client, hookURL string) payWorld {
	t.Helper()
	w := seedPayWorld(t, ts)
	for i := range 7 {
		res, err := w.d.Write.Exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, 0, 0)`,
			fmt.Sprintf("Provider with a long name %d", i+1), w.norteID)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		for _, q := range []string{`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`} {
			if _, err := w.d.Write.Exec(q, id, w.norteID); err != nil {
				t.Fatal(err)
			}
		}
		for day := range 7 {
			if _, err := w.d.Write.Exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, ?, 540, 1020)`, id, w.norteID, day); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, _, err := webhook.NewManager(w.d, webhook.ManagerOptions{}).Create(context.Background(),
		webhook.CreateInput{URL: hookURL, Events: []string{"booking.*", "client.*"}, AllowPrivate: true}); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, owner.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	settled := w.request(t, "11:00")
	wantRedirect(t, owner.post(t, fmt.Sprintf("/payments/%d/settle", settled.ID), url.Values{"method": {"1"}}), fmt.Sprintf("/payments/%d", settled.ID))
	w.request(t, "14:00") // left open: the checkout page
	wantRedirect(t, owner.post(t, "/settings/integrations/api-keys", url.Values{"name": {"Front desk tablet"}, "access": {"full"}}), "/settings/integrations/api-keys")
	wantRedirect(t, owner.post(t, "/catalog/categories", url.Values{"name": {"Hair"}, "order": {"1"}}), "/catalog/categories")
	wantRedirect(t, owner.post(t, "/catalog/custom-attributes", url.Values{"name": {"Hair type"}, "datatype": {"categoric"}, "order": {"2"},
		"options": {"Straight\nCurly"}, "description": {"Asked at the first visit"}}), "/catalog/custom-attributes")
	wantRedirect(t, owner.post(t, "/catalog/products", url.Values{"name": {"Shampoo"}, "price": {"12.50"}, "active": {"1"}}), "/catalog/products")
	waitFor(t, "a webhook delivery", func() bool {
		var n int
		return w.d.Read.QueryRow(`SELECT count(*) FROM deliveries`).Scan(&n) == nil && n > 0
	})
	return w
}

// browsedPages lists the signed-in GET pages of the route table with their parameters filled
// by records that exist (id 1 of each kind; a message template by its kind and language), plus
// the day view of the world's busy day and the checkout page of its payment request. Each is
// checked to answer 200 first, so the loop audits pages, not error pages.
func browsedPages(t *testing.T, ts *testServer, owner *client, w payWorld) []string {
	t.Helper()
	fill := map[string]string{
		"/settings/messages/templates/1/1": "/settings/messages/templates/confirmation/en",
		"/settings/integrations":           "", // a redirect to API keys
		"/messages/unsubscribe/1":          "", // public, a token
		"/pay/1":                           "", // public, below by its uuid
		"/setup":                           "", // before the first owner
		"/login":                           "", // checked before signing in
	}
	var uuid string
	if err := w.d.Read.QueryRow(`SELECT uuid FROM payment_requests ORDER BY id DESC LIMIT 1`).Scan(&uuid); err != nil {
		t.Fatal(err)
	}
	pages := []string{w.dayPath(), "/pay/" + uuid}
	for _, route := range adminRoutes(t) {
		method, path, _ := strings.Cut(route, " ")
		if method != http.MethodGet {
			continue
		}
		if p, ok := fill[path]; ok {
			path = p
		}
		if path != "" {
			pages = append(pages, path)
		}
	}
	for _, p := range pages {
		if res := owner.get(t, p); res.Status != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200 (the world lacks its record?)", p, res.Status)
		}
	}
	return pages
}
