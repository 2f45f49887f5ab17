package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/webhook"
)

func TestDeliveryIsSignedAndLogged(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, secret := h.create(rc.srv.URL+"/hooks", "client.*")
	other, _ := h.create(rc.srv.URL+"/bookings-only", "booking.*")
	h.startDispatcher(Config{AllowPrivate: true, UserAgent: "frontdesk-webhooks/test"})

	data := map[string]any{"id": 7, "first_name": "Ana", "note": "<b>&</b>"}
	id := h.enqueue(webhook.ClientCreated, data)
	eventually(t, 5*time.Second, "the delivery to succeed", func() bool {
		return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded
	})

	reqs := rc.requests()
	if len(reqs) != 1 {
		t.Fatalf("receiver got %d requests, want 1 (the booking-only webhook %d must not get a client event)", len(reqs), other.ID)
	}
	got := reqs[0]
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(got.body, got.header); err != nil {
		t.Errorf("Standard Webhooks Verify: %v; want the delivery to verify with the webhook's secret", err)
	}
	for name, want := range map[string]string{
		"Content-Type":   "application/json",
		"User-Agent":     "frontdesk-webhooks/test",
		webhook.HeaderID: id,
	} {
		if v := got.header.Get(name); v != want {
			t.Errorf("header %s = %q, want %q", name, v, want)
		}
	}
	if !regexp.MustCompile(`^evt_[0-9A-Za-z]{24}$`).MatchString(id) {
		t.Errorf("webhook-id %q, want evt_ and 24 base62 characters", id)
	}
	ts, err := strconv.ParseInt(got.header.Get(webhook.HeaderTimestamp), 10, 64)
	if err != nil || time.Since(time.Unix(ts, 0)).Abs() > 5*time.Second {
		t.Errorf("webhook-timestamp %q, want the Unix seconds of the attempt", got.header.Get(webhook.HeaderTimestamp))
	}

	var env map[string]json.RawMessage
	if err := json.Unmarshal(got.body, &env); err != nil {
		t.Fatalf("body %s is not a JSON object: %v", got.body, err)
	}
	if len(env) != 3 || string(env["type"]) != `"client.created"` || env["timestamp"] == nil || env["data"] == nil {
		t.Errorf("envelope %s, want exactly type, timestamp and data", got.body)
	}
	var stamp string
	json.Unmarshal(env["timestamp"], &stamp)
	if _, err := time.Parse("2006-01-02T15:04:05.000Z", stamp); err != nil {
		t.Errorf("timestamp %q, want ISO 8601 UTC with a Z", stamp)
	}
	if want := `{"first_name":"Ana","id":7,"note":"<b>&</b>"}`; string(env["data"]) != want {
		t.Errorf("data %s, want %s (unescaped, as given)", env["data"], want)
	}

	// The log holds the exact request sent and what came back.
	detail, err := h.m.Delivery(context.Background(), h.deliveryOf(id, w.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(detail.Body, got.body) {
		t.Errorf("logged body %s, want the body the receiver got %s", detail.Body, got.body)
	}
	if len(detail.AttemptLog) != 1 {
		t.Fatalf("attempt log has %d entries, want 1", len(detail.AttemptLog))
	}
	a := detail.AttemptLog[0]
	if a.Number != 1 || a.StatusCode != http.StatusNoContent || a.ErrorCategory != "" {
		t.Errorf("attempt %+v, want number 1, status 204, no error category", a)
	}
	for _, line := range []string{"Webhook-Id: " + id, "Webhook-Signature: " + got.header.Get(webhook.HeaderSignature), "User-Agent: frontdesk-webhooks/test"} {
		if !strings.Contains(a.RequestHeaders, line+"\n") {
			t.Errorf("logged request headers %q lack %q", a.RequestHeaders, line)
		}
	}
	if o := h.webhook(w.ID); o.LastSuccessAt.IsZero() || o.Health.SuccessRate != 1 || o.Health.Sample != 1 {
		t.Errorf("health after one success: last success %v, rate %v of %d; want set, 1 of 1", o.LastSuccessAt, o.Health.SuccessRate, o.Health.Sample)
	}
}

func TestRotationSignsWithBothSecrets(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, nil)
	w, oldSecret := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true})

	newSecret, err := h.m.RotateSecret(context.Background(), w.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	during := h.enqueue(webhook.ServiceUpdated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "the delivery during the grace period", func() bool { return len(rc.byID(during)) == 1 })

	req := rc.byID(during)[0]
	if sigs := strings.Fields(req.header.Get(webhook.HeaderSignature)); len(sigs) != 2 {
		t.Fatalf("webhook-signature %q during rotation, want two signatures", req.header.Get(webhook.HeaderSignature))
	}
	for name, s := range map[string]string{"old": oldSecret, "new": newSecret} {
		wh, _ := standardwebhooks.NewWebhook(s)
		if err := wh.Verify(req.body, req.header); err != nil {
			t.Errorf("verify with the %s secret during the grace period: %v", name, err)
		}
	}
	if got := len(h.webhook(w.ID).Secrets); got != 2 {
		t.Errorf("webhook lists %d valid secrets during rotation, want 2", got)
	}

	// A rotation without grace ends the old secrets at once.
	newest, err := h.m.RotateSecret(context.Background(), w.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	after := h.enqueue(webhook.ServiceUpdated, map[string]any{"id": 2})
	eventually(t, 5*time.Second, "the delivery after rotation", func() bool { return len(rc.byID(after)) == 1 })
	req = rc.byID(after)[0]
	if sigs := strings.Fields(req.header.Get(webhook.HeaderSignature)); len(sigs) != 1 {
		t.Errorf("webhook-signature %q after a rotation without grace, want one signature", req.header.Get(webhook.HeaderSignature))
	}
	wh, _ := standardwebhooks.NewWebhook(newest)
	if err := wh.Verify(req.body, req.header); err != nil {
		t.Errorf("verify with the newest secret: %v", err)
	}
	for _, s := range []string{oldSecret, newSecret} {
		wh, _ := standardwebhooks.NewWebhook(s)
		if err := wh.Verify(req.body, req.header); err == nil {
			t.Errorf("a retired secret still verifies after a rotation without grace")
		}
	}
}

// A clock the test can push forward: every request the receiver gets moves it 10 s, so each
// attempt's webhook-timestamp differs from the last.
type steppedClock struct{ skew atomic.Int64 }

func (c *steppedClock) now() time.Time { return time.Now().Add(time.Duration(c.skew.Load())) }
func (c *steppedClock) step()          { c.skew.Add(int64(10 * time.Second)) }

func TestRetriesKeepIDAndRefreshTimestamp(t *testing.T) {
	h := newHarness(t)
	var clock steppedClock
	h.now = clock.now
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		clock.step()
		if n < 2 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	w, secret := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(20*time.Millisecond, 20*time.Millisecond, 20*time.Millisecond)})

	id := h.enqueue(webhook.BookingCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "three attempts", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })

	reqs := rc.requests()
	if len(reqs) != 3 {
		t.Fatalf("receiver got %d requests, want 3 (two 500s, then 200)", len(reqs))
	}
	seen := map[string]bool{}
	for i, r := range reqs {
		if got := r.header.Get(webhook.HeaderID); got != id {
			t.Errorf("attempt %d webhook-id %q, want %q on every retry", i+1, got, id)
		}
		if !bytes.Equal(r.body, reqs[0].body) {
			t.Errorf("attempt %d body differs from the first attempt's", i+1)
		}
		ts := r.header.Get(webhook.HeaderTimestamp)
		if seen[ts] {
			t.Errorf("attempt %d reuses webhook-timestamp %s, want a fresh one per attempt", i+1, ts)
		}
		seen[ts] = true
		wh, _ := standardwebhooks.NewWebhook(secret)
		if err := wh.Verify(r.body, r.header); err != nil {
			t.Errorf("attempt %d does not verify: %v", i+1, err)
		}
	}
	detail, err := h.m.Delivery(context.Background(), h.deliveryOf(id, w.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []int
	for _, a := range detail.AttemptLog {
		statuses = append(statuses, a.StatusCode)
	}
	if len(statuses) != 3 || statuses[0] != 500 || statuses[1] != 500 || statuses[2] != 200 || detail.AttemptLog[0].ErrorCategory != CategoryHTTPStatus {
		t.Errorf("attempt log statuses %v (first category %q), want [500 500 200] with http_status", statuses, detail.AttemptLog[0].ErrorCategory)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(10*time.Millisecond, 10*time.Millisecond)})

	id := h.enqueue(webhook.BookingUpdated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "the retry to succeed", func() bool { return h.deliveryOf(id, w.ID).State == webhook.StateSucceeded })
	reqs := rc.requests()
	if len(reqs) != 2 {
		t.Fatalf("receiver got %d requests, want 2", len(reqs))
	}
	if gap := reqs[1].at.Sub(reqs[0].at); gap < 1*time.Second || gap > 3*time.Second {
		t.Errorf("retry came %s after the 503 with Retry-After: 1, want about 1 s (the schedule said 10 ms)", gap)
	}
}

