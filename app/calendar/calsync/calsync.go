// Package calsync is the worker that polls providers' own calendars (docs/calendars.md) and
// stores what they hold as busy time (app/calendar): an ICS address by a conditional GET, a
// CalDAV account by discovery and a calendar-query REPORT over the horizon (caldav.go). Every
// request goes through the webhooks' HTTP client (app/webhook/dispatch): the dial-time guard
// against loopback and private addresses unless the owner opted in for that connection, no
// redirects followed behind its back (this package follows a few itself, each dial guarded),
// no proxy; responses are read up to a size limit, and each poll has a timeout. A failing poll
// keeps the last good busy time; the admin shows the connection stale after StaleAfter.
package calsync

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/app/ical"
	"frontdesk/app/secrets"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
)

// Defaults of the worker's bounds.
const (
	DefaultInterval   = 5 * time.Minute
	MinInterval       = time.Minute
	DefaultStaleAfter = 2 * time.Hour
	DefaultTimeout    = 30 * time.Second
	DefaultMaxBytes   = 8 << 20
	// DefaultHorizon is how far ahead busy time is read: bookings are rarely offered further.
	DefaultHorizon = 400 * 24 * time.Hour
	// expandBudget bounds the time spent expanding one calendar's recurrences.
	expandBudget = 10 * time.Second
	maxRedirects = 5
	batch        = 16
)

// Worker polls the connections that are due, one at a time.
type Worker struct {
	DB  *db.DB
	Box *secrets.Box // opens CalDAV passwords
	Log *slog.Logger
	Now func() time.Time
	// Interval is the time between two polls of one connection (at least MinInterval).
	Interval time.Duration
	// StaleAfter is the age of the last good sync past which a connection is stale.
	StaleAfter time.Duration
	Timeout    time.Duration // one poll, every request of it included
	MaxBytes   int64         // one response body
	Horizon    time.Duration

	guarded, open *http.Client
	wake          chan struct{}
}

// New returns a worker with the default bounds.
func New(d *db.DB, box *secrets.Box, log *slog.Logger, now func() time.Time) *Worker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Worker{DB: d, Box: box, Log: log, Now: now, Interval: DefaultInterval, StaleAfter: DefaultStaleAfter,
		Timeout: DefaultTimeout, MaxBytes: DefaultMaxBytes, Horizon: DefaultHorizon, wake: make(chan struct{}, 1)}
}

func (w *Worker) clients() {
	if w.guarded == nil {
		w.guarded = dispatch.NewHTTPClient(w.Timeout, false, 2)
		w.open = dispatch.NewHTTPClient(w.Timeout, true, 2)
	}
}

