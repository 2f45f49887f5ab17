package calendar

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/secrets"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// Kinds of connection.
const (
	KindICS    = "ics"
	KindCalDAV = "caldav"
)

// sealPurpose binds a sealed CalDAV password to its use (app/secrets).
const sealPurpose = "calendar.caldav.password"

// Settings is what the owner chooses for a provider's calendar.
type Settings struct {
	Kind     string // KindICS or KindCalDAV
	URL      string // the feed (ICS) or the server (CalDAV)
	Username string // CalDAV
	// Password is the CalDAV app password; empty on an update keeps the stored one.
	Password string
	// AllowPrivate is the owner's opt-in to a loopback or private address.
	AllowPrivate bool
	// AllDay: all-day events block their whole days.
	AllDay bool
	// RevealSummary: an event's summary may be shown to the team.
	RevealSummary bool
	// StaleBlocks: busy time not refreshed for the stale age still blocks.
	StaleBlocks bool
}

// Connection is a provider's calendar as the admin shows it.
type Connection struct {
	ID, ProviderID int64
	Settings
	HasPassword bool
	// Stale: the last good sync is older than the stale age.
	Stale       bool
	LastSuccess time.Time // zero: never
	LastAttempt time.Time // zero: never
	LastError   string
	Blocks      int64
}

// FromRow is the admin's view of a stored connection (no password).
func FromRow(r db.CalendarConnection) Connection {
	c := Connection{ID: r.ID, ProviderID: r.ProviderID, Settings: Settings{
		Kind: r.Kind, URL: r.URL, Username: r.Username, AllowPrivate: r.AllowPrivate,
		AllDay: r.AllDayBusy, RevealSummary: r.RevealSummary, StaleBlocks: r.StaleBlocks,
	}, HasPassword: r.PasswordSealed != "", Stale: r.Stale, LastError: r.LastError}
	if r.LastSuccessAt.Valid {
		c.LastSuccess = db.Time(r.LastSuccessAt.Int64)
	}
	if r.LastAttemptAt.Valid {
		c.LastAttempt = db.Time(r.LastAttemptAt.Int64)
	}
	return c
}

// ErrNotConnected says the provider has no calendar connection.
var ErrNotConnected = fail.NotFound("calendar connection")

// Get reads providerID's connection.
func Get(ctx context.Context, q *db.Queries, providerID int64) (Connection, error) {
	r, err := q.CalendarConnectionByProvider(ctx, providerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Connection{}, ErrNotConnected
	}
	if err != nil {
		return Connection{}, err
	}
	c := FromRow(r)
	c.Blocks, err = q.CalendarBusyCount(ctx, r.ID)
	return c, err
}

// Validate checks what the owner typed, naming the field at fault. A URL whose host is a
// literal loopback or private address (or "localhost") is refused without AllowPrivate, as for
// webhooks; names are checked when dialled (app/calendar/sync).
func (s Settings) Validate() error {
	if s.Kind != KindICS && s.Kind != KindCalDAV {
		return fail.Invalid("kind", "choose an ICS address or a CalDAV account")
	}
	u := s.URL
	if strings.HasPrefix(strings.ToLower(u), "webcal://") { // what Apple's and Google's share buttons give
		u = "https://" + u[len("webcal://"):]
	}
	if err := webhook.ValidateURL(u); err != nil {
		msg := strings.TrimPrefix(err.Error(), webhook.ErrInvalidURL.Error()+": ")
		return fail.Invalid("url", "%s", msg)
	}
	if !s.AllowPrivate {
		if err := webhook.CheckLiteralHost(u); err != nil {
			return fail.Invalid("url", "%s", strings.TrimPrefix(err.Error(), webhook.ErrPrivateTarget.Error()+": "))
		}
	}
	if s.Kind == KindCalDAV && strings.TrimSpace(s.Username) == "" {
		return fail.Invalid("username", "enter the account's user name")
	}
	for _, f := range []struct{ name, v string }{{"username", s.Username}, {"password", s.Password}} {
		if utf8.RuneCountInString(f.v) > 256 || !utf8.ValidString(f.v) || strings.ContainsAny(f.v, "\r\n\x00") {
			return fail.Invalid(f.name, "at most 256 characters on one line")
		}
	}
	return nil
}

// NormalURL is the URL as stored: webcal:// becomes https://.
func (s Settings) NormalURL() string {
	if strings.HasPrefix(strings.ToLower(s.URL), "webcal://") {
		return "https://" + s.URL[len("webcal://"):]
	}
	return s.URL
}

