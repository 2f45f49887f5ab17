package mcp

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"
)

func TestSlotIDRoundTripAndTamper(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	ref := slotRef{LocationID: 1, ServiceID: 22, ProviderID: 333, Start: time.Date(2027, 4, 4, 3, 30, 0, 0, time.UTC)}
	id := encodeSlotID(key, ref)
	got, err := decodeSlotID(key, id)
	if err != nil || got.LocationID != 1 || got.ServiceID != 22 || got.ProviderID != 333 || !got.Start.Equal(ref.Start) {
		t.Fatalf("decode(encode) = %+v, %v; want %+v", got, err, ref)
	}
	// The second 23:30 of a fall-back night is another instant, so another id.
	later := ref
	later.Start = ref.Start.Add(time.Hour)
	if encodeSlotID(key, later) == id {
		t.Fatal("two instants got one slot id")
	}
	raw, _ := base64.RawURLEncoding.DecodeString(id[len(slotPrefix):])
	for i := range raw {
		bad := bytes.Clone(raw)
		bad[i] ^= 1
		if _, err := decodeSlotID(key, slotPrefix+base64.RawURLEncoding.EncodeToString(bad)); err == nil {
			t.Fatalf("flipping a bit of byte %d was accepted", i)
		}
	}
	// Each id has one spelling: another last character that decodes to the same bytes is refused.
	last := id[len(id)-1]
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") {
		if c != last {
			if _, err := decodeSlotID(key, id[:len(id)-1]+string(c)); err == nil {
				t.Fatalf("slot id with last character %q for %q accepted", c, last)
			}
		}
	}
	other := bytes.Repeat([]byte{8}, 32)
	for _, s := range []string{"", "slot_", "slot_!!", id + "A", id[:len(id)-2], "12345", encodeSlotID(other, ref), slotPrefix + string(bytes.Repeat([]byte("A"), 200))} {
		if _, err := decodeSlotID(key, s); err == nil {
			t.Fatalf("decodeSlotID(%q) accepted", s)
		}
	}
}
