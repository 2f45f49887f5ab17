// Package feeds keeps the calendar feeds (docs/feeds.md): a secret URL per provider, and per
// location, that Google Calendar, Apple Calendar and the like subscribe to, showing that
// provider's (or every provider's at that location) bookings and class sessions.
//
// A token is 32 random bytes in unpadded base64url (256 bits), like a manage link's
// (app/managelink): the URL alone is the credential, so it must be unguessable, and only its
// SHA-256 is stored, so a copy of the database opens no feed. Because of that the owner sees a
// feed's URL once, when it is made (turned on or rotated); rotating replaces the stored hash, so
// the old URL is a plain 404 from that moment, like a wrong or malformed token.
//
// This file holds the owner's side (Get, Issue, SetDetails, TurnOff) and Find; render.go what a
// feed shows and the tag its answers are versioned by.
package feeds

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"frontdesk/db"
)

// PathPrefix is where feeds are served; Path(token) is a feed's path.
const PathPrefix = "/feeds/"

// Path is the path of the feed with token ("/feeds/<token>.ics"); build the absolute URL with
// the public URL (app/links).
func Path(token string) string { return PathPrefix + token + ".ics" }

// tokenLen is the length of a token's text: 32 bytes in unpadded base64url.
const tokenLen = 43

// ErrNotFound says a token is malformed or unknown (the two look the same from outside), or
// that a provider or location has no feed, or does not exist.
var ErrNotFound = errors.New("calendar feed not found")

// Subject is whose day a feed shows: a provider (ProviderID) or a location (LocationID), one of
// them set.
type Subject struct{ ProviderID, LocationID int64 }

// State is what the owner's page shows of a subject's feed.
type State struct {
	On      bool
	Details bool      // events show the client's full name, phone and the booking's notes
	Since   time.Time // when the current URL was made
}

// Get reads the state of s's feed; off when it has none.
func Get(ctx context.Context, q *db.Queries, s Subject) (State, error) {
	row, err := stateRow(ctx, q, s)
	if errors.Is(err, ErrNotFound) {
		return State{}, nil
	}
	if err != nil {
		return State{}, err
	}
	return State{On: true, Details: row.Details, Since: db.Time(row.UpdatedAt)}, nil
}

type feedRow struct {
	ID        int64
	Details   bool
	UpdatedAt int64
}

func stateRow(ctx context.Context, q *db.Queries, s Subject) (feedRow, error) {
	var row feedRow
	var err error
	if s.ProviderID != 0 {
		var r db.CalendarFeedOfProviderRow
		r, err = q.CalendarFeedOfProvider(ctx, sql.NullInt64{Int64: s.ProviderID, Valid: true})
		row = feedRow{r.ID, r.Details, r.UpdatedAt}
	} else {
		var r db.CalendarFeedOfLocationRow
		r, err = q.CalendarFeedOfLocation(ctx, sql.NullInt64{Int64: s.LocationID, Valid: true})
		row = feedRow{r.ID, r.Details, r.UpdatedAt}
	}
	if db.IsNotFound(err) {
		return row, ErrNotFound
	}
	return row, err
}

// Issue turns s's feed on, or, when it is on, rotates it: either way it returns the token of
// the feed's only working URL, which exists nowhere else — show it now. The detail setting
// survives a rotation. A subject that does not exist is ErrNotFound.
func Issue(ctx context.Context, d *db.DB, s Subject, now time.Time) (string, error) {
	token, hash := newToken()
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := exists(ctx, q, s); err != nil {
			return err
		}
		row, err := stateRow(ctx, q, s)
		switch {
		case errors.Is(err, ErrNotFound):
			return q.InsertCalendarFeed(ctx, db.InsertCalendarFeedParams{
				ProviderID: nullID(s.ProviderID), LocationID: nullID(s.LocationID), TokenHash: hash, Now: db.Millis(now)})
		case err != nil:
			return err
		}
		return q.SetCalendarFeedToken(ctx, db.SetCalendarFeedTokenParams{TokenHash: hash, Now: db.Millis(now), ID: row.ID})
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// SetDetails chooses what s's feed shows of a client: the first name only (false) or the full
// name, the phone and the booking's notes (true). A subject without a feed is ErrNotFound.
func SetDetails(ctx context.Context, d *db.DB, s Subject, details bool, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		row, err := stateRow(ctx, q, s)
		if err != nil {
			return err
		}
		return q.SetCalendarFeedDetails(ctx, db.SetCalendarFeedDetailsParams{Details: details, Now: db.Millis(now), ID: row.ID})
	})
}

// TurnOff deletes s's feed: its URL answers 404 from now on. Turning off a feed that is off
// does nothing.
func TurnOff(ctx context.Context, d *db.DB, s Subject) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		row, err := stateRow(ctx, q, s)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return q.DeleteCalendarFeed(ctx, row.ID)
	})
}

func exists(ctx context.Context, q *db.Queries, s Subject) error {
	var err error
	switch {
	case s.ProviderID != 0:
		_, err = q.GetProvider(ctx, s.ProviderID)
	case s.LocationID != 0:
		_, err = q.GetLocation(ctx, s.LocationID)
	default:
		return ErrNotFound
	}
	if db.IsNotFound(err) {
		return ErrNotFound
	}
	return err
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

func newToken() (string, []byte) {
	var raw [32]byte
	rand.Read(raw[:]) // never fails (crypto/rand)
	token := base64.RawURLEncoding.EncodeToString(raw[:])
	return token, hash(token)
}

func hash(token string) []byte {
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
