package dispatch

import (
	"context"
	"net/netip"
	"net/url"
	"testing"
	"time"

	"frontdesk/app/webhook"
)

// The dial-time guard as the dispatcher uses it: every refused target is logged as a
// forbidden_address attempt and never contacted. Refused addresses are never dialled (the
// guard runs before connect), so private ranges are safe to name here; only loopback is ever
// actually contacted, and only with allowPrivate.
func TestDispatcherRefusesPrivateTargets(t *testing.T) {
	rc := newReceiver(t, nil)
	u, _ := url.Parse(rc.srv.URL)
	port := u.Port()
	resolver := newFakeResolver(t, map[string]netip.Addr{
		"hooks.example.com": netip.MustParseAddr("127.0.0.1"),
		"lan.example.com":   netip.MustParseAddr("192.168.1.10"),
	})

	targets := []struct{ name, url string }{
		{"loopback", "http://127.0.0.1:" + port + "/"},
		{"IPv6 loopback", "http://[::1]:" + port + "/"},
		{"private", "http://10.0.0.1:" + port + "/"},
		{"link-local", "http://169.254.10.10/"},
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/"},
		{"CGNAT", "http://100.64.0.1/"},
		{"name resolving to loopback", "http://hooks.example.com:" + port + "/"},
		{"name resolving to a private address", "http://lan.example.com/"},
	}
	h := newHarness(t)
	ids := map[string]int64{}
	for _, tt := range targets {
		w, _ := h.create(tt.url, "*")
		ids[tt.name] = w.ID
	}
	h.startDispatcherWith(Config{Schedule: fastSchedule(time.Hour)}, newHTTPClient(2*time.Second, false, 4, resolver))
	event := h.enqueue(webhook.BookingCreated, map[string]any{"id": 1})

	for _, tt := range targets {
		t.Run(tt.name, func(t *testing.T) {
			id := ids[tt.name]
			eventually(t, 5*time.Second, "the attempt", func() bool { return h.deliveryOf(event, id).Attempts >= 1 })
			detail, err := h.m.Delivery(context.Background(), h.deliveryOf(event, id).ID)
			if err != nil {
				t.Fatal(err)
			}
			a := detail.AttemptLog[0]
			if a.ErrorCategory != CategoryForbiddenAddress || a.StatusCode != 0 {
				t.Errorf("attempt to %s: category %q status %d (%s), want %q and no response", tt.url, a.ErrorCategory, a.StatusCode, a.ErrorMessage, CategoryForbiddenAddress)
			}
		})
	}
	if n := rc.count(); n != 0 {
		t.Errorf("loopback receiver got %d requests from a guarded dispatcher, want 0", n)
	}

	// With the opt-in the same loopback targets are delivered to.
	h2 := newHarness(t)
	literal, _ := h2.create("http://127.0.0.1:"+port+"/", "*")
	named, _ := h2.create("http://hooks.example.com:"+port+"/", "*")
	h2.startDispatcherWith(Config{AllowPrivate: true}, newHTTPClient(2*time.Second, true, 4, resolver))
	allowed := h2.enqueue(webhook.BookingCreated, map[string]any{"id": 2})
	for _, id := range []int64{literal.ID, named.ID} {
		eventually(t, 5*time.Second, "delivery with allowPrivate", func() bool { return h2.deliveryOf(allowed, id).State == webhook.StateSucceeded })
	}
	if n := len(rc.byID(allowed)); n != 2 {
		t.Errorf("receiver got %d requests with allowPrivate, want 2", n)
	}
}

// A dispatcher's own client is guarded unless AllowPrivate.
func TestDispatcherClientFollowsConfig(t *testing.T) {
	h := newHarness(t)
	for _, allow := range []bool{false, true} {
		d := New(h.db, Config{AllowPrivate: allow, Workers: 8}, discardLog(), nil, nil)
		_, err := d.client.Get("http://127.0.0.1:1/")
		refused := Categorize(err) == CategoryForbiddenAddress
		if refused == allow {
			t.Errorf("AllowPrivate=%v: GET 127.0.0.1 err %v; want refused=%v", allow, err, !allow)
		}
		if d.cfg.PerEndpoint != 2 {
			t.Errorf("PerEndpoint default with 8 workers = %d, want 2", d.cfg.PerEndpoint)
		}
	}
}
