package messages

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"frontdesk/db"
)

// Clients opt out of reminders with the link every reminder carries (and its List-Unsubscribe
// header, RFC 8058 one-click). The link holds a token: the client's id and an HMAC of it under
// a key of this installation (message_settings.unsubscribe_key), so it cannot be guessed or
// made for another client, and nothing needs storing per message. Confirmations, notices,
// payment requests and receipts still go: they are about something the client did.

// UnsubscribePath is where the public opt-out page lives.
const UnsubscribePath = "/messages/unsubscribe/"

// ErrBadToken is returned for an unsubscribe token that is not one of ours.
var ErrBadToken = errors.New("not a valid unsubscribe link")

func (s *Service) unsubscribeKey(ctx context.Context, q *db.Queries) ([]byte, error) {
	row, err := q.GetMessageSettings(ctx)
	if err != nil {
		return nil, err
	}
	return row.UnsubscribeKey, nil
}

func tokenFor(key []byte, clientID int64) string {
	id := strconv.FormatInt(clientID, 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("unsubscribe:" + id))
	return id + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:18])
}

// UnsubscribeURL is the absolute opt-out link of a client, or "" without a public URL.
func (s *Service) UnsubscribeURL(ctx context.Context, clientID int64) string {
	if s.links == nil || clientID == 0 {
		return ""
	}
	key, err := s.unsubscribeKey(ctx, s.db.R)
	if err != nil {
		return ""
	}
	return s.links.URL(UnsubscribePath+tokenFor(key, clientID), nil)
}

// checkToken returns the client a token is for.
func (s *Service) checkToken(ctx context.Context, token string) (int64, error) {
	idPart, _, ok := strings.Cut(token, ".")
	id, err := strconv.ParseInt(idPart, 10, 64)
	if !ok || err != nil || id < 1 || len(token) > 64 {
		return 0, ErrBadToken
	}
	key, err := s.unsubscribeKey(ctx, s.db.R)
	if err != nil {
		return 0, err
	}
	if !hmac.Equal([]byte(tokenFor(key, id)), []byte(token)) {
		return 0, ErrBadToken
	}
	return id, nil
}

// Subscription says whether the client of token gets reminders.
func (s *Service) Subscription(ctx context.Context, token string) (optedOut bool, err error) {
	id, err := s.checkToken(ctx, token)
	if err != nil {
		return false, err
	}
	return s.db.R.ClientOptedOut(ctx, id)
}

// SetReminders opts the client of token out of reminders (on false) or back in (on true). A
// client deleted meanwhile has nothing to change.
func (s *Service) SetReminders(ctx context.Context, token string, on bool) error {
	id, err := s.checkToken(ctx, token)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if ok, err := q.ClientExists(ctx, id); err != nil || !ok {
			return err
		}
		if on {
			return q.DeleteOptout(ctx, id)
		}
		return q.InsertOptout(ctx, db.InsertOptoutParams{ClientID: id, CreatedAt: db.Millis(s.now())})
	})
}
