package webhook

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// The owner's recovery operations (docs/webhooks.md). Each restarts deliveries as a new attempt series
// on the same delivery row: same event, same webhook-id, the schedule from its start.

// DefaultGrace is how long a rotated-out secret keeps signing (docs/webhooks.md).
const DefaultGrace = 24 * time.Hour

// MaxGrace bounds a rotation's grace period: an old secret that signs for months is a secret
// that was never rotated.
const MaxGrace = 30 * 24 * time.Hour

// ReactivateResult says what Reactivate did.
type ReactivateResult struct {
	Reactivated bool // false if the webhook was already active
	Replayed    int  // missed deliveries queued again
}

// Reactivate resumes delivery to a deactivated webhook. With replayMissed, every delivery it
// missed while deactivated is queued again in its original order (a new attempt series);
// otherwise they stay in the log as missed and can be replayed later by calling Reactivate
// again with replayMissed. Reactivating an active webhook is not an error: it only replays.
func (m *Manager) Reactivate(ctx context.Context, id int64, replayMissed bool) (ReactivateResult, error) {
	var res ReactivateResult
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		now := db.Millis(m.now())
		n, err := q.ReactivateWebhook(ctx, db.ReactivateWebhookParams{ID: id, UpdatedAt: now})
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := q.GetWebhook(ctx, id); db.IsNotFound(err) {
				return notFound("webhook", id)
			} else if err != nil {
				return err
			}
		}
		res.Reactivated = n > 0
		if replayMissed {
			replayed, err := q.ReplayMissedDeliveries(ctx, db.ReplayMissedDeliveriesParams{WebhookID: id, Now: sqlMillis(now)})
			if err != nil {
				return err
			}
			res.Replayed = int(replayed)
		}
		ch := activity.Changes{}
		if res.Reactivated {
			ch.Set("state", "deactivated", WebhookActive)
		}
		if res.Replayed > 0 {
			ch.Set("deliveries_replayed", nil, res.Replayed)
		}
		if len(ch) == 0 {
			return nil // already active, nothing missed: nothing changed
		}
		return activity.Record(ctx, q, db.Time(now), activity.Entry{Action: "webhook.reactivated", EntityID: id, Changes: ch})
	})
	return res, err
}

// RotateSecret gives a webhook a new signing secret, returned to be shown once. The secrets
// valid until now keep signing alongside it for grace (0: they stop at once), so receivers can
// switch without losing an event; secrets that have already expired are deleted.
func (m *Manager) RotateSecret(ctx context.Context, id int64, grace time.Duration) (string, error) {
	if grace < 0 || grace > MaxGrace {
		return "", fmt.Errorf("%w: grace period %s must be between 0 and %s", ErrInvalidState, grace, formatStep(MaxGrace))
	}
	secret, err := NewSecret()
	if err != nil {
		return "", err
	}
	err = m.db.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetWebhook(ctx, id); db.IsNotFound(err) {
			return notFound("webhook", id)
		} else if err != nil {
			return err
		}
		now := m.now()
		if err := q.ExpireWebhookSecrets(ctx, db.ExpireWebhookSecretsParams{WebhookID: id, ExpiresAt: sqlMillis(db.Millis(now.Add(grace)))}); err != nil {
			return err
		}
		if err := q.DeleteExpiredWebhookSecrets(ctx, db.DeleteExpiredWebhookSecretsParams{WebhookID: id, ExpiresAt: sqlMillis(db.Millis(now))}); err != nil {
			return err
		}
		if err := q.CreateWebhookSecret(ctx, db.CreateWebhookSecretParams{WebhookID: id, Secret: secret, CreatedAt: db.Millis(now)}); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "webhook.secret_rotated", EntityID: id,
			Changes: activity.Changes{"secret": {activity.Hidden, activity.Hidden}}})
	})
	if err != nil {
		return "", err
	}
	return secret, nil
}

