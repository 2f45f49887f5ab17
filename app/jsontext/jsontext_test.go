package jsontext

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"
)

var cases = func() []string {
	cs := []string{"", "Ana María", `say "hi" \ bye`, "a\bb\fc\nd\re\tf", "\x00\x01\x1f\x7f",
		"<b>Tom & Jerry</b>", "a\u2028b\u2029c", "bad \xff\xfe byte \xe2\x82 cut", "Zoë 💇 Ñandú", "\ufffd"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		raw := make([]byte, rng.IntN(24))
		for j := range raw {
			raw[j] = byte(rng.IntN(256))
		}
		cs = append(cs, string(raw))
	}
	return cs
}()

// String is encoding/json with HTML escaping off, without the Encoder's trailing newline.
func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range cases {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := String(nil, s), bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Errorf("String(%q): got %s, want %s", s, got, want)
		}
	}
}

// SlogString is the message as log/slog's JSON handler writes it.
func TestSlogStringMatchesSlog(t *testing.T) {
	for _, s := range cases {
		var buf bytes.Buffer
		slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
				return slog.Attr{}
			}
			return a
		}}).Handle(context.Background(), slog.NewRecord(time.Time{}, slog.LevelInfo, s, 0))
		want := bytes.TrimSuffix(bytes.TrimPrefix(buf.Bytes(), []byte(`{"msg":`)), []byte("}\n"))
		if got := SlogString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("SlogString(%q): got %s, want %s", s, got, want)
		}
	}
}
