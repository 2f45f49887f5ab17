package admin_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// Helpers shared by the webhook page tests.

const webhooksPath = "/settings/integrations/webhooks"

// receiver is a webhook endpoint for tests: it records every request and answers with the
// status set by setStatus (200 at first).
type receiver struct {
	*httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	got    []delivery
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.status.Store(http.StatusOK)
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		w.WriteHeader(int(rc.status.Load()))
		w.Write([]byte(`{"received":true,"note":"<b>not markup</b>"}`))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) setStatus(code int) { rc.status.Store(int32(code)) }

// received returns what has arrived so far.
func (rc *receiver) received() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

// ids returns the webhook-id of every request received, in order.
func (rc *receiver) ids() []string {
	var ids []string
	for _, d := range rc.received() {
		ids = append(ids, d.header.Get("webhook-id"))
	}
	return ids
}

// waitForID waits until a request with the given webhook-id arrived and returns it.
func (rc *receiver) waitForID(t *testing.T, id string) delivery {
	t.Helper()
	var found delivery
	waitFor(t, "a request with webhook-id "+id, func() bool {
		for _, d := range rc.received() {
			if d.header.Get("webhook-id") == id {
				found = d
				return true
			}
		}
		return false
	})
	return found
}

// verify checks a request's signature with secret the Standard Webhooks way.
func verify(t *testing.T, secret string, d delivery) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatalf("secret %q: %v", secret, err)
	}
	if err := wh.Verify(d.body, d.header); err != nil {
		t.Errorf("Standard Webhooks Verify with the shown secret: %v (signature %q)", err, d.header.Get("webhook-signature"))
	}
}

var secretPattern = regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`)

func webhookForm(target string, events ...string) url.Values {
	return url.Values{"url": {target}, "events": events, "description": {"Test receiver"}, "allow_private": {"1"}}
}

// createWebhook adds a webhook through the form and returns its id and the secret its page
// showed once.
func createWebhook(t *testing.T, c *client, form url.Values) (id, secret string) {
	t.Helper()
	res := c.post(t, webhooksPath, form)
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), webhooksPath+"/") {
		t.Fatalf("create: got %d to %q, want 303 to the webhook's page; body:\n%.2000s", res.Status, res.Header.Get("Location"), res.Body)
	}
	id = strings.TrimPrefix(res.Header.Get("Location"), webhooksPath+"/")
	page := c.get(t, webhooksPath+"/"+id)
	wantStatus(t, page, http.StatusOK)
	secret = between(page.Body, `data-testid="new-webhook-secret">`, "<")
	if !secretPattern.MatchString(secret) || len(secret) < len("whsec_")+40 {
		t.Fatalf("the page after creating shows secret %q, want whsec_ + base64 of 32 bytes", secret)
	}
	return id, secret
}

// lastTestEventID reads the event id the flash after "send test event" names.
func lastTestEventID(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`Test event (evt_[A-Za-z0-9]+)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no test event id in the page:\n%.3000s", body)
	}
	return m[1]
}

func TestWebhookCreateShowsSecretOnce(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, secret := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "*", "booking.created"))

	again := c.get(t, webhooksPath+"/"+id)
	wantStatus(t, again, http.StatusOK)
	if strings.Contains(again.Body, secret) || strings.Contains(again.Body, "new-webhook-secret") {
		t.Error("the secret is shown again after a reload")
	}
	list := c.get(t, webhooksPath)
	wantBody(t, list, rc.URL+"/hooks", `data-testid="webhook-state">active`, "booking.created", "Test receiver", "none yet")
	if n := strings.Count(list.Body, `data-testid="webhook-row"`); n != 1 {
		t.Errorf("got %d webhook rows, want 1", n)
	}
	for _, path := range []string{webhooksPath, webhooksPath + "/" + id, webhooksPath + "/" + id + "/edit", webhooksPath + "/" + id + "/rotate", webhooksPath + "/" + id + "/delete", "/"} {
		if body := c.get(t, path).Body; secretPattern.MatchString(body) {
			t.Errorf("%s shows a secret: %s", path, secretPattern.FindString(body))
		}
	}

	// A second owner session never sees it either.
	other := ts.newClient(t)
	other.login(t, ownerEmail, ownerPassword)
	if body := other.get(t, webhooksPath+"/"+id).Body; strings.Contains(body, secret) {
		t.Error("another session shows the secret")
	}
}

