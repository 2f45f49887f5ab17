package replies

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"

	"frontdesk/db"
)

// Delivery statuses a provider reports of a text (Twilio's MessageStatus, WhatsApp's
// statuses[].status), kept on the message as the log shows them.
const (
	StatusSent        = "sent"
	StatusDelivered   = "delivered"
	StatusRead        = "read"
	StatusFailed      = "failed"
	StatusUndelivered = "undelivered"
)

// statusRank orders statuses: callbacks may arrive out of order (delivered before sent), and
// a later one never takes the place of one further along. failed and undelivered are final.
var statusRank = map[string]int{"accepted": 1, "scheduled": 1, "queued": 1, "sending": 2, StatusSent: 3,
	StatusDelivered: 4, StatusRead: 5, StatusUndelivered: 6, StatusFailed: 6}

// KnownStatus reports whether s is a delivery status frontdesk keeps.
func KnownStatus(s string) bool { _, ok := statusRank[s]; return ok }

// Delivery records status (with note, the provider's error) for the text the provider calls
// providerID. It reports whether such a text was found; a status no further along than the one
// kept changes nothing, so a repeated or late callback is harmless.
func (e *Engine) Delivery(ctx context.Context, providerID, status, note string) (bool, error) {
	if providerID == "" || !KnownStatus(status) {
		return false, nil
	}
	found := false
	err := e.db.InTx(ctx, func(q *db.Queries) error {
		m, err := q.MessageByProviderID(ctx, providerID)
		if db.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if statusRank[status] <= statusRank[m.DeliveryStatus] {
			return nil
		}
		if len(note) > 500 {
			note = strings.ToValidUTF8(note[:500], "")
		}
		return q.UpdateMessageDelivery(ctx, db.UpdateMessageDeliveryParams{DeliveryStatus: status, DeliveryNote: note,
			DeliveryAt: sql.NullInt64{Int64: db.Millis(e.now()), Valid: true}, ID: m.ID})
	})
	return found, err
}

// TwilioSignature is X-Twilio-Signature for a POST to fullURL with form params, under the
// account's auth token: base64 of HMAC-SHA1 over the URL followed by each parameter's name
// and value, in name order (Twilio's "Webhooks security").
func TwilioSignature(authToken, fullURL string, params url.Values) string {
	mac := hmac.New(sha1.New, []byte(authToken))
	mac.Write([]byte(fullURL))
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		vs := slices.Clone(params[k])
		slices.Sort(vs)
		for _, v := range vs {
			mac.Write([]byte(k))
			mac.Write([]byte(v))
		}
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// ValidTwilioSignature reports whether sig is the signature of the request under authToken.
// An empty token or signature never verifies.
func ValidTwilioSignature(authToken, fullURL string, params url.Values, sig string) bool {
	if authToken == "" || sig == "" {
		return false
	}
	return hmac.Equal([]byte(TwilioSignature(authToken, fullURL, params)), []byte(sig))
}

// MetaSignature is X-Hub-Signature-256 for a notification body under the app secret:
// "sha256=" and the hex HMAC-SHA256 of the raw body.
func MetaSignature(appSecret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(appSecret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// ValidMetaSignature reports whether sig signs body under appSecret. An empty secret or
// signature never verifies.
func ValidMetaSignature(appSecret string, body []byte, sig string) bool {
	if appSecret == "" || sig == "" {
		return false
	}
	return hmac.Equal([]byte(MetaSignature(appSecret, body)), []byte(sig))
}
