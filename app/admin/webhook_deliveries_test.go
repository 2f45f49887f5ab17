package admin_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestWebhookDeliveryLogAndResend(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, secret := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "booking.*"))
	path := webhooksPath + "/" + id

	event := lastTestEventID(t, followTest(t, c, id))
	verify(t, secret, rc.waitForID(t, event))
	// The counts are read before the log on this page, so once they show the success the log
	// (read after them) does too.
	page := waitForPage(t, c, path, "1 succeeded · 0 failed · 0 pending · 0 missed")
	wantBody(t, page, event, "webhook.test", `data-testid="delivery-state">succeeded`, `data-ok="1" data-failed="0"`)
	delivery := deliveryID(t, page.Body)

	filters := []struct {
		name  string
		query string
		rows  int
	}{
		{"all", "", 1},
		{"succeeded", "state=succeeded", 1},
		{"failed", "state=failed", 0},
		{"missed", "state=missed", 0},
		{"unknown state is ignored", "state=bogus", 1},
		{"test events", "type=webhook.test", 1},
		{"another type", "type=booking.created", 0},
		{"unknown type is ignored", "type=%3Cscript%3E", 1},
		{"event id", "q=" + event, 1},
		{"event id with spaces", "q=+" + event + "+", 1},
		{"event id and a filter that excludes it", "q=" + event + "&state=failed", 0},
		{"unknown event id", "q=evt_nothing", 0},
		{"page past the end", "page=9", 0},
		{"page not a number", "page=x", 1},
	}
	for _, tc := range filters {
		t.Run("filter "+tc.name, func(t *testing.T) {
			res := c.get(t, path+"?"+tc.query)
			wantStatus(t, res, http.StatusOK)
			if got := strings.Count(res.Body, `data-testid="delivery-row"`); got != tc.rows {
				t.Errorf("got %d rows, want %d", got, tc.rows)
			}
		})
	}

	d := c.get(t, path+"/deliveries/"+delivery)
	wantStatus(t, d, http.StatusOK)
	wantBody(t, d,
		`data-testid="delivery-event-id">`+event+"<",
		"POST "+rc.URL+"/hooks\n",
		"Webhook-Id: "+event+"\n", "Webhook-Signature: v1,", "Content-Type: application/json",
		`data-testid="attempt-status">HTTP 200`,
		`&#34;type&#34;:&#34;webhook.test&#34;`,
		`&lt;b&gt;not markup&lt;/b&gt;`,
	)
	if strings.Contains(d.Body, secret) {
		t.Error("the delivery page shows the secret")
	}

	wantRedirect(t, c.post(t, path+"/deliveries/"+delivery+"/resend", nil), path+"/deliveries/"+delivery)
	wantBody(t, c.get(t, path+"/deliveries/"+delivery), "is being sent again")
	waitFor(t, "the resent event", func() bool { return strings.Count(strings.Join(rc.ids(), " "), event) == 2 })
	for _, got := range rc.received() {
		verify(t, secret, got)
	}
	waitForPage(t, c, path+"/deliveries/"+delivery, `id="attempt-2"`)

	// Paging: 26 more test events make a second page.
	for range 26 {
		wantRedirect(t, c.post(t, path+"/test", nil), path)
	}
	waitFor(t, "27 test events", func() bool { return len(rc.received()) >= 28 })
	first := c.get(t, path)
	wantBody(t, first, "Page 1 of 2 · 27 events", `data-testid="next-page"`)
	if got := strings.Count(first.Body, `data-testid="delivery-row"`); got != 25 {
		t.Errorf("page 1 has %d rows, want 25", got)
	}
	second := c.get(t, path+"?page=2")
	if got := strings.Count(second.Body, `data-testid="delivery-row"`); got != 2 {
		t.Errorf("page 2 has %d rows, want 2", got)
	}
	wantBody(t, second, `data-testid="prev-page"`, event)
}