// Connect stores providerID's calendar (a new one, or new settings for the one it has), the
// password sealed with box. The next poll is due at once; busy blocks already stored stay until
// it replaces them.
func Connect(ctx context.Context, d *db.DB, box *secrets.Box, providerID int64, s Settings, now time.Time) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if s.Kind == KindICS {
		s.Username, s.Password = "", ""
	}
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetProvider(ctx, providerID); errors.Is(err, sql.ErrNoRows) {
			return fail.NotFound("provider")
		} else if err != nil {
			return err
		}
		cur, err := q.CalendarConnectionByProvider(ctx, providerID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		sealed := cur.PasswordSealed
		if s.Password != "" {
			if box == nil {
				return errors.New("calendar: no secrets box to seal the password with")
			}
			if sealed, err = box.Seal(sealPurpose, s.Password); err != nil {
				return err
			}
		}
		if s.Kind == KindICS || (cur.Kind != "" && cur.Kind != s.Kind && s.Password == "") {
			sealed = ""
		}
		if s.Kind == KindCalDAV && sealed == "" {
			return fail.Invalid("password", "enter the account's app password")
		}
		ms := now.UnixMilli()
		action := "provider.calendar_connected"
		if cur.ID == 0 {
			id, err = q.InsertCalendarConnection(ctx, db.InsertCalendarConnectionParams{
				ProviderID: providerID, Kind: s.Kind, URL: s.NormalURL(), Username: s.Username, PasswordSealed: sealed,
				AllowPrivate: s.AllowPrivate, AllDayBusy: s.AllDay, RevealSummary: s.RevealSummary, StaleBlocks: s.StaleBlocks,
				CreatedAt: ms, UpdatedAt: ms,
			})
			if err != nil {
				return err
			}
		} else {
			id, action = cur.ID, "provider.calendar_updated"
			if err := q.UpdateCalendarConnection(ctx, db.UpdateCalendarConnectionParams{
				Kind: s.Kind, URL: s.NormalURL(), Username: s.Username, PasswordSealed: sealed,
				AllowPrivate: s.AllowPrivate, AllDayBusy: s.AllDay, RevealSummary: s.RevealSummary, StaleBlocks: s.StaleBlocks,
				UpdatedAt: ms, ID: cur.ID,
			}); err != nil {
				return err
			}
			if cur.Kind != s.Kind || cur.URL != s.NormalURL() || cur.Username != s.Username {
				// Another account: its calendars are not the old one's, and the password of the
				// new one must never reach the old one's server, so the events written there stay
				// there, no longer managed.
				if err := q.DeleteCalendarSources(ctx, cur.ID); err != nil {
					return err
				}
				if err := q.CalendarPushDetach(ctx, sql.NullInt64{Int64: cur.ID, Valid: true}); err != nil {
					return err
				}
			}
			if !s.RevealSummary && cur.RevealSummary {
				// Summaries the provider no longer allows go now, not at the next poll.
				if err := q.ClearCalendarSummaries(ctx, cur.ID); err != nil {
					return err
				}
			}
		}
		after := Settings{Kind: s.Kind, URL: s.NormalURL(), Username: s.Username, AllowPrivate: s.AllowPrivate,
			AllDay: s.AllDay, RevealSummary: s.RevealSummary, StaleBlocks: s.StaleBlocks}
		before := Settings{}
		if cur.ID != 0 {
			before = FromRow(cur).Settings
		}
		changes := activity.Diff(before, after, "password")
		if s.Password != "" {
			changes["password"] = [2]any{activity.Hidden, activity.Hidden}
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: action, EntityID: providerID, Changes: changes})
	})
	return id, err
}

// Disconnect removes providerID's calendar and the busy time it gave.
func Disconnect(ctx context.Context, d *db.DB, providerID int64, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		cur, err := q.CalendarConnectionByProvider(ctx, providerID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotConnected
		}
		if err != nil {
			return err
		}
		if err := q.DeleteCalendarBusy(ctx, cur.ID); err != nil {
			return err
		}
		if _, err := q.DeleteCalendarConnection(ctx, cur.ID); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "provider.calendar_disconnected", EntityID: providerID,
			Changes: activity.Changes{"calendar": {cur.URL, nil}}})
	})
}

// Password opens a connection's sealed CalDAV password.
func Password(box *secrets.Box, c db.CalendarConnection) (string, error) {
	if c.PasswordSealed == "" {
		return "", nil
	}
	if box == nil {
		return "", errors.New("calendar: no secrets box to open the password with")
	}
	p, err := box.Open(sealPurpose, c.PasswordSealed)
	if err != nil {
		return "", fmt.Errorf("calendar password: %w", err)
	}
	return p, nil
}
