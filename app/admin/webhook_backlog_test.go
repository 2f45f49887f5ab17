package admin_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWebhookBacklogAndConcurrency: the list and the detail page show what waits for an
// endpoint, when it should be drained and how many deliveries go at once; the form sets the
// bound.
func TestWebhookBacklogAndConcurrency(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	gate := make(chan struct{})
	var got atomic.Int64
	var held atomic.Bool
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if held.Load() {
			<-gate
		}
		got.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	t.Cleanup(func() {
		if held.Swap(false) {
			close(gate)
		}
	})

	for _, bad := range []string{"0", "257", "x", "-3"} {
		form := webhookForm(rc.URL, "*")
		form.Set("max_concurrency", bad)
		res := c.post(t, webhooksPath, form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-max_concurrency">Enter a whole number from 1 to 256.`)
	}
	wantBody(t, c.get(t, webhooksPath+"/new"), `name="max_concurrency"`, `value="32"`)
	form := webhookForm(rc.URL, "*")
	form.Set("max_concurrency", "1")
	id, _ := createWebhook(t, c, form)
	path := webhooksPath + "/" + id
	wantBody(t, c.get(t, path+"/edit"), `name="max_concurrency"`, `value="1"`)
	wantBody(t, c.get(t, path), `data-testid="webhook-backlog">`, "Nothing waiting")

	// One delivery goes through, so the dispatcher has a rate; then the endpoint holds
	// everything and a backlog builds.
	wantRedirect(t, c.post(t, path+"/test", nil), path)
	deadline := time.Now().Add(10 * time.Second)
	for got.Load() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the first test event never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	held.Store(true)
	for range 4 {
		wantRedirect(t, c.post(t, path+"/test", nil), path)
	}
	for _, p := range []string{webhooksPath, path} {
		body := c.get(t, p).Body
		backlog := between(body, `data-testid="webhook-backlog">`, "</div></div>")
		for _, want := range []string{"4 deliveries waiting", "drained in about", "Sending 1 at once now, at most 1"} {
			if !strings.Contains(backlog, want) {
				t.Fatalf("%s: backlog %q, want %q in it", p, backlog, want)
			}
		}
	}
	held.Store(false)
	close(gate)
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(c.get(t, path).Body, "Nothing waiting") {
		if time.Now().After(deadline) {
			t.Fatal("the backlog never drained")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
