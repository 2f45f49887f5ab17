package webhook

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The published Standard Webhooks test vector quoted in docs/webhooks.md.
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorUnix      = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func mustParseSecret(t testing.TB, s string) []byte {
	t.Helper()
	key, err := ParseSecret(s)
	if err != nil {
		t.Fatalf("ParseSecret(%q): %v", s, err)
	}
	return key
}

func mustNewSecret(t testing.TB) string {
	t.Helper()
	s, err := NewSecret()
	if err != nil {
		t.Fatalf("NewSecret: %v", err)
	}
	return s
}

func TestSignPublishedVector(t *testing.T) {
	key := mustParseSecret(t, vectorSecret)
	got := Sign(key, vectorID, time.Unix(vectorUnix, 0), []byte(vectorBody))
	if got != vectorSignature {
		t.Errorf("Sign(vector) = %q, want %q", got, vectorSignature)
	}
	// The zone of ts must not matter: only its Unix seconds are signed.
	inTokyo := time.Unix(vectorUnix, 999_000_000).In(time.FixedZone("JST", 9*3600))
	if got := Sign(key, vectorID, inTokyo, []byte(vectorBody)); got != vectorSignature {
		t.Errorf("Sign(vector, other zone and sub-second part) = %q, want %q", got, vectorSignature)
	}
}

func TestNewSecret(t *testing.T) {
	s1, s2 := mustNewSecret(t), mustNewSecret(t)
	if s1 == s2 {
		t.Fatalf("two NewSecret calls both returned %q, want different secrets", s1)
	}
	for _, s := range []string{s1, s2} {
		if !strings.HasPrefix(s, "whsec_") {
			t.Errorf("NewSecret() = %q, want prefix whsec_", s)
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil {
			t.Fatalf("NewSecret() = %q: not standard base64: %v", s, err)
		}
		if len(raw) != 32 {
			t.Errorf("NewSecret() key is %d bytes, want 32", len(raw))
		}
		if key := mustParseSecret(t, s); !bytes.Equal(key, raw) {
			t.Errorf("ParseSecret(NewSecret()) = %x, want %x", key, raw)
		}
	}
}

func TestParseSecret(t *testing.T) {
	key32 := bytes.Repeat([]byte{7}, 32)
	b64 := base64.StdEncoding.EncodeToString(key32)
	tests := []struct {
		name    string
		in      string
		want    []byte
		wantErr string
	}{
		{name: "with prefix", in: "whsec_" + b64, want: key32},
		{name: "without prefix", in: b64, want: key32},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "prefix only", in: "whsec_", wantErr: "empty"},
		{name: "not base64", in: "whsec_not*base64!", wantErr: "not standard base64"},
		{name: "url alphabet", in: "whsec_" + base64.URLEncoding.EncodeToString(bytes.Repeat([]byte{0xfb}, 32)), wantErr: "not standard base64"},
		{name: "too short", in: "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 16)), wantErr: "16 bytes"},
		{name: "too long", in: "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 65)), wantErr: "65 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSecret(tt.in)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ParseSecret(%q) = %x, want error containing %q", tt.in, got, tt.wantErr)
				}
				if !errors.Is(err, ErrInvalidSecret) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseSecret(%q) error = %q, want ErrInvalidSecret containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSecret(%q): %v", tt.in, err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("ParseSecret(%q) = %x, want %x", tt.in, got, tt.want)
			}
		})
	}
}

func TestSignatureHeaderBuiltFromSign(t *testing.T) {
	k1, k2 := mustParseSecret(t, mustNewSecret(t)), mustParseSecret(t, mustNewSecret(t))
	ts := time.Unix(1_700_000_000, 0)
	body := []byte("{}")
	want := Sign(k1, "evt_x", ts, body) + " " + Sign(k2, "evt_x", ts, body)
	if got := SignatureHeader([][]byte{k1, k2}, "evt_x", ts, body); got != want {
		t.Errorf("SignatureHeader = %q, want %q", got, want)
	}
	if got := SignatureHeader(nil, "evt_x", ts, body); got != "" {
		t.Errorf("SignatureHeader(no keys) = %q, want empty", got)
	}
}

func BenchmarkSign1KiB(b *testing.B) {
	key := mustParseSecret(b, vectorSecret)
	body := bytes.Repeat([]byte("a"), 1024)
	ts := time.Unix(vectorUnix, 0)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		Sign(key, vectorID, ts, body)
	}
}

// TestDocumentedVectorStepByStep recomputes every step of the test vector docs/webhooks.md walks
// a receiver developer through — the key and its length, the signed content and its length,
// the HMAC in hex and base64, the header — from the inputs the page gives, so the page cannot
// say anything our signer (and any verifier) would not.
func TestDocumentedVectorStepByStep(t *testing.T) {
	raw, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "### The published test vector, step by step")
	if start < 0 {
		t.Fatal("docs/webhooks.md has no step-by-step test vector")
	}
	section := doc[start:]
	if end := strings.Index(section[4:], "\n### "); end >= 0 {
		section = section[:end+4]
	}
	find := func(what, pattern string) []string {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(section)
		if m == nil {
			t.Fatalf("the vector section has no %s (%s)", what, pattern)
		}
		return m
	}
	input := func(name string) string {
		return find(name, "\\| "+regexp.QuoteMeta(name)+" \\| `([^`]+)` \\|")[1]
	}
	secret, id, stamp, body := input("secret"), input("`webhook-id`"), input("`webhook-timestamp`"), input("body")
	if secret != vectorSecret || id != vectorID || stamp != strconv.Itoa(vectorUnix) || body != vectorBody {
		t.Fatalf("the page's inputs %q %q %q %q are not the published vector", secret, id, stamp, body)
	}

	key := mustParseSecret(t, secret)
	step1 := find("step 1", "→ (\\d+) bytes,\\s+hex `([0-9a-f]+)`")
	if step1[1] != strconv.Itoa(len(key)) || step1[2] != hex.EncodeToString(key) {
		t.Errorf("step 1 says %s bytes, hex %s; the key is %d bytes, hex %x", step1[1], step1[2], len(key), key)
	}
	content := id + "." + stamp + "." + body
	step2 := find("step 2", "Signed content \\(one line, (\\d+) bytes\\):\\s+`([^`]+)`")
	if step2[2] != content {
		t.Errorf("step 2 shows the signed content %q, want %q", step2[2], content)
	}
	if step2[1] != strconv.Itoa(len(content)) {
		t.Errorf("step 2 says the signed content is %s bytes; it is %d", step2[1], len(content))
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(content))
	sum := mac.Sum(nil)
	step3 := find("step 3", "HMAC-SHA256 → hex `([0-9a-f]+)`;\\s+base64 → `([^`]+)`")
	if step3[1] != hex.EncodeToString(sum) || step3[2] != base64.StdEncoding.EncodeToString(sum) {
		t.Errorf("step 3 says hex %s, base64 %s; the HMAC is %x, %s", step3[1], step3[2], sum, base64.StdEncoding.EncodeToString(sum))
	}
	step4 := find("step 4", "Header: `webhook-signature: ([^`]+)`")
	if want := Sign(key, id, time.Unix(vectorUnix, 0), []byte(body)); step4[1] != want {
		t.Errorf("step 4 says %s; the signer sends %s", step4[1], want)
	}
}
