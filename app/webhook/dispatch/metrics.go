package dispatch

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/db"
)

// metrics are the dispatcher's Prometheus series (docs/webhooks.md, Operations).
type metrics struct {
	outcomes *prometheus.CounterVec
	latency  prometheus.Histogram
}

// Outcome labels of frontdesk_webhook_deliveries_total. "retried" counts failed attempts that
// were rescheduled, "failed" deliveries that exhausted their schedule, "gone" 410 answers, and
// "missed" deliveries moved to missed when their endpoint was deactivated (events that arrive
// while it is deactivated are recorded as missed by the outbox and not counted here).
var outcomeLabels = []string{"succeeded", "retried", "failed", "gone", "missed"}

func newMetrics(d *db.DB, now func() time.Time, reg prometheus.Registerer) *metrics {
	m := &metrics{
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "frontdesk_webhook_deliveries_total",
			Help: "Webhook delivery attempts by what followed them: succeeded, retried, failed (schedule exhausted), gone (410), missed (endpoint deactivated).",
		}, []string{"outcome"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "frontdesk_webhook_attempt_duration_seconds",
			Help:    "Duration of webhook delivery attempts, from sending the request to the end of the response.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
	}
	for _, l := range outcomeLabels {
		m.outcomes.WithLabelValues(l)
	}
	if reg == nil {
		return m
	}
	// The gauges are read from the database at scrape time through indexed queries, so they
	// are true even for deliveries queued by other processes (the CLI's test events).
	query := func(f func(ctx context.Context) (float64, error)) func() float64 {
		return func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			v, err := f(ctx)
			if err != nil {
				return -1
			}
			return v
		}
	}
	reg.MustRegister(m.outcomes, m.latency,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "frontdesk_webhook_queue_depth",
			Help: "Webhook deliveries pending (waiting for an attempt or in flight); -1 if the database did not answer.",
		}, query(func(ctx context.Context) (float64, error) {
			n, err := d.R.CountPendingDeliveries(ctx)
			return float64(n), err
		})),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "frontdesk_webhook_oldest_due_seconds",
			Help: "How long the longest-waiting due webhook delivery has been due; 0 when none is waiting, -1 if the database did not answer.",
		}, query(func(ctx context.Context) (float64, error) {
			t := now()
			oldest, err := d.R.OldestDueAt(ctx, sqlMillis(db.Millis(t)))
			if err != nil || oldest == 0 {
				return 0, err
			}
			return max(t.Sub(db.Time(oldest)).Seconds(), 0), nil
		})),
	)
	return m
}

func (m *metrics) count(t outcomeTally) {
	for l, n := range map[string]int{"succeeded": t.succeeded, "retried": t.retried, "failed": t.failed, "gone": t.gone, "missed": t.missed} {
		if n > 0 {
			m.outcomes.WithLabelValues(l).Add(float64(n))
		}
	}
}
