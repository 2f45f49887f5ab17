// Package managelink makes and reads the personal links customers manage a booking with
// (/book/manage/{token}: see it, reschedule, cancel, add it to a calendar; docs/booking-site.md).
//
// A token is 32 random bytes in unpadded base64url (43 characters, 256 bits): unguessable, so
// the link alone is the credential, and there is nothing to enumerate. Only its SHA-256 is
// stored; a database copy does not give anyone a working link.
//
// A link names a booking, not a state of it: after a reschedule every link of the booking
// shows the new time, and after a cancel every link shows the cancellation. A link works until
// a day after the booking ends (Grace), then it is a plain 404 like a wrong token.
//
// New writes inside the caller's transaction, so whoever creates a booking (the booking site)
// or sends its emails (customer messages) can hand out a link that exists exactly when the
// booking does.
package managelink

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"frontdesk/app/fail"
	"frontdesk/db"
)

// Grace is how long after the end of its booking a link keeps working.
const Grace = 24 * time.Hour

// PathPrefix is where the booking site serves manage pages; Path(token) is a link's path.
const PathPrefix = "/book/manage/"

// tokenLen is the length of a token's text: 32 bytes in unpadded base64url.
const tokenLen = 43

// ErrNotFound says a token is malformed, unknown or expired: the three look the same from
// outside.
var ErrNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "manage_link", Message: "manage link not found"}

// New creates a link to booking bookingID inside the caller's transaction q and returns its
// token, which exists nowhere else: show it or send it now.
func New(ctx context.Context, q *db.Queries, bookingID int64, now time.Time) (string, error) {
	var raw [32]byte
	rand.Read(raw[:]) // never fails (crypto/rand)
	token := base64.RawURLEncoding.EncodeToString(raw[:])
	err := q.InsertManageLink(ctx, db.InsertManageLinkParams{BookingID: bookingID, TokenHash: Hash(token), CreatedAt: db.Millis(now)})
	if err != nil {
		return "", err
	}
	return token, nil
}

// Find returns the booking a token links to. A malformed, unknown or expired token is
// ErrNotFound.
func Find(ctx context.Context, q *db.Queries, token string, now time.Time) (int64, error) {
	if !wellFormed(token) {
		return 0, ErrNotFound
	}
	row, err := q.ManageLinkBooking(ctx, Hash(token))
	if db.IsNotFound(err) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	if !now.Before(db.Time(row.EndAt).Add(Grace)) {
		return 0, ErrNotFound
	}
	return row.BookingID, nil
}

// Path is the site path of a link ("/book/manage/<token>"); build the absolute URL with the
// public URL (app/links).
func Path(token string) string { return PathPrefix + token }

// Hash is what is stored of a token.
func Hash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

func wellFormed(token string) bool {
	if len(token) != tokenLen {
		return false
	}
	for _, c := range token {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