// Resend starts a new attempt series for one delivery that is not pending (succeeded, failed
// or missed): same event, same webhook-id, sent again from the schedule's start.
func (m *Manager) Resend(ctx context.Context, deliveryID int64) (queued Delivery, err error) {
	err = m.db.InTx(ctx, func(q *db.Queries) error {
		d, err := q.GetDelivery(ctx, deliveryID)
		if db.IsNotFound(err) {
			return notFound("delivery", deliveryID)
		}
		if err != nil {
			return err
		}
		if err := requireActive(ctx, q, d.WebhookID); err != nil {
			return err
		}
		if d.State == StatePending {
			return fmt.Errorf("%w: delivery %d is still pending; the dispatcher is already retrying it", ErrInvalidState, deliveryID)
		}
		if _, err := q.RestartDelivery(ctx, db.RestartDeliveryParams{ID: deliveryID, Now: sqlMillis(db.Millis(m.now()))}); err != nil {
			return err
		}
		// Read back inside the transaction: after the commit the dispatcher, woken by it, may
		// have sent it already, and the caller is told what was queued.
		r, err := q.GetDelivery(ctx, deliveryID)
		if err != nil {
			return err
		}
		queued = deliveryFromGet(r)
		return activity.Record(ctx, q, m.now(), activity.Entry{Action: "webhook.delivery_resent", EntityID: d.WebhookID,
			Changes: activity.Changes{}.Set("delivery_id", nil, deliveryID).Set("event_id", nil, d.EventID).Set("state", d.State, queued.State)})
	})
	return queued, err
}

// Recover queues again every failed delivery to a webhook that was created in [from, to) —
// the way back after an outage the owner has fixed. It returns how many were queued.
func (m *Manager) Recover(ctx context.Context, webhookID int64, from, to time.Time) (int, error) {
	if !from.Before(to) {
		return 0, fmt.Errorf("%w: the time range must start before it ends", ErrInvalidState)
	}
	var n int64
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		if err := requireActive(ctx, q, webhookID); err != nil {
			return err
		}
		var err error
		now := m.now()
		n, err = q.RecoverFailedDeliveries(ctx, db.RecoverFailedDeliveriesParams{
			WebhookID: webhookID, Now: sqlMillis(db.Millis(now)), FromMs: db.Millis(from), ToMs: db.Millis(to),
		})
		if err != nil || n == 0 {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "webhook.deliveries_recovered", EntityID: webhookID,
			Changes: activity.Changes{}.Set("from", nil, from).Set("to", nil, to).Set("deliveries_queued", nil, n)})
	})
	return int(n), err
}

// TestData is the data of a webhook.test event.
type TestData struct {
	WebhookID int64  `json:"webhook_id"`
	Message   string `json:"message"`
}

// SendTest enqueues a webhook.test event addressed to this one webhook, whatever its event
// patterns, and returns the event id (the webhook-id the receiver will see). The running
// server delivers it like any other event.
func (m *Manager) SendTest(ctx context.Context, webhookID int64) (string, error) {
	var eventID string
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		if err := requireActive(ctx, q, webhookID); err != nil {
			return err
		}
		now := m.now()
		var err error
		eventID, err = Enqueue(ctx, q, now, TestEvent, TestData{WebhookID: webhookID, Message: "This is a test event from frontdesk."})
		if err != nil {
			return err
		}
		ms := db.Millis(now)
		return q.CreateDelivery(ctx, db.CreateDeliveryParams{
			EventID: eventID, WebhookID: webhookID, State: StatePending, NextAttemptAt: sqlMillis(ms), CreatedAt: ms, UpdatedAt: ms,
		})
	})
	return eventID, err
}

// requireActive refuses operations that queue deliveries for a webhook that will not send
// them: a deactivated one must be reactivated first.
func requireActive(ctx context.Context, q *db.Queries, id int64) error {
	w, err := q.GetWebhook(ctx, id)
	if db.IsNotFound(err) {
		return notFound("webhook", id)
	}
	if err != nil {
		return err
	}
	if w.State != WebhookActive {
		return fmt.Errorf("%w: webhook %d is deactivated (%s); reactivate it first", ErrInvalidState, id, w.DeactivatedReason.String)
	}
	return nil
}

func sqlMillis(ms int64) sql.NullInt64 { return sql.NullInt64{Int64: ms, Valid: true} }
