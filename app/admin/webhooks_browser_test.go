package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserWebhookLifecycle is issue 5's acceptance flow in a real browser: setup with the
// logged token → sign in → an API key (shown once) → a webhook to a local receiver (its
// secret shown once and never again, on any page) → a test event the receiver verifies with
// that secret → the receiver fails until the endpoint is deactivated → the page says so and
// why → events meanwhile are missed → the receiver recovers → "Reactivate and replay" → the
// receiver gets exactly the missed events. A screenshot per step lands in the test's temp dir.
func TestBrowserWebhookLifecycle(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,100ms,100ms", "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	setupURL := ts.setupURL(t)
	rc := newReceiver(t)
	b := newBrowser(t, 1280, 900)

	b.do("setup", chromedp.Navigate(setupURL), chromedp.WaitVisible(testID("setup-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword),
		chromedp.Submit(testID("setup-form")),
		chromedp.WaitVisible(testID("webhook-health")),
	)
	b.do("signed-out", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	b.do("login", chromedp.Navigate(ts.URL+"/settings/business"), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")),
		chromedp.WaitVisible(testID("business-form")),
	)
	// /v3 needs the business to exist.
	b.do("business",
		chromedp.SetValue(css("#f-name"), "Studio Uno"),
		chromedp.SetValue(css("#f-currency"), "EUR"),
		chromedp.Submit(testID("business-form")),
		chromedp.WaitVisible(testID("flash")),
	)

	b.do("api-key", chromedp.Navigate(ts.URL+"/settings/integrations/api-keys"), chromedp.WaitVisible(testID("api-key-form")),
		chromedp.SendKeys(css("#f-name"), "Event generator"),
		chromedp.Click(css("#f-access-0")),
		chromedp.Submit(testID("api-key-form")),
		chromedp.WaitVisible(testID("new-api-key")),
	)
	key := b.text("[data-testid=new-api-key]")
	if !strings.HasPrefix(key, "apk_live_") {
		t.Fatalf("shown key %q, want apk_live_…", key)
	}
	b.do("api-key-reloaded", chromedp.Reload(), chromedp.WaitVisible(testID("api-keys")))
	if html := evalJS[string](b, "document.documentElement.outerHTML"); strings.Contains(html, key) {
		t.Error("the API key is still in the page after a reload")
	}

	// Create the webhook through the form.
	b.do("webhooks-empty", chromedp.Click(css(`nav.tabs a[href="/settings/integrations/webhooks"]`)), chromedp.WaitVisible(testID("new-webhook")))
	b.do("webhook-form", chromedp.Click(testID("new-webhook")), chromedp.WaitVisible(testID("webhook-form")))
	if got := b.text("[data-testid=private-notice]"); !strings.Contains(got, "--webhook-allow-private") {
		t.Errorf("the form's private-target notice reads %q, want it to name --webhook-allow-private", got)
	}
	b.do("webhook-filled",
		chromedp.SendKeys(css("#f-url"), rc.URL+"/hooks"),
		chromedp.Click(css(`input[name=events][value="client.*"]`)),
		chromedp.SendKeys(css("#f-description"), "CRM sync <b>"),
		chromedp.Click(css("#f-allow_private")),
	)
	b.do("webhook-created", chromedp.Submit(testID("webhook-form")), chromedp.WaitVisible(testID("new-webhook-secret")))
	secret := b.text("[data-testid=new-webhook-secret]")
	if !secretPattern.MatchString(secret) || len(secret) < 46 {
		t.Fatalf("shown secret %q, want whsec_ + base64 of 32 bytes", secret)
	}
	if got := b.text("[data-testid=new-webhook-secret-box]"); !strings.Contains(got, "you will not see this secret again") {
		t.Errorf("the secret box reads %q, want a clear warning", got)
	}
	if !b.present(`button[data-copy="#new-webhook-secret"]:not([hidden])`) {
		t.Error("no visible copy button next to the new secret")
	}
	webhookPath := evalJS[string](b, "location.pathname")
	if !regexp.MustCompile(`^/settings/integrations/webhooks/\d+$`).MatchString(webhookPath) {
		t.Fatalf("after creating, the browser is at %q, want the webhook's page", webhookPath)
	}
	b.do("webhook-reloaded", chromedp.Reload(), chromedp.WaitVisible(testID("webhook-summary")))
	if html := evalJS[string](b, "document.documentElement.outerHTML"); strings.Contains(html, secret) || b.present("[data-testid=new-webhook-secret]") {
		t.Error("the secret is still shown after a reload")
	}

	// Send a test event; the receiver verifies it with the secret.
	b.do("test-sent", chromedp.Click(testID("send-test")), chromedp.WaitVisible(testID("flash")))
	testEvent := regexp.MustCompile(`evt_[A-Za-z0-9]+`).FindString(b.text("[data-testid=flash]"))
	if testEvent == "" {
		t.Fatalf("the flash after sending a test event names no event id: %q", b.text("[data-testid=flash]"))
	}
	verify(t, secret, rc.waitForID(t, testEvent))
	b.reloadUntil("test-delivered", ts.URL+webhookPath, `document.querySelector("[data-testid=delivery-state]")?.textContent === "succeeded"`)

	// The receiver breaks; one client.created exhausts the schedule and deactivates it.
	rc.setStatus(http.StatusInternalServerError)
	createClientV3(t, ts, key, 1)
	b.reloadUntil("deactivated", ts.URL+webhookPath, `document.querySelector("[data-testid=deactivated-box]") !== null`)
	if got := b.text("[data-testid=webhook-state]"); got != "deactivated" {
		t.Errorf("state badge %q, want deactivated", got)
	}
	if got := b.text("[data-testid=deactivated-reason]"); !strings.Contains(got, "failed 3 times") {
		t.Errorf("deactivation reason %q, want it to say the delivery failed 3 times", got)
	}
	if got := evalJS[string](b, `document.querySelector("[data-testid=outcome-chart]").getAttribute("aria-label")`); got != "Last 4 attempts: 1 succeeded, 3 failed." {
		t.Errorf("chart label %q, want 1 success and 3 failures", got)
	}
	failedAttempts := len(rc.received())

	// Events while deactivated are missed, not sent.
	for i := 2; i <= 4; i++ {
		createClientV3(t, ts, key, i)
	}
	b.reloadUntil("missed", ts.URL+webhookPath, `document.querySelector("[data-testid=reactivate-replay]")?.textContent === "Reactivate and replay 3 missed events"`)
	b.do("missed-log", chromedp.Navigate(ts.URL+webhookPath+"?state=missed"), chromedp.WaitVisible(testID("deliveries")))
	missed := evalJS[[]string](b, `Array.from(document.querySelectorAll("[data-testid=delivery-event]"), a => a.textContent.trim())`)
	if len(missed) != 3 {
		t.Fatalf("the log filtered by missed lists %v, want 3 events", missed)
	}
	if n := len(rc.received()); n != failedAttempts {
		t.Errorf("the receiver got %d requests while deactivated, want none", n-failedAttempts)
	}

	// The receiver is fixed; reactivate and replay.
	rc.setStatus(http.StatusOK)
	b.do("replayed", chromedp.Click(testID("reactivate-replay")), chromedp.WaitVisible(testID("flash")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Reactivated. The 3 events it missed are being sent again, oldest first.") {
		t.Errorf("after reactivating got flash %q", got)
	}
	for _, id := range missed {
		verify(t, secret, rc.waitForID(t, id))
	}
	b.reloadUntil("active-again", ts.URL+webhookPath, `document.querySelector("[data-testid=delivery-counts]").textContent.startsWith("4 succeeded · 1 failed · 0 pending · 0 missed")`)
	if got := b.text("[data-testid=webhook-state]"); got != "active" {
		t.Errorf("state badge %q after reactivating, want active", got)
	}
	replayed := slices.DeleteFunc(rc.ids()[failedAttempts:], func(id string) bool { return !slices.Contains(missed, id) })
	if len(replayed) != 3 {
		t.Errorf("after the replay the receiver got %v, want the 3 missed events once each", rc.ids()[failedAttempts:])
	}

	// The attempt detail of the failed delivery shows what was sent and what came back.
	b.do("failed-log", chromedp.Navigate(ts.URL+webhookPath+"?state=failed"), chromedp.WaitVisible(testID("delivery-event")))
	b.do("failed-delivery", chromedp.Click(testID("delivery-event")), chromedp.WaitVisible(testID("attempt")))
	if n := evalJS[int](b, `document.querySelectorAll("[data-testid=attempt]").length`); n != 3 {
		t.Errorf("the failed delivery shows %d attempts, want 3", n)
	}
	if got := b.text("[data-testid=attempt-category]"); got != "http_status" {
		t.Errorf("attempt error category %q, want http_status", got)
	}
	if got := b.text("[data-testid=attempt-request]"); !strings.Contains(got, "Webhook-Signature: v1,") {
		t.Errorf("the request sent reads %q, want its headers", got)
	}

	// The secret is on no page and in no response now.
	c := ts.newClient(t)
	c.login(t, ownerEmail, ownerPassword)
	pages := []string{webhookPath + "?state=failed", webhookPath + "?state=missed"}
	for _, route := range adminRoutes(t) {
		method, path, _ := strings.Cut(route, " ")
		if method == http.MethodGet && !publicRoutes[route] {
			pages = append(pages, path)
		}
	}
	for d := 1; d <= 5; d++ {
		pages = append(pages, fmt.Sprintf("%s/deliveries/%d", webhookPath, d))
	}
	for _, path := range pages {
		res := c.get(t, path)
		for _, leak := range []string{secret, strings.TrimPrefix(secret, "whsec_"), url.QueryEscape(secret)} {
			if strings.Contains(res.Body, leak) || strings.Contains(fmt.Sprint(res.Header), leak) {
				t.Errorf("GET %s (%d) contains the secret", path, res.Status)
			}
		}
	}
}

// reloadUntil opens url again and again until the JavaScript condition holds on it (20 s at
// most), then screenshots the page as step name.
func (b *browser) reloadUntil(name, url, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(css("main h1")))
		cancel()
		if err == nil && evalJS[bool](b, "(() => { try { return Boolean("+cond+") } catch (e) { return false } })()") {
			break
		}
		if time.Now().After(deadline) {
			b.screenshot(name + "-timeout")
			b.t.Fatalf("step %q: %s did not come true within 20 s (last error: %v)", name, cond, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.record(name)
	b.checkConsole(name)
}

// TestWebhookPagesOnPhone opens the webhook pages, filled with long unbroken text, on a
// 390-px phone: none may be wider than the screen (the route walk in mobile_test.go sees
// them empty).
func TestWebhookPagesOnPhone(t *testing.T) {
	const width = 390
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	form := webhookForm(rc.URL+"/a-rather-long-path-without-any-breaks/"+strings.Repeat("segment", 12)+"?token="+strings.Repeat("x", 60), "*", "booking.*", "client.*", "payment_request.*", "service.*")
	form.Set("description", strings.Repeat("NoSpacesHere", 30))
	id, _ := createWebhook(t, c, form)
	path := webhooksPath + "/" + id
	event := lastTestEventID(t, followTest(t, c, id))
	rc.waitForID(t, event)
	delivery := deliveryID(t, waitForPage(t, c, path, `data-testid="delivery-state">succeeded`).Body)

	b := newBrowser(t, width, 844, chromedp.EmulateMobile)
	b.do("login", chromedp.Navigate(ts.URL+webhooksPath), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")),
		chromedp.WaitVisible(testID("webhooks")),
	)
	for _, p := range []string{webhooksPath, webhooksPath + "/new", path, path + "/edit", path + "/rotate", path + "/delete", path + "/deliveries/" + delivery} {
		b.do(strings.Trim(strings.ReplaceAll(strings.TrimPrefix(p, webhooksPath), "/", "-"), "-")+"-phone", chromedp.Navigate(ts.URL+p), chromedp.WaitVisible(css("main h1")))
		if w := evalJS[int](b, "document.documentElement.scrollWidth"); w > width {
			t.Errorf("%s: page is %d px wide on a %d px screen", p, w, width)
		}
	}
}
