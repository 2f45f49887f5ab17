package dispatch

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/webhook"
)

// literalVerify is a receiver written from the sentence "HMAC-SHA256 with the secret as key",
// taken literally (docs/webhooks.md, "Signature key mode"): the key is the whole secret text,
// whsec_ and all. It shares no code with the signer.
func literalVerify(secret string, h http.Header, body []byte) error {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return errors.New("no signature made with the secret text as key")
}

// standardVerify is a receiver using the Standard Webhooks library.
func standardVerify(secret string, h http.Header, body []byte) error {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return err
	}
	return wh.Verify(body, h)
}

// TestSigningKeyPublishedVector: with the published test vector's inputs, the standard mode
// gives the published signature and the secret-text mode the signature a literal receiver
// computes.
func TestSigningKeyPublishedVector(t *testing.T) {
	const (
		secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
		id     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
		body   = `{"test": 2432232314}`
	)
	ts := time.Unix(1614265330, 0)
	key, err := webhook.SigningKey(secret, webhook.KeyModeStandard)
	if err != nil {
		t.Fatal(err)
	}
	if got := webhook.Sign(key, id, ts, []byte(body)); got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Errorf("standard mode: %s, want the published signature", got)
	}
	key, err = webhook.SigningKey(secret, webhook.KeyModeSecretText)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	SetHeaders(h, [][]byte{key}, id, ts, []byte(body))
	if err := literalVerify(secret, h, []byte(body)); err != nil {
		t.Errorf("secret-text mode %s: %v", h.Get(webhook.HeaderSignature), err)
	}
	if got := h.Get(webhook.HeaderSignature); got != "v1,TcxlhK9b6UD6iVI1ZU2tTqp8PEVfYRseNNfa6b+LcUg=" {
		t.Errorf("secret-text mode: %s, want the documented vector (docs/webhooks.md)", got)
	}
	for _, bad := range []struct{ secret, mode string }{{secret, "hex"}, {secret, ""}, {"whsec_short", webhook.KeyModeSecretText}} {
		if _, err := webhook.SigningKey(bad.secret, bad.mode); err == nil {
			t.Errorf("SigningKey(%q, %q): no error", bad.secret, bad.mode)
		}
	}
}

// TestKeyModesEndToEnd: two endpoints, one per mode, each with a receiver written that way.
// Each verifies its deliveries and would refuse the other mode's; both keep verifying through a
// rotation (old and new secret during the grace period, only the new one after a rotation
// without grace); and a mode changed on a webhook applies from the next delivery.
func TestKeyModesEndToEnd(t *testing.T) {
	h := newHarness(t)
	std, lit := newReceiver(t, nil), newReceiver(t, nil)
	ctx := context.Background()
	stdHook, stdSecret := h.create(std.srv.URL, "*")
	litHook, litSecret, err := h.m.Create(ctx, webhook.CreateInput{URL: lit.srv.URL, Events: []string{"*"}, AllowPrivate: true, KeyMode: webhook.KeyModeSecretText})
	if err != nil {
		t.Fatal(err)
	}
	if stdHook.KeyMode != webhook.KeyModeStandard || litHook.KeyMode != webhook.KeyModeSecretText {
		t.Fatalf("key modes %q and %q", stdHook.KeyMode, litHook.KeyMode)
	}
	h.startDispatcher(Config{AllowPrivate: true})

	deliver := func(what string) (received, received) {
		t.Helper()
		id := h.enqueue(webhook.ServiceUpdated, map[string]any{"what": what})
		eventually(t, 5*time.Second, what, func() bool { return len(std.byID(id)) == 1 && len(lit.byID(id)) == 1 })
		return std.byID(id)[0], lit.byID(id)[0]
	}
	s, l := deliver("first")
	if err := standardVerify(stdSecret, s.header, s.body); err != nil {
		t.Errorf("standard receiver: %v", err)
	}
	if err := literalVerify(litSecret, l.header, l.body); err != nil {
		t.Errorf("literal receiver: %v", err)
	}
	if literalVerify(stdSecret, s.header, s.body) == nil || standardVerify(litSecret, l.header, l.body) == nil {
		t.Error("a receiver of the other mode verified: the modes sign the same way")
	}

	// Rotation with grace: both secrets sign, each in its webhook's mode.
	stdNew, err := h.m.RotateSecret(ctx, stdHook.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	litNew, err := h.m.RotateSecret(ctx, litHook.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s, l = deliver("during grace")
	for name, secret := range map[string]string{"old": stdSecret, "new": stdNew} {
		if err := standardVerify(secret, s.header, s.body); err != nil {
			t.Errorf("standard receiver with the %s secret during the grace period: %v", name, err)
		}
	}
	for name, secret := range map[string]string{"old": litSecret, "new": litNew} {
		if err := literalVerify(secret, l.header, l.body); err != nil {
			t.Errorf("literal receiver with the %s secret during the grace period: %v", name, err)
		}
	}

	// Rotation without grace: only the newest secret verifies.
	litNewest, err := h.m.RotateSecret(ctx, litHook.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, l = deliver("after rotation")
	if err := literalVerify(litNewest, l.header, l.body); err != nil {
		t.Errorf("literal receiver with the newest secret: %v", err)
	}
	for _, old := range []string{litSecret, litNew} {
		if literalVerify(old, l.header, l.body) == nil {
			t.Error("a retired secret still verifies after a rotation without grace")
		}
	}

	// The owner switches the standard webhook to secret-text: the next delivery is signed so.
	mode := webhook.KeyModeSecretText
	if _, err := h.m.Update(ctx, stdHook.ID, webhook.UpdateInput{KeyMode: &mode}); err != nil {
		t.Fatal(err)
	}
	s, _ = deliver("after the switch")
	if err := literalVerify(stdNew, s.header, s.body); err != nil {
		t.Errorf("after switching to secret-text: %v", err)
	}
	if standardVerify(stdNew, s.header, s.body) == nil {
		t.Error("after switching to secret-text the standard signature is still sent")
	}
}

func TestKeyModeValidated(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	_, _, err := h.m.Create(ctx, webhook.CreateInput{URL: "https://example.com/h", Events: []string{"*"}, KeyMode: "hex"})
	var fe *webhook.FieldError
	if !errors.As(err, &fe) || fe.Field != "key_mode" || !errors.Is(err, webhook.ErrInvalidKeyMode) {
		t.Fatalf("create with key mode hex: %v, want a key_mode field error", err)
	}
	w, _ := h.create("https://example.com/h", "*")
	bad := "Standard"
	if _, err := h.m.Update(ctx, w.ID, webhook.UpdateInput{KeyMode: &bad}); !errors.As(err, &fe) || fe.Field != "key_mode" {
		t.Fatalf("update with key mode %q: %v", bad, err)
	}
	if got := h.webhook(w.ID).KeyMode; got != webhook.KeyModeStandard {
		t.Errorf("after a refused update the mode is %q", got)
	}
}
