package activity

import (
	"context"
	"log/slog"
	"time"

	"frontdesk/app/queue"
	"frontdesk/db"
)

// DefaultRetention is how long entries are kept (serve --activity-retention).
const DefaultRetention = 365 * 24 * time.Hour

// Pruner deletes entries older than the retention in the background, hourly, in small batches
// (app/queue's pruner), so a year's backlog never holds the writer for long.
type Pruner struct{ p *queue.Pruner }

// NewPruner returns a pruner for retention (<= 0: DefaultRetention).
func NewPruner(d *db.DB, retention time.Duration, log *slog.Logger, now func() time.Time) *Pruner {
	if retention <= 0 {
		retention = DefaultRetention
	}
	return &Pruner{queue.NewPruner(d, "activity", retention, []queue.PruneStep{
		{Name: "entries", Run: func(ctx context.Context, q *db.Queries, before, lim int64) (int64, error) {
			return q.PruneActivity(ctx, db.PruneActivityParams{Before: before, Lim: lim})
		}},
	}, log, now)}
}

// Run prunes shortly after start and then every hour until ctx is cancelled.
func (p *Pruner) Run(ctx context.Context) error { return p.p.Run(ctx) }

// Prune deletes what is older than the retention now and reports how many entries went.
func (p *Pruner) Prune(ctx context.Context) (int, error) {
	n, err := p.p.Prune(ctx)
	return n[0], err
}
