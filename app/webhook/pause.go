package webhook

import (
	"context"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// Pause stops sending to a webhook by hand without losing anything: events are still recorded
// and its deliveries queued as pending, and Resume sends them (docs/webhooks.md
// "Pause and resume"). Attempts already in flight finish. Only an active webhook can be
// paused (the database refuses the rest too: db/migrations/00355_webhook_pauses.sql); pausing a
// paused one changes nothing. It reports whether the webhook was paused by this call.
func (m *Manager) Pause(ctx context.Context, id int64) (bool, error) {
	var paused bool
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		if err := requireActive(ctx, q, id); err != nil {
			return err
		}
		now := m.now()
		n, err := q.PauseWebhook(ctx, db.PauseWebhookParams{WebhookID: id, PausedAt: db.Millis(now)})
		if paused = n > 0; err != nil || !paused {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "webhook.paused", EntityID: id, Changes: activity.Changes{}.Set("paused", false, true)})
	})
	return paused, err
}

// Resume lets the dispatcher send to a paused webhook again: what was queued while paused goes
// out, started in the order it was recorded. It reports whether the webhook was paused.
func (m *Manager) Resume(ctx context.Context, id int64) (bool, error) {
	var resumed bool
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetWebhook(ctx, id); db.IsNotFound(err) {
			return notFound("webhook", id)
		} else if err != nil {
			return err
		}
		n, err := q.ResumeWebhook(ctx, id)
		if resumed = n > 0; err != nil || !resumed {
			return err
		}
		return activity.Record(ctx, q, m.now(), activity.Entry{Action: "webhook.resumed", EntityID: id, Changes: activity.Changes{}.Set("paused", true, false)})
	})
	return resumed, err
}
