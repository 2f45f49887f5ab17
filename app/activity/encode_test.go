package activity

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// TestMarshalChangesIsJSONMarshal: the trail's encoder writes what encoding/json writes, byte
// for byte, for every kind of value an entry holds and for text JSON must escape.
func TestMarshalChangesIsJSONMarshal(t *testing.T) {
	texts := []string{"", "plain", "side by side", `a "quote"`, `back\slash`, "<b>&amp;</b>", "a<b", "a>b", "a&b", "tab\tnew\nline\r",
		"\x00\x1f\x7f", "café", "日本", "\u2028\u2029", string([]byte{0xff, 0xfe}), "[hidden]", "2027-06-26T03:00:00Z"}
	values := []any{nil, true, false, int64(0), int64(-42), int64(1 << 62), 7, 3.5, []string{"a", "<"},
		map[string]any{"k": 1}, time.Date(2026, 12, 3, 7, 0, 0, 0, time.UTC), int32(9), uint8(3)}
	for _, s := range texts {
		values = append(values, s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 500; round++ {
		c := Changes{}
		for n := r.IntN(14); n > 0; n-- {
			name := texts[r.IntN(len(texts))] + []string{"", "_at", "_id", "Z", "a"}[r.IntN(5)]
			c[name] = [2]any{values[r.IntN(len(values))], values[r.IntN(len(values))]}
		}
		got, err := marshalChanges(c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("marshalChanges(%#v):\ngot  %s\nwant %s", c, got, want)
		}
	}
}

// BenchmarkMarshalChanges: a new booking's entry, as the trail encodes it and as encoding/json
// would.
func BenchmarkMarshalChanges(b *testing.B) {
	c := Changes{"client_id": {nil, int64(10)}, "end_at": {nil, "2027-06-26T03:15:00Z"}, "list_price_cents": {nil, int64(2000)},
		"location_id": {nil, int64(2)}, "notes": {nil, "side by side"}, "price_cents": {nil, int64(2000)},
		"provider_id": {nil, int64(20)}, "scheduled": {nil, true}, "service_id": {nil, int64(1)},
		"source": {nil, "connect"}, "start_at": {nil, "2027-06-26T03:00:00Z"}, "status_id": {nil, int64(1)}}
	b.Run("trail", func(b *testing.B) {
		for b.Loop() {
			if _, err := marshalChanges(c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
