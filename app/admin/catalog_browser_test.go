package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/webhook"
)

// delivery is one request a test receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// TestBrowserEditServiceSendsWebhook: the owner edits a service in a real browser, and a
// webhook receiver registered for service.* gets service.updated, signed so that the Standard
// Webhooks library verifies it, with the edited fields in its data.
func TestBrowserEditServiceSendsWebhook(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,1s,1s", "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business")
	hair := addCategory(t, c, "Hair")
	wantRedirect(t, c.post(t, "/catalog/services", serviceForm("Haircut")), "/catalog/services")
	service := linkID(t, c.get(t, "/catalog/services").Body, "/catalog/services/", "Haircut")

	got := make(chan delivery, 10)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- delivery{header: r.Header.Clone(), body: body}
	}))
	t.Cleanup(receiver.Close)
	m := webhook.NewManager(openDB(t, ts), webhook.ManagerOptions{})
	_, secret, err := m.Create(context.Background(), webhook.CreateInput{URL: receiver.URL + "/hooks", Events: []string{"service.*"}, AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, 1280, 900)
	b.do("login", chromedp.Navigate(ts.URL+"/catalog/services"), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail),
		chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")),
		chromedp.WaitVisible(testID("services")),
	)
	b.do("edit-form", chromedp.Click(css(`a[href="/catalog/services/`+service+`"]`)), chromedp.WaitVisible(testID("service-form")))
	if got := evalJS[string](b, `document.querySelector("#f-keywords").value`); got != "hair, cut" {
		t.Errorf("the form shows keywords %q, want the stored ones", got)
	}
	b.do("edited",
		chromedp.SetValue(css("#f-name"), "Haircut & wash"),
		chromedp.SetValue(css("#f-keywords"), "hair, wash, HAIR"),
		chromedp.SetValue(css("#f-category_id"), hair),
		chromedp.SetValue(css("#f-price"), "17500"),
	)
	b.do("saved", chromedp.Submit(testID("service-form")), chromedp.WaitVisible(testID("flash")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "service.updated") {
		t.Errorf("after saving got flash %q, want it to say service.updated was sent", got)
	}
	if got := b.text("[data-testid=service-name]"); got != "Haircut & wash" {
		t.Errorf("the list shows %q, want the new name", got)
	}

	var d delivery
	select {
	case d = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the receiver got nothing within 20 s of the edit")
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(d.body, d.header); err != nil {
		t.Errorf("Standard Webhooks Verify: %v", err)
	}
	var e struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(d.body, &e); err != nil {
		t.Fatalf("body %s: %v", d.body, err)
	}
	if e.Type != "service.updated" || e.Data["name"] != "Haircut & wash" || e.Data["price"] != "17500.0" ||
		!jsonEqual(e.Data["keywords"], []string{"hair", "wash"}) || !jsonEqual(e.Data["category"], map[string]any{"id": jsonNumber(hair), "name": "Hair"}) {
		t.Errorf("got %s, want service.updated with the edited name, price, keywords and category", d.body)
	}
	for _, computed := range []string{"type", "online_payment", "images", "providers"} {
		if _, ok := e.Data[computed]; ok {
			t.Errorf("the payload carries the computed field %q", computed)
		}
	}
	if id := d.header.Get("webhook-id"); !strings.HasPrefix(id, "evt_") {
		t.Errorf("got webhook-id %q, want evt_…", id)
	}

	// Saving again without a change sends nothing more.
	b.do("saved-unchanged", chromedp.Click(css(`a[href="/catalog/services/`+service+`"]`)), chromedp.WaitVisible(testID("service-form")),
		chromedp.Submit(testID("service-form")), chromedp.WaitVisible(testID("flash")))
	if got := b.text("[data-testid=flash]"); !strings.Contains(got, "Nothing changed") {
		t.Errorf("after saving unchanged got flash %q, want Nothing changed", got)
	}
	if n := len(serviceEvents(t, openDB(t, ts))); n != 1 {
		t.Errorf("got %d service.updated events, want 1", n)
	}
	select {
	case extra := <-got:
		t.Errorf("the receiver got a second request after an unchanged save: %s", extra.body)
	default:
	}
}
