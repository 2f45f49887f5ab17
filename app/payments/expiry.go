package payments

import (
	"context"
	"log/slog"
	"time"

	"frontdesk/db"
)

// Expirer is the background worker that expires pending payment requests when their
// expires_at passes: each one, in its own transaction, becomes expired, its reserved bookings
// are released, and payment_request.expired is recorded. It sleeps until the next expiry, but
// never longer than MaxWait, so a request raised meanwhile (always at least a minute out) is
// never late by more than that.
type Expirer struct {
	db  *db.DB
	now func() time.Time
	log *slog.Logger
	// MaxWait caps each sleep (default 1 s).
	MaxWait time.Duration
}

// NewExpirer returns the worker over d with the clock now.
func NewExpirer(d *db.DB, log *slog.Logger, now func() time.Time) *Expirer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Expirer{db: d, now: now, log: log, MaxWait: time.Second}
}

// expireBatch bounds one pass; a longer backlog is worked through pass after pass.
const expireBatch = 100

// Run expires due requests until ctx ends. A failing pass is logged and retried after MaxWait:
// the worker must outlive a busy or briefly failing database.
func (e *Expirer) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		wait := e.MaxWait
		if next, err := e.ExpireDue(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			e.log.ErrorContext(ctx, "expire payment requests", "err", err)
		} else if !next.IsZero() {
			wait = min(wait, max(next.Sub(e.now()), 0))
		}
		timer.Reset(wait)
	}
}

// ExpireDue expires every request that is due now and returns when the next pending request
// expires (zero: none). Run calls it; tests and tools may call it directly.
func (e *Expirer) ExpireDue(ctx context.Context) (time.Time, error) {
	ids, err := e.db.R.DuePaymentRequests(ctx, db.DuePaymentRequestsParams{ExpiresAt: nullInt(db.Millis(e.now())), Limit: expireBatch})
	if err != nil {
		return time.Time{}, err
	}
	for _, id := range ids {
		if err := e.expire(ctx, id); err != nil {
			return time.Time{}, err
		}
	}
	if len(ids) == expireBatch {
		return e.now(), nil // more are due: go again at once
	}
	next, err := e.db.R.NextPaymentRequestExpiry(ctx)
	if err != nil || len(next) == 0 {
		return time.Time{}, err
	}
	return db.Time(next[0].Int64), nil
}

// expire closes request id if it is still pending and due when the transaction runs (it may
// have been paid or cancelled since it was listed).
func (e *Expirer) expire(ctx context.Context, id int64) error {
	now := e.now()
	return e.db.InTx(ctx, func(q *db.Queries) error {
		pr, err := q.GetPaymentRequest(ctx, id)
		if err != nil || pr.Status != StatusPending || !due(pr, now) {
			return err
		}
		_, err = closePending(ctx, q, now, pr)
		return err
	})
}