// webhook.test is in the event catalogue (docs/webhooks.md), so a receiver developer may
// subscribe to it — alone, to receive test events and nothing else while building a receiver.
// The form offers it (in both languages) and stores it; "Send test event" reaches the webhook.
func TestWebhookSubscribesToTheTestEvent(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	form := c.get(t, webhooksPath+"/new")
	wantBody(t, form, `value="webhook.test"`, "a test event, sent with")
	rc := newReceiver(t)
	id, secret := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "webhook.test"))
	wantBody(t, c.get(t, webhooksPath), "webhook.test")
	event := lastTestEventID(t, followTest(t, c, id))
	verify(t, secret, rc.waitForID(t, event))
}

func TestWebhookFormValidation(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	tests := []struct {
		name  string
		edit  func(url.Values)
		field string
	}{
		{"no URL", func(f url.Values) { f.Set("url", "") }, "url"},
		{"not http", func(f url.Values) { f.Set("url", "ftp://example.com/x") }, "url"},
		{"relative", func(f url.Values) { f.Set("url", "/hooks") }, "url"},
		{"credentials", func(f url.Values) { f.Set("url", "https://user:pw@example.com/x") }, "url"},
		{"loopback without opt-in", func(f url.Values) { f.Set("url", "http://127.0.0.1:9/x"); f.Del("allow_private") }, "url"},
		{"no events", func(f url.Values) { f.Del("events") }, "events"},
		{"unknown event", func(f url.Values) { f.Set("events", "booking.deleted") }, "events"},
		{"duplicate events", func(f url.Values) { f["events"] = []string{"*", "*"} }, "events"},
		{"description too long", func(f url.Values) { f.Set("description", strings.Repeat("d", 501)) }, "description"},
		{"description with control characters", func(f url.Values) { f.Set("description", "a\x00b") }, "description"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			form := webhookForm("https://example.com/<kept>", "client.*")
			form.Set("description", "Kept <b>input</b>")
			tc.edit(form)
			res := c.post(t, webhooksPath, form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `data-testid="form-error"`)
			if tc.field != "description" {
				wantBody(t, res, `value="Kept &lt;b&gt;input&lt;/b&gt;"`)
			}
			if tc.field != "url" {
				wantBody(t, res, `value="https://example.com/&lt;kept&gt;"`)
			}
			if tc.field != "events" {
				wantBody(t, res, `value="client.*" checked`)
			}
		})
	}
	if n := strings.Count(c.get(t, webhooksPath).Body, `data-testid="webhook-row"`); n != 0 {
		t.Errorf("got %d webhooks after refused forms, want 0", n)
	}
}

// Without --webhook-allow-private the form says private targets are refused and offers no
// opt-in; a loopback URL is refused even if the opt-in is forged into the request.
func TestWebhookPrivateTargetsRefusedByServer(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	form := c.get(t, webhooksPath+"/new")
	wantBody(t, form, "are refused; use a public address. This server runs without <code>--webhook-allow-private</code>")
	if strings.Contains(form.Body, `name="allow_private"`) {
		t.Error("the form offers the private-target opt-in on a server that refuses private targets")
	}
	res := c.post(t, webhooksPath, webhookForm("http://localhost:8080/hooks", "*"))
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-url">This server refuses targets on private networks`)
	wantRedirect(t, c.post(t, webhooksPath, webhookForm("https://hooks.example.com/in", "*")), webhooksPath+"/1")
}

