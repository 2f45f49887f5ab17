package dispatch

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// TestDeliveryLogStoresTextsOnce: an attempt row keeps only what differs per attempt (the
// signature, the receiver's Date); headers and bodies that repeat are stored once, and the log
// still shows each attempt's request and response exactly as they went.
func TestDeliveryLogStoresTextsOnce(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("received"))
	})
	w, _ := h.create(rc.srv.URL, "*")
	h.startDispatcher(Config{AllowPrivate: true})
	const events = 5
	var ids []string
	for i := range events {
		ids = append(ids, h.enqueue(webhook.ClientCreated, map[string]int{"id": i}))
	}
	eventually(t, 10*time.Second, "every delivery", func() bool {
		for _, id := range ids {
			if h.deliveryOf(id, w.ID).State != webhook.StateSucceeded {
				return false
			}
		}
		return true
	})
	ctx := context.Background()
	var attempts, texts int
	if err := h.db.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM delivery_attempts`).Scan(&attempts); err != nil {
		t.Fatal(err)
	}
	if err := h.db.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM delivery_texts`).Scan(&texts); err != nil {
		t.Fatal(err)
	}
	// The request's headers but the Standard Webhooks ones, the response's but Date, and
	// "received": the same for every attempt.
	if attempts != events || texts != 3 {
		t.Fatalf("%d attempts with %d texts, want %d attempts sharing 3 texts", attempts, texts, events)
	}
	for _, id := range ids {
		got := rc.byID(id)
		if len(got) != 1 {
			t.Fatalf("event %s arrived %d times", id, len(got))
		}
		d, err := h.m.Delivery(ctx, h.deliveryOf(id, w.ID).ID)
		if err != nil || len(d.AttemptLog) != 1 {
			t.Fatalf("delivery log of %s: %+v, %v", id, d, err)
		}
		a := d.AttemptLog[0]
		for _, name := range []string{webhook.HeaderID, webhook.HeaderTimestamp, webhook.HeaderSignature, "Content-Type", "User-Agent"} {
			line := http.CanonicalHeaderKey(name) + ": " + got[0].header.Get(name) + "\n"
			if !strings.Contains(a.RequestHeaders, line) {
				t.Errorf("logged request headers %q lack %q as the receiver got it", a.RequestHeaders, line)
			}
		}
		if !strings.Contains(a.ResponseHeaders, "Date: ") || !strings.Contains(a.ResponseHeaders, "Content-Type: text/plain\n") || a.ResponseBody != "received" {
			t.Errorf("logged response %q / %q, want the receiver's headers with its Date, and its body", a.ResponseHeaders, a.ResponseBody)
		}
		if string(d.Body) != string(got[0].body) {
			t.Errorf("logged body %s, sent %s", d.Body, got[0].body)
		}
	}
}
