package dispatch

import (
	"context"
	"database/sql"
	"time"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// target is where and how one webhook's deliveries are sent right now.
type target struct {
	url  string
	keys [][]byte
	// maxConcurrency bounds its deliveries in flight (queue.Bounded; docs/webhooks.md, "Slow
	// endpoints").
	maxConcurrency int
}

// MaxConcurrency implements queue.Bounded.
func (t target) MaxConcurrency() int { return t.maxConcurrency }

// job is one claimed delivery attempt, everything send.go needs to make it.
type job struct {
	deliveryID int64
	webhookID  int64
	eventID    string
	body       []byte
	attempt    int       // this attempt's number over the delivery's life, 1-based
	series     int       // its number within the current series, 1-based (the schedule's)
	seriesAt   time.Time // when the current series began
	url        string
	keys       [][]byte // signing keys, newest first
}

func jobOf(j queue.Job[webhook.Payload], t target) job {
	return job{
		deliveryID: j.ID, webhookID: j.Target, eventID: j.Payload.EventID, body: j.Payload.Body,
		attempt: j.Attempt, series: j.Series, seriesAt: j.SeriesAt, url: t.url, keys: t.keys,
	}
}

// Send makes one attempt (queue.Sender).
func (d *Dispatcher) Send(j queue.Job[webhook.Payload], t target) result {
	return d.attempt(jobOf(j, t))
}

// store is the deliveries table as app/queue claims from it: one target per active webhook.
// Reading per webhook through deliveries_pending (migration 00100) means a round reads only
// the rows it takes. A claimed delivery has next_attempt_at = NULL (see
// db/migrations/00030_webhook_engine.sql).
type store struct{ d *Dispatcher }

func (s store) ClaimFirst(ctx context.Context, q *db.Queries, webhookID int64, now time.Time, lim int) ([]queue.Job[webhook.Payload], error) {
	rows, err := q.ClaimDueFirstAttempts(ctx, db.ClaimDueFirstAttemptsParams{WebhookID: webhookID, Now: sqlMillis(db.Millis(now)), Lim: int64(lim)})
	if err != nil {
		return nil, err
	}
	jobs := make([]queue.Job[webhook.Payload], len(rows))
	for i, r := range rows {
		seriesAt := db.Time(r.CreatedAt)
		if r.RestartedAt.Valid {
			seriesAt = db.Time(r.RestartedAt.Int64)
		}
		jobs[i] = queue.Job[webhook.Payload]{
			ID: r.ID, Target: webhookID, Payload: webhook.Payload{EventID: r.EventID, Body: r.Body},
			Attempt: int(r.Attempts) + 1, Series: 1, SeriesAt: seriesAt, Due: seriesAt,
			// A restarted series (replay of missed events, recover, resend) is sent one at a
			// time in the log's order, so the receiver gets the oldest first.
			Ordered: r.RestartedAt.Valid,
		}
	}
	return jobs, nil
}

// ClaimRetries reads due retries first and claims them by id in the same transaction, so each
// keeps the time it became due.
func (s store) ClaimRetries(ctx context.Context, q *db.Queries, webhookID int64, now time.Time, lim int) ([]queue.Job[webhook.Payload], error) {
	rows, err := q.ListDueRetries(ctx, db.ListDueRetriesParams{WebhookID: webhookID, Now: sqlMillis(db.Millis(now)), Lim: int64(lim)})
	if err != nil {
		return nil, err
	}
	var jobs []queue.Job[webhook.Payload]
	for _, r := range rows {
		ok, err := q.ClaimDelivery(ctx, r.ID)
		if err != nil {
			return jobs, err
		}
		if ok == 1 {
			jobs = append(jobs, queue.Job[webhook.Payload]{
				ID: r.ID, Target: webhookID, Payload: webhook.Payload{EventID: r.EventID, Body: r.Body},
				Attempt: int(r.Attempts) + 1, Series: int(r.Attempts-r.SeriesBase) + 1,
				SeriesAt: db.Time(r.SeriesAt), Due: nullTime(r.NextAttemptAt),
			})
		}
	}
	return jobs, nil
}

func (s store) NextRetry(ctx context.Context, q *db.Queries, webhookID int64, now time.Time) (time.Time, error) {
	next, err := q.NextRetryAfter(ctx, db.NextRetryAfterParams{WebhookID: webhookID, Now: sqlMillis(db.Millis(now))})
	if err != nil || next == 0 {
		return time.Time{}, err
	}
	return db.Time(next), nil
}

func (s store) Release(ctx context.Context, q *db.Queries, id int64, due time.Time) error {
	return q.ReleaseDelivery(ctx, db.ReleaseDeliveryParams{ID: id, NextAttemptAt: sqlMillis(db.Millis(due))})
}

func (s store) ReleaseAll(ctx context.Context, q *db.Queries, now time.Time) (int64, error) {
	return q.ReleaseAllClaims(ctx, sqlMillis(db.Millis(now)))
}

// Targets loads every active webhook's URL and currently valid signing keys, each in its
// webhook's key mode (sign.go). Keys are cached by mode and secret, so this costs one small
// query.
func (s store) Targets(ctx context.Context, q *db.Queries, now time.Time) (map[int64]target, error) {
	rows, err := q.ListDispatchTargets(ctx, sqlMillis(db.Millis(now)))
	if err != nil {
		return nil, err
	}
	keys := s.d.keys
	out := make(map[int64]target, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		id := keyCacheID(r.KeyMode, r.Secret)
		key, ok := keys[id]
		if !ok {
			key, err = webhook.SigningKey(r.Secret, r.KeyMode)
			if err != nil {
				s.d.log.Error("webhook secret unusable; not signing with it", "webhook", r.ID, "err", err)
				continue
			}
			keys[id] = key
		}
		seen[id] = true
		t := out[r.ID]
		t.url, t.maxConcurrency = r.URL, int(r.MaxConcurrency)
		t.keys = append(t.keys, key)
		out[r.ID] = t
	}
	for sec := range keys {
		if !seen[sec] {
			delete(keys, sec)
		}
	}
	return out, nil
}

// keyCacheID names a signing key in the dispatcher's cache: the same secret gives another key
// in another mode.
func keyCacheID(mode, secret string) string { return mode + " " + secret }

func sqlMillis(ms int64) sql.NullInt64 { return sql.NullInt64{Int64: ms, Valid: true} }

// nullTime is a nullable millisecond column as a time, zero when NULL.
func nullTime(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return db.Time(v.Int64)
}
