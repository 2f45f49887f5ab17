package admin_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The owner pauses a webhook from its page: the page says events are kept and queued, nothing
// reaches the receiver, and the dashboard shows a banner; resuming delivers what was queued and
// the banner goes. A deactivated webhook also raises the banner, and cannot be paused.
func TestWebhookPauseAndDashboardBanner(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true", "FRONTDESK_WEBHOOK_RETRY_SCHEDULE=0s,1h")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, _ := createWebhook(t, c, url.Values{"url": {rc.URL + "/hooks"}, "events": {"client.*"}, "allow_private": {"1"}})
	page := webhooksPath + "/" + id
	if strings.Contains(c.get(t, "/").Body, `data-testid="webhook-alert"`) {
		t.Fatal("the dashboard warns about a healthy webhook")
	}

	wantRedirect(t, c.post(t, page+"/pause", nil), page)
	wantBody(t, c.get(t, page), `data-testid="webhook-paused"`, "still recorded and queued", `data-testid="resume"`)
	wantBody(t, c.get(t, "/"), `data-testid="webhook-alert-paused"`, "1 webhook is paused")
	wantBody(t, c.get(t, webhooksPath), ">paused<")

	res := c.post(t, "/clients", url.Values{"first_name": {"Paula"}, "last_name": {"Soto"}, "email": {"paula@example.com"}})
	if res.Status != 303 {
		t.Fatalf("create client: %d\n%.1500s", res.Status, res.Body)
	}
	d := openBookingDB(t, ts)
	var pending int
	if err := d.Read.QueryRow(`SELECT count(*) FROM deliveries WHERE webhook_id = ? AND state = 'pending' AND attempts = 0`, id).Scan(&pending); err != nil || pending != 1 {
		t.Fatalf("while paused: %d pending unsent deliveries (%v), want the client.created queued", pending, err)
	}

	wantRedirect(t, c.post(t, page+"/resume", nil), page)
	var event string
	if err := d.Read.QueryRow(`SELECT event_id FROM deliveries WHERE webhook_id = ?`, id).Scan(&event); err != nil {
		t.Fatal(err)
	}
	rc.waitForID(t, event)
	if strings.Contains(c.get(t, "/").Body, `data-testid="webhook-alert"`) {
		t.Error("the banner stays after resuming")
	}
	log := c.get(t, page)
	wantBody(t, log, `data-testid="pause"`, "<th scope=\"col\">Event time</th>", "<th scope=\"col\">Last attempt</th>",
		`data-testid="delivery-event-time"`, `data-testid="delivery-last-attempt"`)
	times := regexp.MustCompile(`data-testid="delivery-event-time"[^<]*<time datetime="([^"]+)"`).FindAllStringSubmatch(log.Body, -1)
	if len(times) == 0 {
		t.Fatal("the log shows no event time")
	}
	for i := 1; i < len(times); i++ {
		if times[i][1] > times[i-1][1] {
			t.Errorf("the log is not newest event first: %s before %s", times[i-1][1], times[i][1])
		}
	}

	if _, err := d.Write.Exec(`UPDATE webhooks SET state = 'deactivated', deactivated_reason = 'gone', deactivated_at = 0 WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/"), `data-testid="webhook-alert-deactivated"`, "1 webhook is deactivated")
	wantRedirect(t, c.post(t, page+"/pause", nil), page)
	wantBody(t, c.get(t, page), `data-testid="flash"`)
	if strings.Contains(c.get(t, page).Body, `data-testid="webhook-paused"`) {
		t.Error("a deactivated webhook was paused")
	}

	// A receiver answering 500: failing, counting down to deactivation.
	broken := newReceiver(t)
	broken.setStatus(500)
	createWebhook(t, c, url.Values{"url": {broken.URL + "/hooks"}, "events": {"client.*"}, "allow_private": {"1"}})
	c.post(t, "/clients", url.Values{"first_name": {"Rosa"}, "last_name": {"Vidal"}, "email": {"rosa@example.com"}})
	waitFor(t, "the failing banner", func() bool {
		return strings.Contains(c.get(t, "/").Body, `data-testid="webhook-alert-failing"`)
	})
}