// Wake makes a running worker look for due connections now (a connection was saved).
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run polls due connections until ctx ends, looking again at least every minute.
func (w *Worker) Run(ctx context.Context) error {
	for {
		if err := w.PollDue(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.Log.ErrorContext(ctx, "calendar sync", "err", err)
		}
		t := time.NewTimer(w.untilNext(ctx))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-w.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

func (w *Worker) untilNext(ctx context.Context) time.Duration {
	r, err := w.DB.R.CalendarNextPoll(ctx)
	if err != nil || r.N == 0 {
		return time.Minute
	}
	d := time.UnixMilli(r.At).Sub(w.Now())
	return min(max(d, time.Second), time.Minute)
}

// PollDue marks stale connections, then polls every connection that is due.
func (w *Worker) PollDue(ctx context.Context) error {
	now := w.Now()
	if _, err := calendar.MarkStale(ctx, w.DB, w.staleAfter(), now); err != nil {
		return err
	}
	for {
		due, err := w.DB.R.CalendarConnectionsDue(ctx, db.CalendarConnectionsDueParams{NextPollAt: now.UnixMilli(), Limit: batch})
		if err != nil {
			return err
		}
		for _, c := range due {
			if err := w.Poll(ctx, c); err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if len(due) < batch {
			return nil
		}
	}
}

func (w *Worker) staleAfter() time.Duration {
	if w.StaleAfter <= 0 {
		return DefaultStaleAfter
	}
	return w.StaleAfter
}

func (w *Worker) interval() time.Duration { return max(w.Interval, MinInterval) }

// Poll syncs one connection now: the next poll is set first, so a poll that crashes is not
// retried in a loop. A failure is recorded on the connection (and returned); the busy time
// stored stays.
func (w *Worker) Poll(ctx context.Context, c db.CalendarConnection) error {
	now := w.Now()
	if err := w.DB.InTx(ctx, func(q *db.Queries) error {
		return q.CalendarPollStarted(ctx, db.CalendarPollStartedParams{
			LastAttemptAt: nullMillis(now), NextPollAt: now.Add(w.interval()).UnixMilli(), ID: c.ID})
	}); err != nil {
		return err
	}
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	pctx, cancel := context.WithTimeout(ctx, timeout+expandBudget)
	defer cancel()
	err := w.poll(pctx, c, now)
	if err != nil {
		w.Log.WarnContext(ctx, "calendar sync failed", "provider", c.ProviderID, "err", err)
		if ferr := calendar.Failed(ctx, w.DB, c, reason(err)); ferr != nil {
			return ferr
		}
	}
	return err
}

func (w *Worker) poll(ctx context.Context, c db.CalendarConnection, now time.Time) error {
	w.clients()
	zoneName, err := w.DB.R.CalendarProviderZone(ctx, c.ProviderID)
	if err != nil {
		return err
	}
	zone, err := time.LoadLocation(zoneName)
	if err != nil {
		return err
	}
	calendarID, err := w.DB.R.CalendarID(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	opts := calendar.Options{
		From: now.Add(-24 * time.Hour), Until: now.Add(w.horizon()), Zone: zone,
		AllDay: c.AllDayBusy, Summaries: c.RevealSummary,
		// The bookings this installation wrote into the calendar (push.go) are its own.
		Ours: ical.UIDSuffix(calendarID),
	}
	h := &fetcher{client: w.guarded, max: w.maxBytes()}
	if c.AllowPrivate {
		h.client = w.open
	}
	switch c.Kind {
	case calendar.KindICS:
		return w.pollICS(ctx, h, c, opts, now)
	case calendar.KindCalDAV:
		password, err := calendar.Password(w.Box, c)
		if err != nil {
			return err
		}
		h.user, h.password = c.Username, password
		return w.pollCalDAV(ctx, h, c, opts, now)
	}
	return fmt.Errorf("unknown kind %q", c.Kind)
}

func (w *Worker) horizon() time.Duration {
	if w.Horizon <= 0 {
		return DefaultHorizon
	}
	return w.Horizon
}

func (w *Worker) maxBytes() int64 {
	if w.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return w.MaxBytes
}

func (w *Worker) pollICS(ctx context.Context, h *fetcher, c db.CalendarConnection, opts calendar.Options, now time.Time) error {
	// The stored tag is the feed's ETag and the day it was read on: the horizon moves with the
	// days, so a feed is read whole at least once a day even when the server says it is unchanged.
	day := opts.From.Format("2006-01-02")
	header := http.Header{"Accept": {"text/calendar, */*;q=0.5"}}
	if etag, ok := strings.CutSuffix(c.Etag, " "+day); ok && etag != "" && c.Digest != "" {
		header.Set("If-None-Match", etag)
	}
	resp, body, err := h.do(ctx, http.MethodGet, c.URL, header, nil)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusNotModified {
		return calendar.Unchanged(ctx, w.DB, c, now)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the calendar address answered %s", resp.Status)
	}
	opts.Deadline = time.Now().Add(expandBudget)
	r, err := calendar.Parse(body, opts)
	if err != nil {
		return err
	}
	etag := ""
	if e := resp.Header.Get("ETag"); e != "" && len(e) < 200 {
		etag = e + " " + day
	}
	if err := calendar.Synced(ctx, w.DB, c, r.Blocks, etag, now); err != nil {
		return err
	}
	if r.Truncated {
		return calendar.Failed(ctx, w.DB, c, fmt.Sprintf("the calendar holds more than %d events ahead; the earliest are used", calendar.MaxBlocks))
	}
	return nil
}

// fetcher sends one poll's requests: the guarded (or, by the owner's opt-in, open) client,
// redirects followed up to maxRedirects (each new address dialled through the guard), bodies
// read up to max bytes, basic authentication for CalDAV.
type fetcher struct {
	client         *http.Client
	max            int64
	user, password string
}

// ErrTooLarge says a response was larger than the limit.
var ErrTooLarge = errors.New("response too large")

func (f *fetcher) do(ctx context.Context, method, rawURL string, header http.Header, body []byte) (*http.Response, []byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, err
	}
	origin := u.Host
	for range maxRedirects + 1 {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bodyReader(body))
		if err != nil {
			return nil, nil, err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		req.Header.Set("User-Agent", "frontdesk-calendar-sync")
		if f.user != "" && u.Host == origin { // credentials never go to another host
			req.SetBasicAuth(f.user, f.password)
		}
		resp, err := f.client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		switch resp.StatusCode {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			resp.Body.Close()
			next, err := u.Parse(resp.Header.Get("Location"))
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") {
				return nil, nil, fmt.Errorf("redirect to %q refused", resp.Header.Get("Location"))
			}
			if resp.StatusCode == http.StatusSeeOther {
				method, body = http.MethodGet, nil
			}
			u = next
			continue
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, f.max+1))
		if err != nil {
			return nil, nil, err
		}
		if int64(len(data)) > f.max {
			return nil, nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, f.max)
		}
		resp.Request = req
		return resp, data, nil
	}
	return nil, nil, fmt.Errorf("more than %d redirects", maxRedirects)
}

func bodyReader(b []byte) io.Reader {
	if b == nil {
		return nil
	}
	return bytes.NewReader(b)
}

// reason is what the admin shows of a failed poll: the category of a network failure
// (dispatch.Categorize, as for webhooks) with the error.
func reason(err error) string {
	if c := dispatch.Categorize(err); c != "" && c != dispatch.CategoryOther {
		return c + ": " + err.Error()
	}
	return err.Error()
}

func nullMillis(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: t.UnixMilli(), Valid: true} }
