package calsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/calendar"
	"frontdesk/app/ical"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

// Bookings written into providers' CalDAV calendars (docs/calendars.md, "Bookings in your
// calendar"). The outbox is calendar_pushes (db/migrations/00590_calendar_push.sql): triggers
// queue a booking in the transaction of its change. The Pusher takes the due rows and brings
// the calendar to the booking as it is when it sends, so several changes make one request:
//
//   - a booking to show (not cancelled, on the slot grid, not a class seat) whose provider has a
//     push calendar is PUT at <calendar>/<UID>.ics: If-None-Match: * when it is new there,
//     If-Match with the ETag the server gave the last write otherwise; a 412 (the provider
//     edited or deleted the event) is answered by writing it again, since the booking is what
//     it must show;
//   - an event the booking no longer has there (cancelled, deleted, moved to another provider,
//     or the owner chose another calendar or none) is DELETEd; a 404 or 410 is success.
//
// A failure leaves the row due after a backoff (30 s doubling up to an hour, without end): a
// calendar server that is down only delays its bookings. Requests go through the pull's
// guarded client (dial-time SSRF guard, the owner's opt-in for a private address).

// Bounds of the pusher.
const (
	pushBatch    = 32
	pushFirstTry = 30 * time.Second
	pushMaxDelay = time.Hour
)

// Pusher writes due bookings into their providers' calendars, one at a time.
type Pusher struct {
	DB      *db.DB
	Box     *secrets.Box // opens CalDAV passwords
	Log     *slog.Logger
	Now     func() time.Time
	Timeout time.Duration // one request
	// LookEvery spaces the rounds a stream of commits wakes Run for (pushLookEvery).
	LookEvery time.Duration

	guarded, open *http.Client
	wake          chan struct{}
	looks         atomic.Int64 // rounds of PushDue that Run started
	lastLook      atomic.Int64 // when the last of them started, in Unix nanoseconds
}

// pushLookEvery spaces the rounds a stream of commits wakes the pusher for. Every commit wakes
// it (the database's AfterCommit hook) and each round reads the due bookings, so under a
// stream of writes it would read them hundreds of times a second — for most commits there is
// nothing to push. A wake after a quiet spell looks at once; one that comes sooner waits for
// the rest of the interval and takes every commit made meanwhile with it.
const pushLookEvery = 250 * time.Millisecond

// NewPusher returns a pusher with the default bounds.
func NewPusher(d *db.DB, box *secrets.Box, log *slog.Logger, now func() time.Time) *Pusher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pusher{DB: d, Box: box, Log: log, Now: now, Timeout: DefaultTimeout, LookEvery: pushLookEvery, wake: make(chan struct{}, 1)}
}

// Wake makes a running pusher look for due bookings now (a booking or the push calendar
// changed: the database's AfterCommit hook).
func (p *Pusher) Wake() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run pushes due bookings until ctx ends, looking again when woken, when the next retry is due,
// and at least every minute.
func (p *Pusher) Run(ctx context.Context) error {
	for {
		p.lastLook.Store(time.Now().UnixNano())
		p.looks.Add(1)
		if err := p.PushDue(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.Log.ErrorContext(ctx, "calendar push", "err", err)
		}
		t := time.NewTimer(p.untilNext(ctx))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-p.wake:
			t.Stop()
			if err := waitUntil(ctx, time.Unix(0, p.lastLook.Load()).Add(p.LookEvery)); err != nil {
				return err
			}
		case <-t.C:
		}
		t.Stop()
	}
}

// waitUntil returns at when (at once if it has passed), or with ctx's error once ctx ends first.
func waitUntil(ctx context.Context, when time.Time) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Until(when)):
		return nil
	}
}

func (p *Pusher) untilNext(ctx context.Context) time.Duration {
	r, err := p.DB.R.CalendarPushNext(ctx)
	if err != nil || r.N == 0 {
		return time.Minute
	}
	return min(max(time.UnixMilli(r.At).Sub(p.Now()), time.Second), time.Minute)
}

// PushDue pushes every booking that is due. A connection that fails is not tried again in the
// same round: its other bookings wait for their own retry.
func (p *Pusher) PushDue(ctx context.Context) error {
	down := map[int64]error{}
	for {
		now := p.Now()
		due, err := p.DB.R.CalendarPushesDue(ctx, db.CalendarPushesDueParams{DueAt: sql.NullInt64{Int64: now.UnixMilli(), Valid: true}, Limit: pushBatch})
		if err != nil {
			return err
		}
		progress := false
		for _, row := range due {
			if err := p.pushRow(ctx, row, down); err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			progress = true
		}
		if len(due) < pushBatch || !progress {
			return nil
		}
	}
}

