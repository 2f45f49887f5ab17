package queue

import (
	"context"
	"log/slog"
	"time"

	"frontdesk/db"
)

// PruneStep deletes up to lim rows of one log that are older than before and reports how many
// it deleted.
type PruneStep struct {
	Name string // what the rows are, for the log line ("events", "attempts")
	Run  func(ctx context.Context, q *db.Queries, before int64, lim int64) (int64, error)
}

// Pruner deletes a queue's log older than its retention in the background, step by step, each
// in bounded transactions so pruning a large backlog never holds the writer for long.
type Pruner struct {
	db        *db.DB
	name      string
	steps     []PruneStep
	retention time.Duration
	every     time.Duration
	log       *slog.Logger
	now       func() time.Time
}

// pruneBatch bounds one delete transaction.
const pruneBatch = 1000

// NewPruner returns a pruner for retention that runs hourly. name says whose log it is.
func NewPruner(d *db.DB, name string, retention time.Duration, steps []PruneStep, log *slog.Logger, now func() time.Time) *Pruner {
	if now == nil {
		now = time.Now
	}
	return &Pruner{db: d, name: name, steps: steps, retention: retention, every: time.Hour, log: log, now: now}
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
		if _, err := p.Prune(ctx); err != nil && ctx.Err() == nil {
			p.log.Error("pruning the "+p.name+" log", "err", err)
		}
		t.Reset(p.every)
	}
}

// Prune deletes what is older than the retention period now and reports how many rows each
// step deleted, in step order.
func (p *Pruner) Prune(ctx context.Context) ([]int, error) {
	before := db.Millis(p.now().Add(-p.retention))
	counts := make([]int, len(p.steps))
	total := 0
	attrs := []any{}
	for i, step := range p.steps {
		for {
			var n int64
			err := p.db.InTx(ctx, func(q *db.Queries) error {
				var err error
				n, err = step.Run(ctx, q, before, pruneBatch)
				return err
			})
			if err != nil {
				return counts, err
			}
			counts[i] += int(n)
			if n < pruneBatch {
				break
			}
		}
		total += counts[i]
		attrs = append(attrs, step.Name, counts[i])
	}
	if total > 0 {
		p.log.Info("pruned the "+p.name+" log", append(attrs, "older_than", p.retention.String())...)
	}
	return counts, nil
}
