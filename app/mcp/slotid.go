package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// A slot id names one offered start: location, service, provider and instant, signed with
// HMAC-SHA256 under a key that exists only in the database (mcp_settings.slot_key). A model
// can pass one back but cannot make one up or edit one, so it books only times that
// find_free_times offered; booking still runs every rule again, because the time may have been
// taken since.
//
// Layout: "slot_" + base64url(version byte, four unsigned varints, the first 16 bytes of the
// MAC over everything before it). 128 bits of MAC is far beyond guessing.

type slotRef struct {
	LocationID, ServiceID, ProviderID int64
	Start                             time.Time // a whole second
}

const (
	slotPrefix  = "slot_"
	slotVersion = 1
	slotMACLen  = 16
	maxSlotID   = 80 // characters; real ones are about 50
)

var errBadSlotID = errors.New("not a slot id that find_free_times gave")

func encodeSlotID(key []byte, s slotRef) string {
	buf := []byte{slotVersion}
	for _, v := range []int64{s.LocationID, s.ServiceID, s.ProviderID, s.Start.Unix()} {
		buf = binary.AppendUvarint(buf, uint64(v))
	}
	buf = append(buf, slotMAC(key, buf)...)
	return slotPrefix + base64.RawURLEncoding.EncodeToString(buf)
}

func decodeSlotID(key []byte, id string) (slotRef, error) {
	if len(id) > maxSlotID || !strings.HasPrefix(id, slotPrefix) {
		return slotRef{}, errBadSlotID
	}
	buf, err := base64.RawURLEncoding.Strict().DecodeString(id[len(slotPrefix):]) // one spelling per id
	if err != nil || len(buf) < 1+4+slotMACLen || buf[0] != slotVersion {
		return slotRef{}, errBadSlotID
	}
	body, mac := buf[:len(buf)-slotMACLen], buf[len(buf)-slotMACLen:]
	if !hmac.Equal(mac, slotMAC(key, body)) {
		return slotRef{}, errBadSlotID
	}
	var v [4]int64
	rest := body[1:]
	for i := range v {
		x, n := binary.Uvarint(rest)
		if n <= 0 || x > 1<<62 {
			return slotRef{}, errBadSlotID
		}
		v[i], rest = int64(x), rest[n:]
	}
	if len(rest) != 0 {
		return slotRef{}, errBadSlotID
	}
	return slotRef{LocationID: v[0], ServiceID: v[1], ProviderID: v[2], Start: time.Unix(v[3], 0)}, nil
}

func slotMAC(key, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("frontdesk slot id\x00"))
	m.Write(body)
	return m.Sum(nil)[:slotMACLen]
}
