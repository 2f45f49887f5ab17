package dispatch

import (
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"frontdesk/app/webhook"
)

func counterValue(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

func TestMetrics(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	h.create(rc.srv.URL, "*")
	disp := h.startDispatcher(Config{AllowPrivate: true, Schedule: fastSchedule(10 * time.Millisecond)})
	for i := range 3 {
		h.enqueue(webhook.ClientCreated, map[string]any{"id": i})
	}
	outcome := func(l string) float64 { return counterValue(t, disp.metrics.outcomes.WithLabelValues(l)) }
	eventually(t, 5*time.Second, "three successes", func() bool { return outcome("succeeded") == 3 })
	if got := outcome("retried"); got != 1 {
		t.Errorf("retried = %v, want 1 (the first 500)", got)
	}
	var hist dto.Metric
	if err := disp.metrics.latency.Write(&hist); err != nil || hist.GetHistogram().GetSampleCount() != 4 {
		t.Errorf("latency histogram has %d samples (%v), want 4 attempts", hist.GetHistogram().GetSampleCount(), err)
	}

	families, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range families {
		names[f.GetName()] = true
	}
	for _, n := range []string{"frontdesk_webhook_deliveries_total", "frontdesk_webhook_attempt_duration_seconds", "frontdesk_webhook_queue_depth", "frontdesk_webhook_oldest_due_seconds"} {
		if !names[n] {
			t.Errorf("metric %s not registered", n)
		}
	}
}

func TestQueueGauges(t *testing.T) {
	h := newHarness(t)
	clock := time.Now()
	h.now = func() time.Time { return clock }
	h.create("https://example.com/", "*")
	_ = newMetrics(h.db, h.now, h.reg) // no dispatcher: the deliveries wait
	h.enqueue(webhook.ClientCreated, map[string]any{"id": 1})
	h.enqueue(webhook.ClientCreated, map[string]any{"id": 2})
	clock = clock.Add(90 * time.Second)

	gauge := func(name string) float64 {
		families, err := h.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range families {
			if f.GetName() == name {
				return f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Fatalf("gauge %s not found", name)
		return 0
	}
	if got := gauge("frontdesk_webhook_queue_depth"); got != 2 {
		t.Errorf("queue depth %v, want 2", got)
	}
	if got := gauge("frontdesk_webhook_oldest_due_seconds"); got < 89 || got > 91 {
		t.Errorf("oldest due %v s, want 90", got)
	}
}