func TestWebhookRotateSecret(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, old := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "*"))
	path := webhooksPath + "/" + id

	confirm := c.get(t, path+"/rotate")
	wantStatus(t, confirm, http.StatusOK)
	wantBody(t, confirm, `data-testid="confirm-rotate"`, `<option value="24h" selected>`)
	for _, grace := range []string{"", "5m", "-1h", "9999h", "1h<script>"} {
		res := c.post(t, path+"/rotate", url.Values{"grace": {grace}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-grace"`)
	}

	wantRedirect(t, c.post(t, path+"/rotate", url.Values{"grace": {"24h"}}), path)
	page := c.get(t, path)
	fresh := between(page.Body, `data-testid="new-webhook-secret">`, "<")
	if !secretPattern.MatchString(fresh) || fresh == old {
		t.Fatalf("after rotating the page shows %q, want a new whsec_ secret", fresh)
	}
	wantBody(t, page, "The previous secret keeps signing alongside this one, so the receiver can switch over without losing an event, until", "previous, keeps signing until")
	if body := c.get(t, path).Body; strings.Contains(body, fresh) || strings.Contains(body, old) {
		t.Error("a secret is shown again after a reload")
	}

	// During the grace period every request carries both signatures; either secret verifies.
	event := lastTestEventID(t, followTest(t, c, id))
	got := rc.waitForID(t, event)
	if n := len(strings.Fields(got.header.Get("webhook-signature"))); n != 2 {
		t.Errorf("got %d signatures (%q), want 2 during the grace period", n, got.header.Get("webhook-signature"))
	}
	verify(t, old, got)
	verify(t, fresh, got)

	// Rotating with "stop at once" leaves only the newest secret signing.
	wantRedirect(t, c.post(t, path+"/rotate", url.Values{"grace": {"0s"}}), path)
	page = c.get(t, path)
	newest := between(page.Body, `data-testid="new-webhook-secret">`, "<")
	wantBody(t, page, "The previous secret no longer signs.")
	event = lastTestEventID(t, followTest(t, c, id))
	got = rc.waitForID(t, event)
	if n := len(strings.Fields(got.header.Get("webhook-signature"))); n != 1 {
		t.Errorf("got %d signatures, want 1 after rotating without grace", n)
	}
	verify(t, newest, got)
}

// A failing endpoint shows its countdown; once deactivated, the page shows why, refuses
// what would queue deliveries, and reactivation (with or without replay) resumes it. Recover
// queues the failed deliveries of a time range again; its form refuses bad ranges.
func TestWebhookCountdownDeactivateRecover(t *testing.T) {
	t.Run("countdown", func(t *testing.T) {
		ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true", "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,1h")
		c := ts.setupOwner(t)
		rc := newReceiver(t)
		rc.setStatus(http.StatusInternalServerError)
		id, _ := createWebhook(t, c, webhookForm(rc.URL, "*"))
		followTest(t, c, id)
		list := waitForPage(t, c, webhooksPath, `data-testid="webhook-countdown"`)
		wantBody(t, list, "will be deactivated in ~1 h if nothing changes", `data-testid="delivery-state">retrying`, "HTTP 500", `data-ok="0" data-failed="1"`)
	})

	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true", "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,100ms,100ms")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	rc.setStatus(http.StatusInternalServerError)
	id, secret := createWebhook(t, c, webhookForm(rc.URL, "*"))
	path := webhooksPath + "/" + id
	failed := lastTestEventID(t, followTest(t, c, id))
	page := waitForPage(t, c, path, `data-testid="deactivated-box"`)
	wantBody(t, page, `data-testid="webhook-state">deactivated`, `data-testid="deactivated-reason">delivery of `+failed, `data-testid="reactivate"`)
	if strings.Contains(page.Body, `data-testid="send-test"`) || strings.Contains(page.Body, `data-testid="recover-form"`) {
		t.Error("a deactivated webhook offers test events or recovery")
	}
	if n := len(rc.ids()); n != 3 {
		t.Errorf("the receiver got %d attempts, want 3 (the whole schedule)", n)
	}

	// What would queue deliveries is refused with a message, not an error page.
	wantRedirect(t, c.post(t, path+"/test", nil), path)
	wantBody(t, c.get(t, path), `flash-error`, "is deactivated")
	wantRedirect(t, c.post(t, path+"/recover", recoverRange("2026-01-01", "00:00", "2027-01-01", "00:00")), path)
	wantBody(t, c.get(t, path), `flash-error`, "reactivate it first")

	// Reactivate without replay: the failed delivery stays failed.
	rc.setStatus(http.StatusOK)
	wantRedirect(t, c.post(t, path+"/reactivate", nil), path)
	page = c.get(t, path)
	wantBody(t, page, "Reactivated. New events are delivered again.", `data-testid="webhook-state">active`, "0 succeeded · 1 failed")

	// The recover form: bad ranges are field errors with the input kept.
	ranges := []struct {
		name, fromTime, to, field string
	}{
		{"empty", "", "", "from_time"},
		{"not a time", "yesterday", "2026-01-01", "from_time"},
		{"not a date", "10:00", "2026-13-01", "to_date"},
		{"end before start", "10:00", "2026-01-01", "to_time"},
		{"empty range", "00:00", "2026-02-01", "to_time"},
		{"markup", "<b>x</b>", "2026-01-01", "from_time"},
	}
	for _, tc := range ranges {
		t.Run("recover "+tc.name, func(t *testing.T) {
			res := c.post(t, path+"/recover", recoverRange("2026-02-01", tc.fromTime, tc.to, "00:00"))
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, `data-testid="error-`+tc.field+`"`, `value="`+strings.ReplaceAll(strings.ReplaceAll(tc.fromTime, "<", "&lt;"), ">", "&gt;")+`"`)
		})
	}
	at := func(t time.Time) (string, string) { return t.Format(time.DateOnly), t.Format("15:04") }
	long := time.Now().UTC().AddDate(-1, 0, 0)
	fromDate, fromTime := at(long)
	toDate, toTime := at(long.Add(time.Hour))
	wantRedirect(t, c.post(t, path+"/recover", recoverRange(fromDate, fromTime, toDate, toTime)), path)
	wantBody(t, c.get(t, path), "nothing to recover")
	now := time.Now().UTC()
	fromDate, fromTime = at(now.Add(-time.Hour))
	toDate, toTime = at(now.Add(2 * time.Minute))
	wantRedirect(t, c.post(t, path+"/recover", recoverRange(fromDate, fromTime, toDate, toTime)), path)
	wantBody(t, c.get(t, path), "1 failed delivery from that range is being sent again.")
	verify(t, secret, rc.waitForID(t, failed))
	waitForPage(t, c, path, "1 succeeded · 0 failed")
	if n := strings.Count(strings.Join(rc.ids(), " "), failed); n != 4 {
		t.Errorf("the receiver got the recovered event %d times, want 4 (3 failed + 1)", n)
	}
}

// postV3 sends a JSON body to the /v3 API with an API key and returns the status.
func postV3(t *testing.T, ts *testServer, key, path, body string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// createClientV3 adds a client through /v3, which emits client.created.
func createClientV3(t *testing.T, ts *testServer, key string, n int) {
	t.Helper()
	if got := postV3(t, ts, key, "/v3/clients", `{"first_name":"Client","last_name":"`+strconv.Itoa(n)+`"}`); got != http.StatusCreated {
		t.Fatalf("POST /v3/clients: got %d, want 201", got)
	}
}

// recoverRange is the recover form's range, each end a UTC date and time of day.
func recoverRange(fromDate, fromTime, toDate, toTime string) url.Values {
	return url.Values{"from_date": {fromDate}, "from_time": {fromTime}, "to_date": {toDate}, "to_time": {toTime}}
}
