package webhook

import (
	"context"
	"log/slog"
	"time"

	"frontdesk/db"
)

// DefaultRetention is how long the delivery log is kept (SPEC §6).
const DefaultRetention = 30 * 24 * time.Hour

// Pruner deletes the delivery log older than the retention period in the background: events
// (with their deliveries and attempts) and the attempts of deliveries that are still around.
// An event with a pending delivery is kept whatever its age. Missed deliveries older than the
// retention go too, so "replay missed" reaches back at most that far.
type Pruner struct {
	db        *db.DB
	retention time.Duration
	every     time.Duration
	log       *slog.Logger
	now       func() time.Time
}

// pruneBatch bounds one delete transaction, so pruning a large backlog never holds the
// writer connection for long.
const pruneBatch = 1000

// NewPruner returns a pruner for retention (<= 0: DefaultRetention) that runs hourly.
func NewPruner(d *db.DB, retention time.Duration, log *slog.Logger, now func() time.Time) *Pruner {
	if retention <= 0 {
		retention = DefaultRetention
	}
	if now == nil {
		now = time.Now
	}
	return &Pruner{db: d, retention: retention, every: time.Hour, log: log, now: now}
}

// Run prunes shortly after start and then every hour until ctx is cancelled.
func (p *Pruner) Run(ctx context.Context) error {
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if _, _, err := p.Prune(ctx); err != nil && ctx.Err() == nil {
			p.log.Error("pruning the webhook delivery log", "err", err)
		}
		t.Reset(p.every)
	}
}

// Prune deletes what is older than the retention period now and reports how many events and
// attempts went.
func (p *Pruner) Prune(ctx context.Context) (events, attempts int, err error) {
	before := db.Millis(p.now().Add(-p.retention))
	for {
		var n int64
		err := p.db.InTx(ctx, func(q *db.Queries) error {
			var err error
			n, err = q.PruneEvents(ctx, db.PruneEventsParams{Before: before, Lim: pruneBatch})
			return err
		})
		if err != nil {
			return events, attempts, err
		}
		events += int(n)
		if n < pruneBatch {
			break
		}
	}
	for {
		var n int64
		err := p.db.InTx(ctx, func(q *db.Queries) error {
			var err error
			n, err = q.PruneDeliveryAttempts(ctx, db.PruneDeliveryAttemptsParams{Before: before, Lim: pruneBatch})
			return err
		})
		if err != nil {
			return events, attempts, err
		}
		attempts += int(n)
		if n < pruneBatch {
			break
		}
	}
	if events+attempts > 0 {
		p.log.Info("pruned the webhook delivery log", "events", events, "attempts", attempts, "older_than", p.retention.String())
	}
	return events, attempts, nil
}
