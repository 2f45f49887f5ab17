package payments

import (
	"context"
	"log/slog"
	"sync"
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
	// Checkouts, when set, closes a request's online checkout at the provider before the
	// request expires (Online.CloseForExpiry), so the customer cannot pay a released booking
	// and a payment made just before the end settles instead.
	Checkouts CheckoutCloser
	// Grace is how long past its expiry a request waits for a provider that cannot be reached
	// (default 10 min); then it expires anyway, and a late payment is flagged to the owner.
	Grace time.Duration

	mu    sync.Mutex
	retry map[int64]time.Time // requests waiting for their provider, and when to ask again
}

// CheckoutCloser closes a payment request's online checkout (Online).
type CheckoutCloser interface {
	CloseForExpiry(ctx context.Context, requestID int64) error
}

// NewExpirer returns the worker over d with the clock now.
func NewExpirer(d *db.DB, log *slog.Logger, now func() time.Time) *Expirer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Expirer{db: d, now: now, log: log, MaxWait: time.Second, Grace: 10 * time.Minute, retry: map[int64]time.Time{}}
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
	waiting := false
	for _, id := range ids {
		if !e.closeCheckout(ctx, id) {
			waiting = true
			continue
		}
		if err := e.expire(ctx, id); err != nil {
			return time.Time{}, err
		}
	}
	switch {
	case waiting:
		return e.now().Add(time.Second), nil // some wait for their provider: look again soon
	case len(ids) == expireBatch:
		return e.now(), nil // more are due: go again at once
	}
	next, err := e.db.R.NextPaymentRequestExpiry(ctx)
	if err != nil || len(next) == 0 {
		return time.Time{}, err
	}
	return db.Time(next[0].Int64), nil
}

// closeCheckout closes request id's online checkout before it expires and reports whether the
// request may expire now: yes when there was none or it is closed, and also when the provider
// has not answered for Grace past the request's expiry.
func (e *Expirer) closeCheckout(ctx context.Context, id int64) bool {
	if e.Checkouts == nil {
		return true
	}
	now := e.now()
	e.mu.Lock()
	at, waiting := e.retry[id]
	e.mu.Unlock()
	if waiting && now.Before(at) {
		return false
	}
	err := e.Checkouts.CloseForExpiry(ctx, id)
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.retry, id)
	if err == nil {
		return true
	}
	pr, err2 := e.db.R.GetPaymentRequest(ctx, id)
	if err2 != nil || !pr.ExpiresAt.Valid || !now.Before(db.Time(pr.ExpiresAt.Int64).Add(e.Grace)) {
		e.log.WarnContext(ctx, "payment request expires without its online checkout closed", "payment_request", id, "err", err)
		return true
	}
	e.log.WarnContext(ctx, "cannot close the online checkout of an expiring payment request; will retry", "payment_request", id, "err", err)
	e.retry[id] = now.Add(15 * time.Second)
	return false
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
