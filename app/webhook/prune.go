package webhook

import (
	"context"
	"log/slog"
	"time"

	"frontdesk/app/queue"
	"frontdesk/db"
)

// DefaultRetention is how long the delivery log is kept (docs/webhooks.md).
const DefaultRetention = 30 * 24 * time.Hour

// Pruner deletes the delivery log older than the retention period in the background: events
// (with their deliveries and attempts) and the attempts of deliveries that are still around.
// An event with a pending delivery is kept whatever its age. Missed deliveries older than the
// retention go too, so "replay missed" reaches back at most that far.
type Pruner struct{ p *queue.Pruner }

// NewPruner returns a pruner for retention (<= 0: DefaultRetention) that runs hourly.
func NewPruner(d *db.DB, retention time.Duration, log *slog.Logger, now func() time.Time) *Pruner {
	if retention <= 0 {
		retention = DefaultRetention
	}
	return &Pruner{queue.NewPruner(d, "webhook delivery", retention, []queue.PruneStep{
		{Name: "events", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneEvents(ctx, db.PruneEventsParams{Before: before, Lim: lim})
		}},
		{Name: "attempts", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneDeliveryAttempts(ctx, db.PruneDeliveryAttemptsParams{Before: before, Lim: lim})
		}},
		// After the attempts: a text kept by a retained attempt was used at most LogTextRefresh
		// before that attempt started.
		{Name: "log texts", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneDeliveryTexts(ctx, db.PruneDeliveryTextsParams{Before: before - 2*LogTextRefresh.Milliseconds(), Lim: lim})
		}},
	}, log, now)}
}

// Run prunes shortly after start and then every hour until ctx is cancelled.
func (p *Pruner) Run(ctx context.Context) error { return p.p.Run(ctx) }

// Prune deletes what is older than the retention period now and reports how many events and
// attempts went.
func (p *Pruner) Prune(ctx context.Context) (events, attempts int, err error) {
	n, err := p.p.Prune(ctx)
	return n[0], n[1], err
}