func TestGoneDeactivatesAtOnce(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(http.StatusGone) })
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(time.Hour)})

	id := h.enqueue(webhook.ClientUpdated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "deactivation", func() bool { return h.webhook(w.ID).State == webhook.WebhookDeactivated })
	o := h.webhook(w.ID)
	if o.DeactivatedReason != "410 Gone from receiver" || o.DeactivatedAt.IsZero() {
		t.Errorf("deactivated with reason %q at %v, want \"410 Gone from receiver\" and a time", o.DeactivatedReason, o.DeactivatedAt)
	}
	if d := h.deliveryOf(id, w.ID); d.State != webhook.StateFailed || d.Attempts != 1 {
		t.Errorf("the 410'd delivery: state %s after %d attempts, want failed after 1 (no retry)", d.State, d.Attempts)
	}
	later := h.enqueue(webhook.ClientUpdated, map[string]any{"id": 2})
	if d := h.deliveryOf(later, w.ID); d.State != webhook.StateMissed {
		t.Errorf("event while deactivated: delivery %s, want missed", d.State)
	}
	time.Sleep(100 * time.Millisecond) // give a wrong dispatcher the chance to send it
	if n := rc.count(); n != 1 {
		t.Errorf("receiver got %d requests, want 1 (nothing after 410)", n)
	}
}

