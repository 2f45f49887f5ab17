package admin_test

// The booking site inside the owner's website (docs/booking-site.md, "Code for your website"):
// the frame follows its content both ways and each new step is brought into view.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserEmbedFitsEachStep embeds the site with the settings page's snippet in a page of
// another origin, on a 390 px phone, with a block above the frame and a long footer below it.
// The first step (a long list of services) makes the frame tall without moving the page; going
// on to a short step (the providers) from the bottom of that list makes the frame shrink to
// within a few pixels of its content — no blank frame below, no scrolling inside — and
// scrolls the page so the new step's heading is in sight.
func TestBrowserEmbedFitsEachStep(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	for i := range 24 {
		res, err := d.Write.Exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at)
			VALUES (?, ?, 30, 2000, 0, 0)`, fmt.Sprintf("extra-%d", i), fmt.Sprintf("Treatment %02d", i))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		if _, err := d.Write.Exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?), (?, ?)`, id, w.anaID, id, w.brunoID); err != nil {
			t.Fatal(err)
		}
	}
	host := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		snippet := unescapeHTML(between(owner.get(t, "/settings/booking-site").Body, `data-testid="embed-snippet">`, "</textarea>"))
		fmt.Fprintf(rw, `<!DOCTYPE html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Salon</title></head>
<body style="margin:0"><div style="height:300px">Our salon</div>%s<div style="height:3000px">Footer</div></body></html>`, snippet)
	}))
	t.Cleanup(host.Close)
	wantRedirect(t, owner.post(t, "/settings/booking-site", url.Values{
		"enabled": {"1"}, "locations": {w.Location}, "accent": {"#2a7d4f"}, "frame_origins": {host.URL},
	}), "/settings/booking-site")

	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	const frame = `document.querySelector("iframe[data-frontdesk]")`
	b.do("embedded", chromedp.Navigate(host.URL), chromedp.Poll[chromedp.Void](frame+` && `+frame+`.style.height.endsWith("px")`))
	inFrame := func(expr string) chromedp.Action[float64] {
		return func(ctx context.Context, tg *chromedp.Target) (float64, error) {
			nodes, err := chromedp.Nodes(css("iframe[data-frontdesk]"))(ctx, tg)
			if err != nil {
				return 0, err
			}
			return chromedp.Poll[float64](expr, chromedp.WithPollingInFrame(nodes[0]))(ctx, tg)
		}
	}
	frameEval := func(what, expr string) float64 {
		t.Helper()
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		defer cancel()
		v, err := chromedp.Run(ctx, inFrame(expr))
		if err != nil {
			b.screenshot(what + "-failed")
			t.Fatalf("%s: in the frame, %s: %v", what, expr, err)
		}
		return v
	}
	// The expressions below end in "+ 1" so that a 0 is still the truthy answer Poll waits for.
	services := frameEval("services", `document.querySelectorAll("[data-testid=service]").length`)
	if services < 25 {
		t.Fatalf("the frame shows %v services, want the long list", services)
	}
	if y := evalJS[float64](b, "window.scrollY"); y != 0 {
		t.Errorf("opening the page scrolled it to %v: the first step must leave the page where it is", y)
	}
	long := evalJS[float64](b, frame+`.getBoundingClientRect().height`)
	if content := frameEval("long content", `document.querySelector("main").getBoundingClientRect().bottom`); long < content-1 || long > content+4 {
		t.Errorf("the frame is %v px high for %v px of content", long, content)
	}

	// The visitor scrolls down the page to the last service and chooses it.
	last := frameEval("last service", `(() => { const a = [...document.querySelectorAll("[data-testid=service]")].pop(); return a.getBoundingClientRect().top + scrollY + 1 })()`) - 1
	evalJS[bool](b, fmt.Sprintf(`(() => { window.scrollTo(0, %s.getBoundingClientRect().top + scrollY + %v - 400); return true })()`, frame, last))
	if y := evalJS[float64](b, "window.scrollY"); y < 1000 {
		t.Fatalf("the page is scrolled to %v only: the test needs the frame's top far out of sight", y)
	}
	frameEval("choose", `(() => { [...document.querySelectorAll("[data-testid=service]")].pop().click(); return 1 })()`)
	// The short step is loaded when its frame has shrunk; a frame that never shrinks fails here.
	shrunk := chromedp.Poll[chromedp.Void](fmt.Sprintf(`parseFloat(%s.style.height) < %v`, frame, long), chromedp.WithPollingTimeout(10*time.Second))
	if err := chromedp.Do(b.ctx, shrunk); err != nil {
		b.screenshot("not-shrunk")
		content := frameEval("short content", `document.querySelector("main").getBoundingClientRect().bottom`)
		t.Fatalf("after the short step (%v px of content) the frame is still %v px high: %v", content, long, err)
	}
	b.record("providers")
	frameEval("providers", `document.querySelectorAll("[data-testid=site-providers]").length`)

	height := evalJS[float64](b, frame+`.getBoundingClientRect().height`)
	content := frameEval("short content", `document.querySelector("main").getBoundingClientRect().bottom`)
	if height < content-1 || height > content+4 {
		t.Errorf("after a short step the frame is %v px high for %v px of content (the long step was %v px)", height, content, long)
	}
	if inner := frameEval("inner scroll", `document.documentElement.scrollHeight - innerHeight + 1`) - 1; inner > 1 {
		t.Errorf("the frame scrolls by %v px inside", inner)
	}
	top := evalJS[float64](b, frame+`.getBoundingClientRect().top`)
	heading := top + frameEval("heading", `document.getElementById("page-title").getBoundingClientRect().top + 1`) - 1
	if viewport := evalJS[float64](b, "innerHeight"); heading < 0 || heading > viewport-48 {
		t.Errorf("the new step's heading is at %v px of a %v px high window: out of sight", heading, viewport)
	}
}
