package admin_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// On a phone whose own locale keeps a 12-hour clock, an owner of a 24-hour business types
// "14:30" as the business writes it into the explainer's start time, and is answered about
// 14:30: the field is the business's, not the browser's, and shows the form it expects.
func TestBrowserTimeFieldFollowsTheBusinessNotTheBrowser(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	if _, err := chromedp.Call(b.ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "en-US"}); err != nil {
		t.Fatal(err)
	}
	explain := "/bookings/explain?" + url.Values{"location": {w.Location}, "service": {w.Service}, "date": {w.Day}}.Encode()
	b.do("login", chromedp.Navigate(ts.URL+explain), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("explain-form")))
	if !evalJS[bool](b, `new Intl.DateTimeFormat(undefined, {hour: "numeric"}).resolvedOptions().hour12 === true`) {
		t.Fatal("the browser's locale does not keep a 12-hour clock; the test proves nothing")
	}
	// Only a text field draws exactly what it holds; a time field draws its value on the
	// browser's clock ("02:30 PM" for 14:30 here), which no page can change.
	if typ := evalJS[string](b, `document.querySelector("#f-time").type`); typ != "text" {
		t.Errorf("the start time is an <input type=%s>, drawn on the browser's 12-hour clock", typ)
	}
	if hint := b.text("#f-time-hint"); !strings.Contains(hint, "Like 14:30.") {
		t.Errorf("the time field's hint is %q, want the business's form (Like 14:30.)", hint)
	}
	b.do("ask", chromedp.SetValue(css("#f-provider"), w.Ana), chromedp.SendKeys(css("#f-time"), "14:30"),
		chromedp.Submit(testID("explain-form")), chromedp.WaitVisible(testID("explain-result")))
	if got := evalJS[string](b, `document.querySelector("#f-time").value`); got != "14:30" {
		t.Errorf("after typing 14:30 the field holds %q", got)
	}
	if got := evalJS[string](b, `new URL(location.href).searchParams.get("time")`); got != "14:30" {
		t.Errorf("the question asked was about %q, want 14:30", got)
	}
	if got := b.text("[data-testid=explain-result]"); !strings.Contains(got, "Book this time") {
		t.Errorf("Ana at 14:30 is not offered: %q", got)
	}
}
