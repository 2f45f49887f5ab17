package admin_test

// Every admin page in a real browser: at 1280 px and at 390 px no page is wider than
// the screen (only the day grid scrolls, inside its own box), the day view's sticky header row
// and time column stay on their columns after scrolling, and axe-core finds no serious or
// critical violation. One server, one world, two browsers side by side, one loop over the pages.

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestBrowserEveryPage(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	owner := ts.setupOwner(t)
	pages := seededPages(t, ts, owner)
	dayPath := addProviders(t, ts, pages, 7)

	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	// The two screens run side by side, each in its own browser: axe-core's audit of every
	// page is most of this test's time, and it is Chromium's, not the server's.
	screens := []struct {
		name          string
		width, height int
		opts          []chromedp.EmulateViewportOption
	}{
		{"1280px", 1280, 900, nil},
		{"390px", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}},
	}
	for _, screen := range screens {
		t.Run(screen.name, func(t *testing.T) {
			t.Parallel()
			b := newBrowser(t, screen.width, screen.height, screen.opts...)
			// Public pages signed out (sign-in sends a signed-in owner away), then the owner's.
			for _, public := range []bool{true, false} {
				for _, p := range pages {
					if p.Public == public {
						visit(t, b, ts.URL+p.Path)
						checkPage(t, b, axe, p.Path)
					}
				}
				if public {
					visit(t, b, ts.URL+"/login")
					// The sign-in page has a heading too: wait until it has gone, or the next visit can
					// cut the sign-in short and the owner's pages are then checked as the sign-in page.
					b.do("signed-in", chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
						chromedp.Submit(testID("login-form")), chromedp.WaitNotPresent(testID("login-form")), chromedp.WaitVisible(css("main h1")))
				}
			}
			if screen.width >= 1280 {
				checkFocusRing(t, b, ts.URL)
				checkWideDay(t, b, ts.URL+dayPath)
			}
			// The day with ten providers: on either screen, after scrolling the grid's box, the
			// header row and the time column stick to the box's edges and stay over and beside
			// their own cells.
			visit(t, b, ts.URL+dayPath)
			if msg := evalJS[string](b, stickyCheck); msg != "" {
				b.screenshot("sticky-failed")
				t.Errorf("%s: day view after scrolling the grid: %s", screen.name, msg)
			}
		})
	}
}

// checkFocusRing tabs through the dashboard (dark top bar, navigation, buttons, links): every
// focused element has a solid ring of at least 2 px whose colour stands out 3:1 from what is
// behind it.
func checkFocusRing(t *testing.T, b *browser, base string) {
	t.Helper()
	visit(t, b, base+"/")
	for i := range 20 {
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		if msg := evalJS[string](b, focusRingCheck); msg != "" {
			b.screenshot("focus-ring-failed")
			t.Errorf("tab stop %d: %s", i+1, msg)
		}
	}
}

// checkWideDay: at 1280 px the day with ten providers fits every column in the grid's box (on
// a phone the box scrolls instead).
func checkWideDay(t *testing.T, b *browser, dayURL string) {
	t.Helper()
	visit(t, b, dayURL)
	if n := evalJS[int](b, `document.querySelectorAll("[data-testid=day-provider]").length`); n < 10 {
		t.Fatalf("the day shows %d providers, want 10", n)
	}
	if over := evalJS[int](b, `(() => { const w = document.querySelector(".day-wrap"); return w.scrollWidth - w.clientWidth })()`); over > 0 {
		t.Errorf("at 1280 px the day grid of 10 providers scrolls sideways by %d px", over)
	}
}

// addProviders gives the day view's location n more providers (long names, 09:00–17:00) and
// returns the day view's path from pages.
func addProviders(t *testing.T, ts *testServer, pages []adminPage, n int) string {
	t.Helper()
	var dayPath string
	for _, p := range pages {
		// The providers' day, not the same day by resource.
		if strings.HasPrefix(p.Path, "/bookings/day?") && !strings.Contains(p.Path, "by=") {
			dayPath = p.Path
		}
	}
	u, err := url.Parse(dayPath)
	if err != nil || dayPath == "" {
		t.Fatalf("no day view among the pages (%q, %v)", dayPath, err)
	}
	location := u.Query().Get("location")
	d := openBookingDB(t, ts)
	for i := range n {
		res, err := d.Write.Exec(`INSERT INTO providers (public_name, location_id, created_at, updated_at) VALUES (?, ?, 0, 0)`,
			fmt.Sprintf("Provider with a long name %d", i+1), location)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		if _, err := d.Write.Exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`, id, location); err != nil {
			t.Fatal(err)
		}
		for day := range 7 {
			if _, err := d.Write.Exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (?, ?, ?, 540, 1020)`, id, location, day); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dayPath
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

// focusRingCheck returns what is wrong with the focused element's ring, "" if nothing.
const focusRingCheck = `(() => {
	const el = document.activeElement;
	if (!el || el === document.body) return "";
	const name = el.tagName + (el.className ? "." + el.className : "") + " " + (el.textContent || "").trim().slice(0, 30);
	const cs = getComputedStyle(el);
	if (cs.outlineStyle === "none" || parseFloat(cs.outlineWidth) < 2) return name + ": no focus ring (" + cs.outlineStyle + " " + cs.outlineWidth + ")";
	const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
	const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4) }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b) };
	let bg = null;
	for (let n = el.parentElement; n; n = n.parentElement) {
		const c = rgb(getComputedStyle(n).backgroundColor);
		if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { bg = c.slice(0, 3); break; }
	}
	bg = bg || [255, 255, 255];
	const ring = rgb(cs.outlineColor).slice(0, 3);
	const a = lum(ring), b = lum(bg);
	const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
	return ratio < 3 ? name + ": ring " + cs.outlineColor + " on rgb(" + bg + ") is " + ratio.toFixed(2) + ":1" : "";
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