// pushRow brings one booking's event up to date, recording the outcome on its row; down holds
// the connections that failed this round.
func (p *Pusher) pushRow(ctx context.Context, row db.CalendarPush, down map[int64]error) error {
	now := p.Now()
	err := p.push(ctx, row, down)
	if err == nil {
		return nil
	}
	p.Log.WarnContext(ctx, "calendar push failed", "booking", row.BookingID, "err", err)
	msg := []rune(reason(err))
	if len(msg) > 500 {
		msg = msg[:500]
	}
	if rerr := p.DB.InTxQuiet(ctx, func(q *db.Queries) error {
		return q.CalendarPushFailed(ctx, db.CalendarPushFailedParams{
			LastError: string(msg), AttemptedAt: nullMillis(now), Version: row.Version,
			RetryAt: nullMillis(now.Add(pushDelay(row.Attempts))), BookingID: row.BookingID,
		})
	}); rerr != nil {
		return rerr
	}
	return err
}

// pushDelay is the wait before the retry that follows attempts failures.
func pushDelay(attempts int64) time.Duration {
	if attempts >= 7 {
		return pushMaxDelay
	}
	return min(pushFirstTry<<attempts, pushMaxDelay)
}

// target is where a booking's event belongs: the connection and the object's URL, none when it
// belongs on no calendar.
type target struct {
	conn db.CalendarConnection
	href string
	b    db.CalendarPushBookingRow
}

