package queue

import (
	"context"
	"time"

	"frontdesk/db"
)

// maxRecordBatch bounds one recording transaction, so the writer connection is never held for
// long by a dispatcher.
const maxRecordBatch = 256

// recordWindow is how long finished attempts may wait to be written. A commit costs as much as
// a dozen recorded attempts (every page it changed goes to the WAL), so attempts that finish
// close together share one; nobody waits for the record (the next attempt is already on its
// way), and a crash inside the window only means those rows are sent again after the restart
// (at-least-once).
const recordWindow = 5 * time.Millisecond

// write is the dispatcher's writer: it records finished attempts and runs the claim rounds the
// loop asks for, until both channels are closed. A claim round takes the attempts finished so
// far into its own transaction, so under load one commit carries both, and the pages they
// share (the rows and their index) go to the WAL once. Attempts that finish while no round is
// asked for are written within recordWindow of the first of them.
func (d *Dispatcher[P, T, R]) write(asks <-chan Ask, results <-chan R, rounds chan<- Claimed[P, T]) {
	// The batch grows as attempts finish and keeps its size for the next one: an idle
	// dispatcher holds none of it (a full batch is 88 KB for webhooks).
	var batch []R
	window := time.NewTimer(time.Hour)
	window.Stop()
	flush := func() {
		window.Stop()
		if len(batch) > 0 {
			d.recordBatch(batch)
			batch = batch[:0]
		}
	}
	for asks != nil || results != nil {
		select {
		case ask, ok := <-asks:
			if !ok {
				asks = nil
				continue
			}
			window.Stop()
			batch = gather(results, batch)
			rounds <- d.Round(ask, batch)
			batch = batch[:0]
		case r, ok := <-results:
			if !ok {
				results = nil
				flush()
				continue
			}
			batch = append(batch, r)
			if len(batch) == 1 {
				window.Reset(recordWindow)
			}
			if len(batch) == maxRecordBatch {
				flush()
			}
		case <-window.C:
			flush()
		}
	}
}

// gather adds the results waiting in results to batch, up to maxRecordBatch.
func gather[R any](results <-chan R, batch []R) []R {
	for results != nil && len(batch) < maxRecordBatch {
		select {
		case r, ok := <-results:
			if !ok {
				return batch
			}
			batch = append(batch, r)
		default:
			return batch
		}
	}
	return batch
}

// recordBatch writes a batch, retrying a failed transaction for a while; if the batch as a
// whole keeps failing, each attempt is written on its own so that one bad row cannot lose the
// others. What still cannot be written stays claimed and becomes due at the next start.
func (d *Dispatcher[P, T, R]) recordBatch(batch []R) {
	ctx := context.Background()
	var err error
	for try, wait := 0, 50*time.Millisecond; try < 5; try, wait = try+1, wait*2 {
		var done Committed
		if err = d.quietTx(ctx, func(q *db.Queries) error {
			var err error
			done, err = d.store.Record(ctx, q, batch)
			return err
		}); err == nil {
			d.committed(done)
			return
		}
		time.Sleep(wait)
	}
	d.log.Error("recording "+d.cfg.Name+" attempts failed; writing them one by one", "attempts", len(batch), "err", err)
	for _, r := range batch {
		var done Committed
		if err := d.quietTx(ctx, func(q *db.Queries) error {
			var err error
			done, err = d.store.Record(ctx, q, []R{r})
			return err
		}); err != nil {
			attrs := []any{"err", err}
			if l, ok := any(r).(interface{ LogAttrs() []any }); ok {
				attrs = append(l.LogAttrs(), attrs...)
			}
			d.log.Error(d.cfg.Name+" attempt not recorded; it is due again at the next start", attrs...)
			continue
		}
		d.committed(done)
	}
}

// committed acts on what a committed transaction did. A retry or a closed target changes what
// is due, so it kicks the dispatcher's loop.
func (d *Dispatcher[P, T, R]) committed(c Committed) {
	if c.After != nil {
		c.After()
	}
	if c.Reschedule {
		d.Kick()
	}
}

// quietTx is db.InTxQuiet: the dispatcher's own bookkeeping (claiming, recording attempts,
// handing claims back) goes through the group committer like every other write, so it shares a
// commit with the writes waiting beside it (the very bookings whose outbox rows it claims) and
// never competes with them for the writer connection; but its commit alone wakes nobody, or
// every round would trigger another. The committer's statement cache runs its statements
// prepared.
func (d *Dispatcher[P, T, R]) quietTx(ctx context.Context, fn func(q *db.Queries) error) error {
	return d.db.InTxQuiet(ctx, fn)
}