func TestWebhookHTMLInert(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	evil := `<script>alert(1)</script>`
	form := webhookForm("https://example.com/?q=<script>alert(2)</script>", "*")
	form.Set("description", evil)
	id, _ := createWebhook(t, c, form)
	for _, path := range []string{webhooksPath, webhooksPath + "/" + id, webhooksPath + "/" + id + "/edit", webhooksPath + "/" + id + "/delete"} {
		t.Run(path, func(t *testing.T) {
			res := c.get(t, path)
			wantStatus(t, res, http.StatusOK)
			if strings.Contains(res.Body, "<script>alert(") {
				t.Error("the page contains a raw <script>")
			}
			wantBody(t, res, "&lt;script&gt;alert(")
		})
	}
	wantRedirect(t, c.post(t, webhooksPath+"/"+id+"/delete", nil), webhooksPath)
	list := c.get(t, webhooksPath)
	wantBody(t, list, `data-testid="flash">The webhook to https://example.com/?q=&lt;script&gt;alert(2)&lt;/script&gt; is deleted.`)
}

func TestWebhookEditAndDelete(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, _ := createWebhook(t, c, webhookForm(rc.URL+"/a", "*"))
	path := webhooksPath + "/" + id

	edit := c.get(t, path+"/edit")
	wantStatus(t, edit, http.StatusOK)
	wantBody(t, edit, `value="`+rc.URL+`/a"`, `value="*" checked`, `value="Test receiver"`)

	// An unchanged loopback URL keeps its opt-in; a changed one needs it again.
	form := url.Values{"url": {rc.URL + "/a"}, "events": {"booking.*", "service.updated"}, "description": {"Renamed"}}
	wantRedirect(t, c.post(t, path, form), path)
	page := c.get(t, path)
	wantBody(t, page, "Webhook saved", "booking.*", "service.updated", "Renamed")
	form.Set("url", rc.URL+"/b")
	res := c.post(t, path, form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-url"`, "Allow a private or loopback target")
	form.Set("allow_private", "1")
	wantRedirect(t, c.post(t, path, form), path)
	wantBody(t, c.get(t, path), rc.URL+"/b")
	form.Del("events")
	res = c.post(t, path, form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-events">Choose at least one event.`)

	confirm := c.get(t, path+"/delete")
	wantStatus(t, confirm, http.StatusOK)
	wantBody(t, confirm, `data-testid="delete-url">`+rc.URL+"/b<", `data-testid="confirm-delete"`)
	wantRedirect(t, c.post(t, path+"/delete", nil), webhooksPath)
	wantBody(t, c.get(t, webhooksPath), "No webhooks yet.")
	wantStatus(t, c.get(t, path), http.StatusNotFound)
	wantStatus(t, c.post(t, path+"/delete", nil), http.StatusNotFound)
}

// Bad ids are 404 pages, never 500s.
func TestWebhookBadIDs(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	a, _ := createWebhook(t, c, webhookForm(rc.URL+"/a", "*"))
	b, _ := createWebhook(t, c, webhookForm(rc.URL+"/b", "*"))
	event := lastTestEventID(t, followTest(t, c, a))
	rc.waitForID(t, event)
	delivery := deliveryID(t, c.get(t, webhooksPath+"/"+a).Body)

	tests := []struct {
		name, method, path string
	}{
		{"unknown webhook", http.MethodGet, webhooksPath + "/999"},
		{"not a number", http.MethodGet, webhooksPath + "/abc"},
		{"zero", http.MethodGet, webhooksPath + "/0"},
		{"huge", http.MethodGet, webhooksPath + "/99999999999999999999999"},
		{"edit unknown", http.MethodGet, webhooksPath + "/999/edit"},
		{"rotate unknown", http.MethodPost, webhooksPath + "/999/rotate"},
		{"test unknown", http.MethodPost, webhooksPath + "/999/test"},
		{"reactivate unknown", http.MethodPost, webhooksPath + "/999/reactivate"},
		{"recover unknown", http.MethodPost, webhooksPath + "/999/recover"},
		{"update unknown", http.MethodPost, webhooksPath + "/999"},
		{"unknown delivery", http.MethodGet, webhooksPath + "/" + a + "/deliveries/999"},
		{"delivery of another webhook", http.MethodGet, webhooksPath + "/" + b + "/deliveries/" + delivery},
		{"resend a delivery of another webhook", http.MethodPost, webhooksPath + "/" + b + "/deliveries/" + delivery + "/resend"},
		{"resend unknown", http.MethodPost, webhooksPath + "/" + a + "/deliveries/x/resend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res response
			if tc.method == http.MethodGet {
				res = c.get(t, tc.path)
			} else {
				res = c.post(t, tc.path, url.Values{"grace": {"24h"}, "from": {"2026-01-01T00:00"}, "to": {"2026-01-02T00:00"}})
			}
			wantStatus(t, res, http.StatusNotFound)
			wantBody(t, res, `data-testid="error-status">Not Found`)
		})
	}
	wantStatus(t, c.get(t, webhooksPath+"/"+a+"/deliveries/"+delivery), http.StatusOK)
}

// followTest clicks "send test event" on webhook id and returns the page it lands on.
func followTest(t *testing.T, c *client, id string) string {
	t.Helper()
	wantRedirect(t, c.post(t, webhooksPath+"/"+id+"/test", nil), webhooksPath+"/"+id)
	return c.get(t, webhooksPath+"/"+id).Body
}

// deliveryID is the id of the first delivery the log on a webhook's page lists.
func deliveryID(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`/deliveries/(\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no delivery in the log:\n%.3000s", body)
	}
	return m[1]
}

// waitForPage polls path until its body contains want, and returns that response.
func waitForPage(t *testing.T, c *client, path, want string) response {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := c.get(t, path)
		if strings.Contains(res.Body, want) {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed %q; last:\n%.4000s", path, want, res.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Hostile requests to the webhook pages get a clear 4xx and change nothing.
func TestWebhookHostileInput(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	id, _ := createWebhook(t, c, webhookForm("https://hooks.example.com/in", "*"))
	path := webhooksPath + "/" + id
	h := http.Header{"Origin": {ts.URL}, "Sec-Fetch-Site": {"same-origin"}, "Content-Type": {"application/x-www-form-urlencoded"}}
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		want   int
	}{
		{"oversized create", http.MethodPost, webhooksPath, "url=" + strings.Repeat("x", 2<<20), http.StatusRequestEntityTooLarge},
		{"broken encoding on update", http.MethodPost, path, "url=%zz", http.StatusBadRequest},
		{"broken encoding on reactivate", http.MethodPost, path + "/reactivate", "replay=%zz", http.StatusBadRequest},
		{"broken encoding on recover", http.MethodPost, path + "/recover", "from=%zz", http.StatusBadRequest},
		{"broken encoding on rotate", http.MethodPost, path + "/rotate", "grace=%zz", http.StatusBadRequest},
		{"URL of 3000 characters", http.MethodPost, path, "events=*&url=https://example.com/" + strings.Repeat("a", 3000), http.StatusUnprocessableEntity},
		{"unsupported method", http.MethodPut, path, "", http.StatusMethodNotAllowed},
		{"huge page number", http.MethodGet, path + "?page=99999999999999999999", "", http.StatusOK},
		{"search with control characters", http.MethodGet, path + "?q=%00evt_%1b", "", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header = h.Clone()
			wantStatus(t, c.do(t, req), tc.want)
		})
	}
	page := c.get(t, path)
	wantBody(t, page, "https://hooks.example.com/in", "current, made", "0 succeeded · 0 failed · 0 pending · 0 missed")
	if n := strings.Count(page.Body, "current, made"); n != 1 {
		t.Errorf("got %d secrets after refused requests, want 1", n)
	}
}

// The list says how long failed deliveries are retried, computed from the configured schedule
// (here --webhook-retry-schedule 0s,5s,1h: three attempts over 1 h 0 min 5 s → "1 h").
func TestWebhookRetryWindowFromSchedule(t *testing.T) {
	for _, tc := range []struct {
		schedule, want string
	}{
		{"default", "tried 10 times in all, over 3 days 3 h 35 min"},
		{"0s,5s,1h", "tried 3 times in all, over 1 h"},
		{"0s", "A failed delivery is not retried"},
	} {
		t.Run(tc.schedule, func(t *testing.T) {
			var env []string
			if tc.schedule != "default" {
				env = append(env, "FRONTDESK_WEBHOOK_RETRY_SCHEDULE="+tc.schedule)
			}
			ts := startServer(t, env...)
			c := ts.setupOwner(t)
			wantBody(t, c.get(t, webhooksPath), tc.want)
		})
	}
}
