package calendar

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"time"

	"frontdesk/db"
)

// Digest names a set of blocks: a sync that finds the same busy time as the last writes no
// block, so the slot engine's kept busy time stays valid.
func Digest(blocks []Block) string {
	h := sha256.New()
	var b [16]byte
	for _, x := range blocks {
		binary.BigEndian.PutUint64(b[:8], uint64(x.Start.UnixMilli()))
		binary.BigEndian.PutUint64(b[8:], uint64(x.End.UnixMilli()))
		h.Write(b[:])
		h.Write([]byte(x.Summary))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Synced stores a good sync of connection c: its busy blocks (replacing the last ones unless
// they are the same), the tag the server gave, and the time, which clears a stale warning.
func Synced(ctx context.Context, d *db.DB, c db.CalendarConnection, blocks []Block, etag string, now time.Time) error {
	digest := Digest(blocks)
	return d.InTx(ctx, func(q *db.Queries) error {
		if digest != c.Digest {
			if err := q.DeleteCalendarBusy(ctx, c.ID); err != nil {
				return err
			}
			for _, b := range blocks {
				if err := q.InsertCalendarBusy(ctx, db.InsertCalendarBusyParams{
					ConnectionID: c.ID, ProviderID: c.ProviderID,
					StartsAt: b.Start.UnixMilli(), EndsAt: b.End.UnixMilli(), Summary: b.Summary,
				}); err != nil {
					return err
				}
			}
		}
		return q.CalendarPollSucceeded(ctx, db.CalendarPollSucceededParams{
			Etag: etag, Digest: digest, LastSuccessAt: sql.NullInt64{Int64: now.UnixMilli(), Valid: true}, ID: c.ID,
		})
	})
}

// Unchanged records a poll the server answered with "not modified": the busy time stored is
// still the calendar's.
func Unchanged(ctx context.Context, d *db.DB, c db.CalendarConnection, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		return q.CalendarPollSucceeded(ctx, db.CalendarPollSucceededParams{
			Etag: c.Etag, Digest: c.Digest, LastSuccessAt: sql.NullInt64{Int64: now.UnixMilli(), Valid: true}, ID: c.ID,
		})
	})
}

// Failed records a poll that failed; the busy time stored stays as it was.
func Failed(ctx context.Context, d *db.DB, c db.CalendarConnection, reason string) error {
	if r := []rune(reason); len(r) > 500 {
		reason = string(r[:500])
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		return q.CalendarPollFailed(ctx, db.CalendarPollFailedParams{LastError: reason, ID: c.ID})
	})
}

// MarkStale marks every connection whose last good sync is older than age as stale, which
// takes its busy time out of slot searches when its owner chose so (stale_blocks = 0).
func MarkStale(ctx context.Context, d *db.DB, age time.Duration, now time.Time) (int64, error) {
	var n int64
	err := d.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = q.CalendarMarkStale(ctx, sql.NullInt64{Int64: now.Add(-age).UnixMilli(), Valid: true})
		return err
	})
	return n, err
}

// Source is one calendar of a CalDAV account: whether its events count as busy, whether
// bookings are written to it, and the tag the server gave it when it was last listed.
type Source struct {
	ID         int64
	Href, Name string
	Busy, Push bool
	Tag        string
}

// SaveSources keeps connection id's list of calendars as the server listed it: a calendar seen
// for the first time counts as busy (the owner may untick it), one the server no longer lists is
// forgotten. It returns the list with the owner's choices and the tags just listed.
func SaveSources(ctx context.Context, d *db.DB, id int64, listed []Source) ([]Source, error) {
	tags := map[string]string{}
	hrefs := make([]string, 0, len(listed))
	for _, s := range listed {
		tags[s.Href] = s.Tag
		hrefs = append(hrefs, s.Href)
	}
	var out []Source
	err := d.InTx(ctx, func(q *db.Queries) error {
		out = out[:0]
		for _, s := range listed {
			if err := q.UpsertCalendarSource(ctx, db.UpsertCalendarSourceParams{ConnectionID: id, Href: s.Href, Name: s.Name, Busy: true}); err != nil {
				return err
			}
		}
		if len(hrefs) == 0 {
			hrefs = append(hrefs, "")
		}
		if err := q.DeleteCalendarSourcesExcept(ctx, db.DeleteCalendarSourcesExceptParams{ConnectionID: id, Hrefs: hrefs}); err != nil {
			return err
		}
		rows, err := q.CalendarSources(ctx, id)
		if err != nil {
			return err
		}
		for _, r := range rows {
			out = append(out, Source{ID: r.ID, Href: r.Href, Name: r.Name, Busy: r.Busy, Push: r.Push, Tag: tags[r.Href]})
		}
		return nil
	})
	return out, err
}

// Sources reads connection id's calendars as last listed.
func Sources(ctx context.Context, q *db.Queries, id int64) ([]Source, error) {
	rows, err := q.CalendarSources(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]Source, len(rows))
	for i, r := range rows {
		out[i] = Source{ID: r.ID, Href: r.Href, Name: r.Name, Busy: r.Busy, Push: r.Push}
	}
	return out, nil
}

// ChooseSources records which of connection id's calendars count as busy (busy[source id]) and
// which one bookings are written to (push; 0 for none; an id not among them counts as none).
// A new push calendar queues the provider's coming bookings, and those already written
// elsewhere, to be written where they now belong. The next poll reads them all again.
func ChooseSources(ctx context.Context, d *db.DB, id int64, busy map[int64]bool, push int64, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		rows, err := q.CalendarSources(ctx, id)
		if err != nil {
			return err
		}
		moved := false
		for _, r := range rows {
			moved = moved || r.Push != (r.ID == push)
			if err := q.SetCalendarSourceChoice(ctx, db.SetCalendarSourceChoiceParams{Busy: busy[r.ID], Push: r.ID == push, ConnectionID: id, ID: r.ID}); err != nil {
				return err
			}
		}
		if moved {
			c, err := q.CalendarConnection(ctx, id)
			if err != nil {
				return err
			}
			if err := pushAgain(ctx, q, c.ProviderID, id, push != 0, now); err != nil {
				return err
			}
		}
		return q.ResetCalendarPoll(ctx, id)
	})
}
