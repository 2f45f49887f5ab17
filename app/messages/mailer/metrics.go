package mailer

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/db"
)

// metrics are the message dispatcher's Prometheus series.
type metrics struct {
	outcomes *prometheus.CounterVec
	latency  prometheus.Histogram
}

func newMetrics(d *db.DB, reg prometheus.Registerer) *metrics {
	m := &metrics{
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "frontdesk_messages_total",
			Help: "Customer messages by what happened: sent, retried (an attempt failed and another is scheduled), failed, skipped (nothing to say any more).",
		}, []string{"outcome"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "frontdesk_message_attempt_duration_seconds",
			Help:    "Duration of attempts to hand a message to the mail server.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
	}
	for _, l := range []string{"sent", "retried", "failed", "skipped"} {
		m.outcomes.WithLabelValues(l)
	}
	if reg == nil {
		return m
	}
	reg.MustRegister(m.outcomes, m.latency, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "frontdesk_messages_pending",
		Help: "Customer messages waiting to be sent (planned reminders included); -1 if the database did not answer.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := d.R.CountPendingMessages(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	}))
	return m
}

func (m *metrics) count(t tally) {
	for l, n := range map[string]int{"sent": t.sent, "retried": t.retried, "failed": t.failed, "skipped": t.skipped} {
		if n > 0 {
			m.outcomes.WithLabelValues(l).Add(float64(n))
		}
	}
}
