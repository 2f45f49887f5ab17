package webhook

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/db"
)

// maxRecordBatch bounds one recording transaction, so the writer connection is never held for
// long by the dispatcher.
const maxRecordBatch = 256

// recordWindow is how long finished attempts may wait to be written. A commit costs as much as
// a dozen recorded attempts (every page it changed goes to the WAL), so attempts that finish
// close together share one; nobody waits for the record (the next attempt is already on its
// way), and a crash inside the window only means those deliveries are sent again after the
// restart (at-least-once).
const recordWindow = 5 * time.Millisecond

// write is the dispatcher's writer: it records finished attempts and runs the claim rounds the
// loop asks for, until both channels are closed. A claim round takes the attempts finished so
// far into its own transaction, so under load one commit carries both, and the pages they
// share (the deliveries rows and their index) go to the WAL once. Attempts that finish while
// no round is asked for are written within recordWindow of the first of them.
func (d *Dispatcher) write(c *claimer, asks <-chan claimAsk, results <-chan result, rounds chan<- claimed) {
	batch := make([]result, 0, maxRecordBatch)
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
			rounds <- c.round(ask, batch)
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
func gather(results <-chan result, batch []result) []result {
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
func (d *Dispatcher) recordBatch(batch []result) {
	ctx := context.Background()
	var err error
	for try, wait := 0, 50*time.Millisecond; try < 5; try, wait = try+1, wait*2 {
		var tally outcomeTally
		if err = d.quietTx(ctx, func(q *db.Queries) error {
			tally = outcomeTally{}
			return d.apply(ctx, q, batch, &tally)
		}); err == nil {
			d.committed(tally)
			return
		}
		time.Sleep(wait)
	}
	d.log.Error("recording webhook attempts failed; writing them one by one", "attempts", len(batch), "err", err)
	for _, r := range batch {
		var tally outcomeTally
		if err := d.quietTx(ctx, func(q *db.Queries) error {
			return d.apply(ctx, q, []result{r}, &tally)
		}); err != nil {
			d.log.Error("webhook attempt not recorded; the delivery is due again at the next start", "delivery", r.deliveryID, "event", r.eventID, "err", err)
			continue
		}
		d.committed(tally)
	}
}

// outcomeTally counts what one transaction did, for the metrics once it has committed.
type outcomeTally struct {
	succeeded, retried, failed, gone, missed int
	deactivated                              []deactivation
}

type deactivation struct {
	webhookID int64
	reason    string
	missed    int
}

// committed publishes what a committed transaction did. A retry or a deactivation changes
// what is due, so it kicks the dispatcher's loop.
func (d *Dispatcher) committed(t outcomeTally) {
	d.metrics.count(t)
	if t.retried > 0 || len(t.deactivated) > 0 {
		select {
		case d.kick <- struct{}{}:
		default:
		}
	}
	for _, x := range t.deactivated {
		d.log.Warn("webhook deactivated", "webhook", x.webhookID, "reason", x.reason, "missed_deliveries", x.missed)
	}
}

// apply writes each attempt and its consequences: the delivery's new state, the webhook's last
// success, and deactivation (SPEC §6) on 410 Gone or when a delivery exhausts its schedule
// with no success to the endpoint since its series began.
func (d *Dispatcher) apply(ctx context.Context, q *db.Queries, batch []result, tally *outcomeTally) error {
	successes := map[int64]int64{} // webhook → end of its latest 2xx in this batch
	for _, r := range batch {
		at := db.Millis(r.startedAt.Add(r.duration))
		if err := q.InsertDeliveryAttempt(ctx, db.InsertDeliveryAttemptParams{
			DeliveryID: r.deliveryID, Attempt: int64(r.attempt), StartedAt: db.Millis(r.startedAt),
			DurationMs: r.duration.Milliseconds(), StatusCode: sql.NullInt64{Int64: int64(r.status), Valid: r.status != 0},
			ErrorCategory: sql.NullString{String: r.category, Valid: r.category != ""}, ErrorMessage: r.message,
			RequestHeaders: r.reqHeader, ResponseHeaders: r.respHeader, ResponseBody: r.respBody,
		}); err != nil {
			return fmt.Errorf("delivery %d: log attempt: %w", r.deliveryID, err)
		}
		p := db.RecordDeliveryAttemptParams{
			ID: r.deliveryID, Attempts: int64(r.attempt), At: sqlMillis(at),
			Status: sql.NullInt64{Int64: int64(r.status), Valid: r.status != 0},
		}
		switch r.decision.Verdict {
		case Delivered:
			p.NewState = StateSucceeded
			tally.succeeded++
		case Retry:
			p.NewState, p.NextAttemptAt = StatePending, sqlMillis(db.Millis(r.decision.Next))
			tally.retried++
		case Gone:
			p.NewState = StateFailed
			tally.gone++
		default:
			p.NewState = StateFailed
			tally.failed++
		}
		if err := q.RecordDeliveryAttempt(ctx, p); err != nil {
			return fmt.Errorf("delivery %d: record attempt: %w", r.deliveryID, err)
		}

		var reason string
		switch r.decision.Verdict {
		case Delivered:
			successes[r.webhookID] = max(successes[r.webhookID], at)
		case Gone:
			reason = "410 Gone from receiver"
		case Exhausted:
			last, err := q.GetWebhookLastSuccess(ctx, r.webhookID)
			if db.IsNotFound(err) {
				continue // deleted meanwhile
			}
			if err != nil {
				return err
			}
			if max(last, successes[r.webhookID]) < db.Millis(r.seriesAt) {
				reason = fmt.Sprintf("delivery of %s failed %d times over %s with no successful delivery since %s",
					r.eventID, r.series, roughly(r.startedAt.Sub(r.seriesAt)), r.seriesAt.UTC().Format(time.RFC3339))
			}
		}
		if reason == "" {
			continue
		}
		done, missed, err := deactivate(ctx, q, r.webhookID, reason, at)
		if err != nil {
			return err
		}
		if done {
			tally.missed += missed
			tally.deactivated = append(tally.deactivated, deactivation{r.webhookID, reason, missed})
		}
	}
	for id, at := range successes {
		if err := q.MarkWebhookSuccess(ctx, db.MarkWebhookSuccessParams{ID: id, At: sqlMillis(at)}); err != nil {
			return err
		}
	}
	return nil
}

// deactivate stops deliveries to a webhook: its pending deliveries become missed, and so will
// matching events until it is reactivated (Enqueue sees the state).
// It reports false if the webhook was already deactivated or is gone.
func deactivate(ctx context.Context, q *db.Queries, webhookID int64, reason string, at int64) (bool, int, error) {
	n, err := q.DeactivateWebhook(ctx, db.DeactivateWebhookParams{
		ID: webhookID, DeactivatedReason: sql.NullString{String: reason, Valid: true},
		DeactivatedAt: sqlMillis(at), UpdatedAt: at,
	})
	if err != nil || n == 0 {
		return false, 0, err
	}
	missed, err := q.MissPendingDeliveries(ctx, db.MissPendingDeliveriesParams{WebhookID: webhookID, UpdatedAt: at})
	return err == nil, int(missed), err
}

// roughly formats a duration for a message: whole seconds and up, milliseconds below.
func roughly(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return formatStep(d.Round(time.Second))
}

// quietTx is db.InTx without the after-commit hooks. The hooks exist to wake the dispatcher
// when someone else commits outbox rows; its own bookkeeping (recording attempts, handing
// claims back) must not wake it, or every write would trigger a useless claim round. Its hot
// statements run prepared (prepared.go).
func (d *Dispatcher) quietTx(ctx context.Context, fn func(q *db.Queries) error) error {
	tx, err := d.db.Write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer d.prepared.prepareSeen(context.WithoutCancel(ctx), d.db.Write)
	if err := fn(db.New(preparedTx{tx, &d.prepared})); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
