package replies

import (
	"net/url"
	"testing"
)

// Answers are read trimmed, in any case, with or without accents; a button's payload wins over
// its title; anything else is for the inbox.
func TestIntent(t *testing.T) {
	for _, c := range []struct{ text, button, want string }{
		{"1", "", ActionConfirm},
		{" yes ", "", ActionConfirm},
		{"Sí", "", ActionConfirm},
		{"SI!", "", ActionConfirm},
		{"sí.", "", ActionConfirm},
		{"2", "", ActionCancel},
		{"cancel", "", ActionCancel},
		{" Cancelar ", "", ActionCancel},
		{"CANCELÁR", "", ActionCancel},
		{"STOP", "", ActionStop},
		{"baja", "", ActionStop},
		{"Confirm", ButtonConfirm, ActionConfirm},
		{"Cancel", ButtonCancel, ActionCancel},
		{"", "cancel", ActionCancel},
		{"12", "", ActionOther},
		{"yes please", "", ActionOther},
		{"sí, pero más tarde", "", ActionOther},
		{"", "", ActionOther},
	} {
		if got := Intent(c.text, c.button); got != c.want {
			t.Errorf("Intent(%q, %q) = %q, want %q", c.text, c.button, got, c.want)
		}
	}
}

// X-Twilio-Signature is Twilio's published algorithm: HMAC-SHA1 under the auth token of the
// full URL followed by every POST parameter's name and value in name order, base64. The
// expected value was computed independently (openssl) from that description:
//
//	printf '%s' 'https://example.com/twilio/sms?x=1Body1From+56961234567MessageSidSM1To+14155552345' |
//	  openssl dgst -sha1 -hmac 'token' -binary | base64
func TestTwilioSignature(t *testing.T) {
	params := url.Values{"To": {"+14155552345"}, "From": {"+56961234567"}, "Body": {"1"}, "MessageSid": {"SM1"}}
	const u = "https://example.com/twilio/sms?x=1"
	const want = "lvHWD5VGG/EL6ErKUGJ4kZEBCqc="
	if got := TwilioSignature("token", u, params); got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
	if !ValidTwilioSignature("token", u, params, want) {
		t.Error("the right signature does not verify")
	}
	for name, c := range map[string]struct {
		token, url, sig string
		params          url.Values
	}{
		"another token":    {"other", u, want, params},
		"another URL":      {"token", "https://example.com/twilio/sms", want, params},
		"a changed body":   {"token", u, want, url.Values{"To": {"+14155552345"}, "From": {"+56961234567"}, "Body": {"2"}, "MessageSid": {"SM1"}}},
		"no signature":     {"token", u, "", params},
		"no token (unset)": {"", u, TwilioSignature("", u, params), params},
	} {
		if ValidTwilioSignature(c.token, c.url, c.params, c.sig) {
			t.Errorf("%s: verifies", name)
		}
	}
}

// X-Hub-Signature-256 is "sha256=" and the hex HMAC-SHA256 of the raw body under the app
// secret (computed independently: printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret').
func TestMetaSignature(t *testing.T) {
	body := []byte(`{"a":1}`)
	const want = "sha256=aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494"
	if got := MetaSignature("secret", body); got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
	if !ValidMetaSignature("secret", body, want) || ValidMetaSignature("secret", []byte(`{"a":2}`), want) ||
		ValidMetaSignature("", body, MetaSignature("", body)) || ValidMetaSignature("secret", body, "") {
		t.Error("verification is wrong")
	}
}