// One endpoint hangs until the timeout; the other must still get every event within a second
// of its commit.
func TestHangingEndpointDoesNotDelayOthers(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	hanging := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before the server closes
	healthy := newReceiver(t, nil)
	h.create(hanging.srv.URL, "*")
	good, _ := h.create(healthy.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Timeout: 2 * time.Second, Workers: 8, PerEndpoint: 2, Schedule: fastSchedule(10 * time.Millisecond)})

	committed := map[string]time.Time{}
	for i := range 30 {
		id := h.enqueue(webhook.BookingCreated, map[string]any{"id": i})
		committed[id] = time.Now()
		time.Sleep(40 * time.Millisecond)
	}
	eventually(t, 5*time.Second, "the healthy endpoint to get all 30 events", func() bool { return healthy.count() >= 30 })
	for id, at := range committed {
		got := healthy.byID(id)
		if len(got) == 0 {
			t.Errorf("healthy endpoint never got %s", id)
			continue
		}
		if lag := got[0].at.Sub(at); lag > time.Second {
			t.Errorf("healthy endpoint got %s %s after its commit, want within 1 s while the other endpoint hangs", id, lag)
		}
	}
	if n := hanging.count(); n == 0 {
		t.Errorf("hanging endpoint got no request; the test did not exercise a hang")
	}
	if d := good.ID; h.webhook(d).Health.SuccessRate != 1 {
		t.Errorf("healthy endpoint success rate %v, want 1", h.webhook(d).Health.SuccessRate)
	}
}

func TestRedirectIsAFailure(t *testing.T) {
	h := newHarness(t)
	target := newReceiver(t, nil)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Redirect(w, r, target.srv.URL+"/moved", http.StatusMovedPermanently)
	})
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(time.Hour)})

	id := h.enqueue(webhook.BookingCreated, map[string]any{"id": 1})
	eventually(t, 5*time.Second, "the first attempt", func() bool { return h.deliveryOf(id, w.ID).Attempts == 1 })
	detail, _ := h.m.Delivery(context.Background(), h.deliveryOf(id, w.ID).ID)
	if len(detail.AttemptLog) != 1 {
		t.Fatalf("attempt log %+v, want one attempt", detail.AttemptLog)
	}
	a := detail.AttemptLog[0]
	if a.StatusCode != http.StatusMovedPermanently || a.ErrorCategory != CategoryHTTPStatus || !strings.Contains(a.ErrorMessage, "not followed") {
		t.Errorf("attempt %d %q %q, want 301 recorded as an http_status failure", a.StatusCode, a.ErrorCategory, a.ErrorMessage)
	}
	if d := h.deliveryOf(id, w.ID); d.State != webhook.StatePending || d.NextAttemptAt.IsZero() {
		t.Errorf("after a redirect: state %s next %v, want pending with a retry scheduled", d.State, d.NextAttemptAt)
	}
	if n := target.count(); n != 0 {
		t.Errorf("redirect target got %d requests, want 0", n)
	}
}
