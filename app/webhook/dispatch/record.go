package dispatch

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sync"
	"time"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// Record writes finished attempts (queue.Store). The tally becomes metrics and log lines once
// the transaction has committed; a retry or a deactivation changes what is due.
func (s store) Record(ctx context.Context, q *db.Queries, batch []result) (queue.Committed, error) {
	var tally outcomeTally
	if err := s.d.apply(ctx, q, batch, &tally); err != nil {
		return queue.Committed{}, err
	}
	return queue.Committed{
		Reschedule: tally.retried > 0 || len(tally.deactivated) > 0,
		After: func() {
			s.d.texts.keep(tally.texts)
			s.d.committed(tally)
		},
	}, nil
}

// outcomeTally counts what one transaction did, for the metrics once it has committed.
type outcomeTally struct {
	succeeded, retried, failed, gone, missed int
	deactivated                              []deactivation
	// texts are the log texts this transaction looked up or refreshed, for the cache once
	// it has committed.
	texts map[string]textRef
}

type deactivation struct {
	webhookID int64
	reason    string
	missed    int
}

// committed publishes what a committed transaction did.
func (d *Dispatcher) committed(t outcomeTally) {
	d.metrics.count(t)
	for _, x := range t.deactivated {
		d.log.Warn("webhook deactivated", "webhook", x.webhookID, "reason", x.reason, "missed_deliveries", x.missed)
	}
}

// apply writes each attempt and its consequences: the delivery's new state, the webhook's last
// success, and deactivation (docs/webhooks.md) on 410 Gone or when a delivery exhausts its schedule
// with no success to the endpoint since its series began.
func (d *Dispatcher) apply(ctx context.Context, q *db.Queries, batch []result, tally *outcomeTally) error {
	successes := map[int64]int64{} // webhook → end of its latest 2xx in this batch
	for _, r := range batch {
		at := db.Millis(r.startedAt.Add(r.duration))
		texts, err := d.textIDs(ctx, q, at, tally, r.reqHeader, r.respHeader, r.respBody)
		if err != nil {
			return fmt.Errorf("delivery %d: log attempt: %w", r.deliveryID, err)
		}
		p := db.RecordDeliveryAttemptParams{
			ID: r.deliveryID, Attempts: int64(r.attempt), At: sqlMillis(at),
			Status: sql.NullInt64{Int64: int64(r.status), Valid: r.status != 0},
		}
		switch r.decision.Verdict {
		case Delivered:
			p.NewState = webhook.StateSucceeded
			tally.succeeded++
		case Retry:
			p.NewState, p.NextAttemptAt = webhook.StatePending, sqlMillis(db.Millis(r.decision.Next))
			tally.retried++
		case Gone:
			p.NewState = webhook.StateFailed
			tally.gone++
		default:
			p.NewState = webhook.StateFailed
			tally.failed++
		}
		n, err := q.RecordDeliveryAttempt(ctx, p)
		if err != nil {
			return fmt.Errorf("delivery %d: record attempt: %w", r.deliveryID, err)
		}
		if n == 0 {
			continue // deleted with its webhook while in flight: nothing to log it against
		}
		if err := q.InsertDeliveryAttempt(ctx, db.InsertDeliveryAttemptParams{
			DeliveryID: r.deliveryID, Attempt: int64(r.attempt), StartedAt: db.Millis(r.startedAt),
			DurationMs: r.duration.Milliseconds(), StatusCode: sql.NullInt64{Int64: int64(r.status), Valid: r.status != 0},
			ErrorCategory: sql.NullString{String: r.category, Valid: r.category != ""}, ErrorMessage: r.message,
			RequestHeadersID: texts[0], Signature: sql.NullString{String: r.signature, Valid: r.reqHeader != "" || r.signature != ""},
			ResponseHeadersID: texts[1], ResponseDate: sql.NullString{String: r.respDate, Valid: r.respDate != ""},
			ResponseBodyID: texts[2],
		}); err != nil {
			return fmt.Errorf("delivery %d: log attempt: %w", r.deliveryID, err)
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
	return queue.FormatStep(d.Round(time.Second))
}

// LogAttrs names the attempt in the queue's log lines.
// Healthy implements queue.Healthy: a timeout, a refused connection, 429 or a 5xx says the
// endpoint is overloaded, and its concurrency backs off (app/queue/adapt.go).
func (r result) Healthy() bool {
	switch {
	case r.category == CategoryTimeout || r.category == CategoryConnect:
		return false
	case r.status == http.StatusTooManyRequests || r.status >= 500:
		return false
	}
	return true
}

func (r result) LogAttrs() []any { return []any{"delivery", r.deliveryID, "event", r.eventID} }

// textIDs returns the ids of the delivery log texts, stored once each (log.go): from the cache
// of committed texts while their last use is fresh, else looked up, inserted or refreshed in
// the transaction and noted in tally for the cache.
func (d *Dispatcher) textIDs(ctx context.Context, q *db.Queries, at int64, tally *outcomeTally, texts ...string) ([]int64, error) {
	ids := make([]int64, len(texts))
	fresh := at - webhook.LogTextRefresh.Milliseconds()
	for i, t := range texts {
		if ref, ok := tally.texts[t]; ok && ref.lastUsed >= fresh {
			ids[i] = ref.id
			continue
		}
		if ref, ok := d.texts.get(t); ok && ref.lastUsed >= fresh {
			ids[i] = ref.id
			continue
		}
		found, err := q.FindDeliveryText(ctx, t)
		switch {
		case err == nil && found.LastUsedAt >= fresh:
			ids[i] = found.ID
			tally.noteText(t, textRef{found.ID, found.LastUsedAt})
			continue
		case err != nil && !db.IsNotFound(err):
			return nil, err
		}
		if ids[i], err = q.UpsertDeliveryText(ctx, db.UpsertDeliveryTextParams{Text: t, At: at}); err != nil {
			return nil, err
		}
		tally.noteText(t, textRef{ids[i], at})
	}
	return ids, nil
}

func (t *outcomeTally) noteText(text string, ref textRef) {
	if t.texts == nil {
		t.texts = map[string]textRef{}
	}
	t.texts[text] = ref
}

// textRef is a stored log text: its id and when it was last marked used.
type textRef struct {
	id       int64
	lastUsed int64
}

// maxCachedTexts bounds the cache of log texts; past it the cache starts over.
const maxCachedTexts = 1024

// textCache holds committed log texts, so recording an attempt to an endpoint that answers
// alike costs no lookup. Only texts whose transaction committed enter it.
type textCache struct {
	mu sync.Mutex
	m  map[string]textRef
}

func (c *textCache) get(text string) (textRef, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[text]
	return r, ok
}

func (c *textCache) keep(texts map[string]textRef) {
	if len(texts) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m)+len(texts) > maxCachedTexts {
		c.m = make(map[string]textRef, len(texts))
	}
	for t, r := range texts {
		c.m[t] = r
	}
}
