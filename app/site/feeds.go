package site

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/feeds"
	"frontdesk/app/middleware"
)

// Calendar feeds (app/feeds, docs/feeds.md): GET /feeds/{token}.ics, the calendar a provider's
// or a location's phone subscribes to. The token is the credential — 256 random bits, so there
// is nothing to guess and no limit is needed against guessing — and a wrong, malformed,
// rotated or turned-off token is the same plain 404. Feeds do not depend on the site being on:
// they are the owner's, not the public's.
//
// Polls are cheap: the ETag is made of change counters before any booking is read
// (feeds.Feed.Tag), so a calendar that sends If-None-Match (or If-Modified-Since) and has
// nothing new gets a 304 for a few indexed reads.

// serveFeed answers a feed, or 304 when the reader's copy is current.
func (s *Site) serveFeed(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	ctx := r.Context()
	token, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".ics")
	if !ok {
		s.feedError(w, r, feeds.ErrNotFound)
		return
	}
	f, err := feeds.Find(ctx, s.db.R, token)
	if err != nil {
		s.feedError(w, r, err)
		return
	}
	now := s.now()
	tag, err := f.Tag(ctx, s.db, now)
	if err != nil {
		s.feedError(w, r, err)
		return
	}
	modified := s.feedTimes.modified(f.ID(), tag, now)
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Last-Modified", modified.UTC().Format(http.TimeFormat))
	// Private: the URL is a secret and no shared cache may keep its answer. no-cache: a reader
	// asks each time, which costs a 304 when nothing moved.
	h.Set("Cache-Control", "private, no-cache")
	if notModified(r, tag, modified) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	cal, err := f.Load(ctx, s.db, now)
	if err != nil {
		s.feedError(w, r, err)
		return
	}
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	h.Set("Content-Disposition", `inline; filename="calendar.ics"`)
	if err := cal.Write(w); err != nil {
		// Only the connection can fail here, after the status went out.
		s.log.InfoContext(ctx, "calendar feed: writing the answer", slog.Any("err", err),
			slog.String("request_id", middleware.RequestID(ctx)))
	}
}

// feedError answers a feed request that failed: a plain 404 for any token that opens no feed,
// a logged, plain 500 for anything else. A calendar app shows neither, so neither is a page.
func (s *Site) feedError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, feeds.ErrNotFound) {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	// Never the path: it holds the token.
	s.log.ErrorContext(r.Context(), "calendar feed", slog.Any("err", err),
		slog.String("request_id", middleware.RequestID(r.Context())))
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// notModified reports whether the reader's copy is current: If-None-Match, when sent, decides by
// weak comparison (RFC 9110 §13.1.2); otherwise If-Modified-Since, against modified.
func notModified(r *http.Request, tag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		want := strings.TrimPrefix(tag, "W/")
		for part := range strings.SplitSeq(inm, ",") {
			part = strings.TrimSpace(part)
			if part == "*" || strings.TrimPrefix(part, "W/") == want {
				return true
			}
		}
		return false
	}
	since, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	return err == nil && !modified.Truncate(time.Second).After(since)
}

// feedTimes gives each feed its Last-Modified: the time its current tag was first served. A tag
// names the content, so the time it first appeared is no earlier than the change that made it;
// a new tag always gets a later second than the one before it, so a reader that asks
// If-Modified-Since with an older copy's time never gets a 304. Kept in memory: after a restart
// each feed's time starts again at its first request, which costs a reader one full answer.
type feedTimes struct {
	mu sync.Mutex
	m  map[int64]feedTime
}

type feedTime struct {
	tag string
	at  time.Time
}

func (t *feedTimes) modified(id int64, tag string, now time.Time) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil || len(t.m) > 100000 {
		t.m = map[int64]feedTime{}
	}
	cur, ok := t.m[id]
	if ok && cur.tag == tag {
		return cur.at
	}
	at := now.Truncate(time.Second)
	if ok && !at.After(cur.at) {
		at = cur.at.Add(time.Second)
	}
	t.m[id] = feedTime{tag: tag, at: at}
	return at
}
