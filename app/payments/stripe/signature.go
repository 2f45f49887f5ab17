package stripe

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Stripe signs each webhook delivery with the endpoint's signing secret: the Stripe-Signature
// header is "t=TIMESTAMP,v1=SIGNATURE[,v1=…][,v0=…]", where a v1 signature is the hex
// HMAC-SHA256 of "TIMESTAMP.BODY" (several v1 while a secret is being rolled). These are the
// rules of Stripe's own libraries, which the tests sign with.

// signatureTolerance is how old a signed timestamp may be: older deliveries are refused as
// replays.
const signatureTolerance = 300 * time.Second

var (
	errNotSigned        = errors.New("no Stripe-Signature header")
	errInvalidHeader    = errors.New("the Stripe-Signature header is not t=…,v1=…")
	errNoValidSignature = errors.New("no v1 signature matches the body")
	errTooOld           = errors.New("the signed timestamp is more than 5 minutes old")
)

// verifySignature checks header against payload and secret at now.
func verifySignature(payload []byte, header, secret string, now time.Time) error {
	if header == "" {
		return errNotSigned
	}
	var signed time.Time
	var sigs [][]byte
	for pair := range strings.SplitSeq(header, ",") {
		name, value, ok := strings.Cut(pair, "=")
		if !ok || strings.Contains(value, "=") {
			return errInvalidHeader
		}
		switch name {
		case "t":
			ts, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return errInvalidHeader
			}
			signed = time.Unix(ts, 0)
		case "v1":
			if sig, err := hex.DecodeString(value); err == nil { // a malformed one is ignored
				sigs = append(sigs, sig)
			}
		}
	}
	if len(sigs) == 0 {
		return errNoValidSignature
	}
	if now.Sub(signed) > signatureTolerance {
		return errTooOld
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(signed.Unix(), 10)))
	mac.Write([]byte("."))
	mac.Write(payload)
	want := mac.Sum(nil)
	for _, sig := range sigs {
		if hmac.Equal(want, sig) {
			return nil
		}
	}
	return errNoValidSignature
}
