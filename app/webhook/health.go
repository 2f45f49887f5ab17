package webhook

import (
	"context"
	"time"

	"frontdesk/app/queue"
	"frontdesk/db"
)

// HealthSample is how many of an endpoint's latest attempted deliveries its success rate is
// computed over.
const HealthSample = 100

// Health is how an endpoint is doing, for the list badge, the dashboard and the detail page.
type Health struct {
	// LastDelivery is the most recent delivery to the endpoint, nil if there is none.
	LastDelivery *Delivery
	// Sample is the number of recent deliveries with at least one attempt (at most
	// HealthSample) and Succeeded how many of them ended their latest attempt with a 2xx.
	// SuccessRate is Succeeded/Sample, 0 when Sample is 0. A delivery still retrying counts
	// as a failure, so a broken endpoint shows at once rather than days later.
	Sample      int
	Succeeded   int
	SuccessRate float64
	// Counts of the endpoint's deliveries (within retention) by state.
	Pending, SucceededTotal, Failed, Missed int
	// DeactivatesAt is set while the endpoint is failing: the oldest delivery that has failed
	// since the last success will exhaust its schedule then, and the endpoint will be
	// deactivated unless something succeeds first (the countdown of docs/webhooks.md). Zero otherwise.
	DeactivatesAt time.Time
	// Serving is how the running dispatcher serves the endpoint now (its concurrency limit and
	// bound, its delivery rate), when it has sent to it since it started (HasServing).
	Serving    queue.TargetStats
	HasServing bool
	// RecentRate is the deliveries per second that succeeded over the last RateWindow, from the
	// database: the drain estimate of a process that runs no dispatcher (`webhook list`).
	RecentRate float64
}

// RateWindow is how far back RecentRate looks.
const RateWindow = 5 * time.Minute

// DrainIn estimates how long the endpoint's backlog (Pending) takes to deliver at its current
// rate (the running dispatcher's, else the recent rate in the database); ok is false when there
// is no rate to go by (nothing sent lately). Zero when there is no backlog.
func (h Health) DrainIn() (d time.Duration, ok bool) {
	switch {
	case h.Pending == 0:
		return 0, true
	}
	rate := h.RecentRate
	if h.HasServing {
		rate = h.Serving.Rate
	}
	if rate < 0.01 {
		return 0, false
	}
	return time.Duration(float64(h.Pending) / rate * float64(time.Second)), true
}

// Failing reports whether the endpoint is counting down to deactivation.
func (h Health) Failing() bool { return !h.DeactivatesAt.IsZero() }

func (m *Manager) health(ctx context.Context, w Webhook) (h Health, err error) {
	// One snapshot: a delivery attempt committing between two of these queries would otherwise
	// show a countdown next to a last delivery that has not failed yet.
	err = m.db.ReadTx(ctx, func(q *db.Queries) error {
		h, err = healthIn(ctx, q, w, m.schedule, m.now())
		return err
	})
	if m.live != nil {
		h.Serving, h.HasServing = m.live(w.ID)
	}
	return h, err
}

func healthIn(ctx context.Context, q *db.Queries, w Webhook, schedule Schedule, now time.Time) (Health, error) {
	var h Health
	last, err := q.LastWebhookDelivery(ctx, w.ID)
	switch {
	case err == nil:
		d := deliveryFromRow(db.ListWebhookDeliveriesRow(last))
		h.LastDelivery = &d
	case !db.IsNotFound(err):
		return h, err
	}
	rate, err := q.RecentWebhookOutcomes(ctx, db.RecentWebhookOutcomesParams{WebhookID: w.ID, Sample: HealthSample})
	if err != nil {
		return h, err
	}
	h.Sample, h.Succeeded = int(rate.Attempted), int(rate.Succeeded)
	if h.Sample > 0 {
		h.SuccessRate = float64(h.Succeeded) / float64(h.Sample)
	}
	counts, err := q.CountWebhookDeliveriesByState(ctx, w.ID)
	if err != nil {
		return h, err
	}
	for _, c := range counts {
		switch c.State {
		case StatePending:
			h.Pending = int(c.N)
		case StateSucceeded:
			h.SucceededTotal = int(c.N)
		case StateFailed:
			h.Failed = int(c.N)
		case StateMissed:
			h.Missed = int(c.N)
		}
	}
	if h.Pending > 0 {
		n, err := q.WebhookDeliveredSince(ctx, db.WebhookDeliveredSinceParams{WebhookID: w.ID, Since: sqlMillis(db.Millis(now.Add(-RateWindow)))})
		if err != nil {
			return h, err
		}
		h.RecentRate = float64(n) / RateWindow.Seconds()
	}
	if w.State != WebhookActive {
		return h, nil
	}
	var lastSuccess int64
	if !w.LastSuccessAt.IsZero() {
		lastSuccess = db.Millis(w.LastSuccessAt)
	}
	failing, err := q.OldestFailingDelivery(ctx, db.OldestFailingDeliveryParams{WebhookID: w.ID, LastSuccessAt: sqlMillis(lastSuccess)})
	switch {
	case db.IsNotFound(err):
		return h, nil
	case err != nil:
		return h, err
	}
	from := db.Time(failing.SeriesAt)
	if failing.LastAttemptAt.Valid {
		from = db.Time(failing.LastAttemptAt.Int64)
	}
	h.DeactivatesAt = from.Add(schedule.Remaining(int(failing.SeriesAttempts)))
	return h, nil
}

// LastError is why a webhook's latest attempt failed, for `webhook list`.
type LastError struct {
	Category string // dns, connect, tls, timeout, forbidden_address, http_status, other
	Message  string
	Status   int // the HTTP status for http_status, 0 otherwise
	At       time.Time
}

// LastError returns the failure of the webhook's latest attempt; ok is false when that
// attempt succeeded or there was none.
func (m *Manager) LastError(ctx context.Context, webhookID int64) (e LastError, ok bool, err error) {
	a, err := m.db.R.LastWebhookAttempt(ctx, webhookID)
	if db.IsNotFound(err) {
		return e, false, nil
	}
	if err != nil || !a.ErrorCategory.Valid {
		return e, false, err
	}
	return LastError{Category: a.ErrorCategory.String, Message: a.ErrorMessage, Status: int(a.StatusCode.Int64), At: db.Time(a.StartedAt)}, true, nil
}
