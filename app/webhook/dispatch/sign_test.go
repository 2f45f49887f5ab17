package dispatch

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/webhook"
)

func mustParseSecret(t testing.TB, s string) []byte {
	t.Helper()
	key, err := webhook.ParseSecret(s)
	if err != nil {
		t.Fatalf("ParseSecret(%q): %v", s, err)
	}
	return key
}

func mustNewSecret(t testing.TB) string {
	t.Helper()
	s, err := webhook.NewSecret()
	if err != nil {
		t.Fatalf("NewSecret: %v", err)
	}
	return s
}

// TestSignaturesVerifyWithStandardWebhooks checks our output against the
// independent reference library, headers and all, as a receiver would.
func TestSignaturesVerifyWithStandardWebhooks(t *testing.T) {
	oldSecret, newSecret := mustNewSecret(t), mustNewSecret(t)
	oldKey, newKey := mustParseSecret(t, oldSecret), mustParseSecret(t, newSecret)
	body := []byte(`{"type":"booking.created","timestamp":"2026-03-01T09:00:00Z","data":{"id":"b_1"}}`)
	now := time.Now()

	tests := []struct {
		name   string
		keys   [][]byte
		secret string
		want   bool
	}{
		{name: "one key", keys: [][]byte{newKey}, secret: newSecret, want: true},
		{name: "rotation, receiver holds new secret", keys: [][]byte{newKey, oldKey}, secret: newSecret, want: true},
		{name: "rotation, receiver holds old secret", keys: [][]byte{newKey, oldKey}, secret: oldSecret, want: true},
		{name: "receiver holds a secret we no longer sign with", keys: [][]byte{newKey}, secret: oldSecret, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			SetHeaders(h, tt.keys, "evt_1", now, body)
			if n := len(strings.Fields(h.Get(webhook.HeaderSignature))); n != len(tt.keys) {
				t.Fatalf("signature header %q has %d signatures, want %d", h.Get(webhook.HeaderSignature), n, len(tt.keys))
			}
			wh, err := standardwebhooks.NewWebhook(tt.secret)
			if err != nil {
				t.Fatalf("standardwebhooks.NewWebhook: %v", err)
			}
			err = wh.Verify(body, h)
			if got := err == nil; got != tt.want {
				t.Errorf("Verify: got ok=%v (err %v), want ok=%v", got, err, tt.want)
			}
			if tt.want {
				tampered := append(bytes.Clone(body), ' ')
				if err := wh.Verify(tampered, h); err == nil {
					t.Errorf("Verify(tampered body) = nil, want an error")
				}
			}
		})
	}
}