func (p *Pusher) target(ctx context.Context, bookingID int64) (target, bool, error) {
	b, err := p.DB.R.CalendarPushBooking(ctx, bookingID)
	if errors.Is(err, sql.ErrNoRows) {
		return target{}, false, nil
	}
	if err != nil {
		return target{}, false, err
	}
	if b.StatusID == booking.StatusCancelled || !b.Scheduled || b.SessionID.Valid {
		return target{}, false, nil
	}
	conn, err := p.DB.R.CalendarConnectionByProvider(ctx, b.ProviderID)
	if errors.Is(err, sql.ErrNoRows) {
		return target{}, false, nil
	}
	if err != nil {
		return target{}, false, err
	}
	cal, err := p.DB.R.CalendarPushSource(ctx, conn.ID)
	if errors.Is(err, sql.ErrNoRows) || conn.Kind != calendar.KindCalDAV {
		return target{}, false, nil
	}
	if err != nil {
		return target{}, false, err
	}
	calendarID, err := p.calendarID(ctx)
	if err != nil {
		return target{}, false, err
	}
	base, err := url.Parse(cal)
	if err != nil {
		return target{}, false, err
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	obj, err := base.Parse(url.PathEscape(ical.UID(b.ID, calendarID)) + ".ics")
	if err != nil {
		return target{}, false, err
	}
	return target{conn: conn, href: obj.String(), b: b}, true, nil
}

func (p *Pusher) calendarID(ctx context.Context) (string, error) {
	id, err := p.DB.R.CalendarID(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errors.New("no site settings: the installation's calendar id is missing")
	}
	return id, err
}

func (p *Pusher) push(ctx context.Context, row db.CalendarPush, down map[int64]error) error {
	to, ok, err := p.target(ctx, row.BookingID)
	if err != nil {
		return err
	}
	if row.Href != "" && (!ok || row.Href != to.href) {
		if err := p.remove(ctx, row, down); err != nil {
			return err
		}
		if err := p.DB.InTxQuiet(ctx, func(q *db.Queries) error {
			return q.CalendarPushPlaced(ctx, db.CalendarPushPlacedParams{BookingID: row.BookingID})
		}); err != nil {
			return err
		}
		row.ConnectionID, row.Href, row.Etag = sql.NullInt64{}, "", ""
	}
	if ok {
		etag, err := p.write(ctx, row, to, down)
		if err != nil {
			return err
		}
		if err := p.DB.InTxQuiet(ctx, func(q *db.Queries) error {
			return q.CalendarPushPlaced(ctx, db.CalendarPushPlacedParams{ConnectionID: sql.NullInt64{Int64: to.conn.ID, Valid: true},
				Href: to.href, Etag: etag, BookingID: row.BookingID})
		}); err != nil {
			return err
		}
	}
	now := p.Now()
	return p.DB.InTxQuiet(ctx, func(q *db.Queries) error {
		if err := q.CalendarPushDone(ctx, db.CalendarPushDoneParams{AttemptedAt: nullMillis(now), Version: row.Version, BookingID: row.BookingID}); err != nil {
			return err
		}
		if !ok {
			// Nothing of it is on a calendar: the row goes unless the booking changed meanwhile.
			return q.CalendarPushForget(ctx, db.CalendarPushForgetParams{BookingID: row.BookingID, Version: row.Version})
		}
		return nil
	})
}

func (p *Pusher) timeout() time.Duration {
	if p.Timeout <= 0 {
		return DefaultTimeout
	}
	return p.Timeout
}

// client is the account's requests for connection c.
func (p *Pusher) client(c db.CalendarConnection) (*fetcher, error) {
	if p.guarded == nil {
		w := Worker{Timeout: p.timeout()}
		w.clients()
		p.guarded, p.open = w.guarded, w.open
	}
	password, err := calendar.Password(p.Box, c)
	if err != nil {
		return nil, err
	}
	f := &fetcher{client: p.guarded, max: 1 << 20, user: c.Username, password: password}
	if c.AllowPrivate {
		f.client = p.open
	}
	return f, nil
}

// remove deletes the event where row says it is; a connection that is gone took its
// credentials with it, so the event stays there (docs/calendars.md).
func (p *Pusher) remove(ctx context.Context, row db.CalendarPush, down map[int64]error) error {
	if !row.ConnectionID.Valid {
		return nil
	}
	c, err := p.DB.R.CalendarConnection(ctx, row.ConnectionID.Int64)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := down[c.ID]; err != nil {
		return err
	}
	f, err := p.client(c)
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	resp, _, err := f.do(rctx, http.MethodDelete, row.Href, http.Header{}, nil)
	if err != nil {
		down[c.ID] = err
		return err
	}
	switch {
	case resp.StatusCode/100 == 2, resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusGone:
	default:
		return fmt.Errorf("DELETE %s answered %s", resp.Request.URL.Redacted(), resp.Status)
	}
	return nil
}

// write PUTs the booking's event at to and returns the ETag the server gave it.
func (p *Pusher) write(ctx context.Context, row db.CalendarPush, to target, down map[int64]error) (string, error) {
	if err := down[to.conn.ID]; err != nil {
		return "", err
	}
	f, err := p.client(to.conn)
	if err != nil {
		return "", err
	}
	calendarID, err := p.calendarID(ctx)
	if err != nil {
		return "", err
	}
	b := to.b
	zone, err := booking.LoadZone(b.Timezone)
	if err != nil {
		zone = nil // UTC
	}
	body := ical.Object(ical.Event{
		UID: ical.UID(b.ID, calendarID), Sequence: ical.FeedSequence(b.ChangeCount, false, b.Version),
		Start: db.Time(b.StartAt), End: db.Time(b.EndAt), Stamp: db.Time(b.UpdatedAt),
		Summary: Summary(b.ServiceName, b.FirstName), Location: b.LocationName,
		Tentative: b.StatusID == booking.StatusReserved,
	}, zone)
	header := http.Header{"Content-Type": {"text/calendar; charset=utf-8"}}
	switch {
	case row.Href != to.href:
		header.Set("If-None-Match", "*")
	case row.Etag != "":
		header.Set("If-Match", row.Etag)
	}
	rctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	for range 2 {
		resp, _, err := f.do(rctx, http.MethodPut, to.href, header, body)
		if err != nil {
			down[to.conn.ID] = err
			return "", err
		}
		switch {
		case resp.StatusCode/100 == 2:
			return resp.Header.Get("ETag"), nil
		case resp.StatusCode == http.StatusPreconditionFailed:
			// Changed or deleted in the calendar (or there already): the booking wins.
			header.Del("If-None-Match")
			header.Del("If-Match")
			continue
		case resp.StatusCode == http.StatusUnauthorized:
			return "", errors.New("the CalDAV server refused the user name or app password (401)")
		default:
			return "", fmt.Errorf("PUT %s answered %s", resp.Request.URL.Redacted(), resp.Status)
		}
	}
	return "", fmt.Errorf("PUT %s: the event changed on the server while it was written", to.href)
}

// Summary is the title of a booking's event in the provider's calendar: the service and the
// client's first name, nothing more (no last name, phone, email or notes: the calendar is
// often kept by a third party, and shared).
func Summary(service, firstName string) string {
	var parts []string
	for _, s := range []string{service, firstName} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}
