package bench

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
)

// The Standard Webhooks reference vector (docs/webhooks.md).
const (
	vectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTS     = "1614265330"
	vectorBody   = `{"test": 2432232314}`
	vectorSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestVerify(t *testing.T) {
	key, err := webhook.ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	then := time.Unix(1614265330, 0)
	for _, tc := range []struct {
		name, id, ts, header, body string
		now                        time.Time
		want                       bool
	}{
		{"reference vector", vectorID, vectorTS, vectorSig, vectorBody, then, true},
		{"one of several signatures", vectorID, vectorTS, "v1,bm90IGl0 " + vectorSig, vectorBody, then, true},
		{"tampered body", vectorID, vectorTS, vectorSig, `{"test": 2432232315}`, then, false},
		{"other id", "msg_other", vectorTS, vectorSig, vectorBody, then, false},
		{"stale timestamp", vectorID, vectorTS, vectorSig, vectorBody, then.Add(6 * time.Minute), false},
		{"no timestamp", vectorID, "", vectorSig, vectorBody, then, false},
		{"no signature", vectorID, vectorTS, "", vectorBody, then, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := verify(key, tc.id, tc.ts, tc.header, []byte(tc.body), tc.now); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReceiverRecordsFirstReceiptsAndRefusesBadSignatures(t *testing.T) {
	rc, err := startReceiver()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.stop()
	key, _ := webhook.ParseSecret(vectorSecret)
	rc.setKey("/hook/1", key)
	firsts := 0
	rc.reset(true, func(eventKey) { firsts++ })

	post := func(path, id string, sign bool) int {
		t.Helper()
		body := []byte(`{"type":"booking.created"}`)
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, rc.URL+path, bytes.NewReader(body))
		dispatch.SetHeaders(req.Header, [][]byte{key}, id, time.Now(), body)
		if !sign {
			req.Header.Set(webhook.HeaderSignature, "v1,AAAA")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		name, path, id string
		sign           bool
		want           int
	}{
		{"first delivery", "/hook/1", "evt_a", true, http.StatusNoContent},
		{"a retry of it", "/hook/1", "evt_a", true, http.StatusNoContent},
		{"another event", "/hook/1", "evt_b", true, http.StatusNoContent},
		{"bad signature", "/hook/1", "evt_c", false, http.StatusBadRequest},
		{"unknown endpoint", "/hook/9", "evt_d", true, http.StatusBadRequest},
	} {
		if got := post(tc.path, tc.id, tc.sign); got != tc.want {
			t.Fatalf("%s: got status %d, want %d", tc.name, got, tc.want)
		}
	}
	arrivals, dups, bad := rc.results()
	if len(arrivals) != 2 || dups != 1 || bad != 2 || firsts != 2 {
		t.Fatalf("got %d first receipts, %d repeats, %d refused, %d callbacks; want 2, 1, 2, 2", len(arrivals), dups, bad, firsts)
	}

	// Untracked, the receiver still checks signatures but remembers nothing.
	rc.reset(false, nil)
	if got := post("/hook/1", "evt_e", true); got != http.StatusNoContent {
		t.Fatalf("untracked delivery: got status %d, want %d", got, http.StatusNoContent)
	}
	if got := post("/hook/1", "evt_f", false); got != http.StatusBadRequest {
		t.Fatalf("untracked bad signature: got status %d, want %d", got, http.StatusBadRequest)
	}
	if arrivals, _, bad := rc.results(); len(arrivals) != 0 || bad != 1 {
		t.Fatalf("untracked: got %d arrivals and %d refused, want 0 and 1", len(arrivals), bad)
	}
}
