package bench

import (
	"cmp"
	"context"
	"fmt"
	"time"
)

// probeWait is how long webhook_fanout waits for a first event to reach all its endpoints
// before it calls the dispatcher unavailable.
const probeWait = 5 * time.Second

// webhookFanout registers three webhooks for a local receiver, checks a committed event reaches
// them, and measures: the most deliveries per second the dispatcher sustains, against the bare
// POST baseline in alternating slices, and first-attempt latency at half that rate.
func webhookFanout(ctx context.Context, e *env) ScenarioReport {
	h, err := registerHooks(ctx, e.app.DB)
	if err != nil {
		return failed(err)
	}
	defer h.remove(context.WithoutCancel(ctx))
	if err := h.probe(ctx, probeWait); err != nil {
		return unavailable("%v", err)
	}
	workers := max(1, e.app.WebhookWorkers)
	l := Load{Concurrency: workers, Warmup: e.load.Warmup, Duration: e.load.Duration}
	var res, base Figures
	var runErr error
	err = e.profiled("webhook_fanout", func() {
		l.ScenarioRound = e.load.ScenarioRound // set by profiled
		res, base, runErr = h.fanoutPair(ctx, l, 4*workers)
	})
	if err = cmp.Or(err, runErr); err != nil {
		return failed(err)
	}
	if res.Rate <= 0 {
		return failed(fmt.Errorf("no delivery arrived during the measured run (%d errors: %s)", res.Errors, res.FirstError))
	}
	e.progress("webhook_fanout: paced at half the measured rate")
	paced, err := h.fanoutPaced(ctx, l, res.Rate/2)
	if err != nil {
		return failed(err)
	}
	res.PeakRSS = max(res.PeakRSS, paced.PeakRSS)
	// A paced run that timed no delivery has no latency: unreadable, not 0 ms.
	pacedP50, pacedP99 := paced.P50, paced.P99
	if paced.Timed == 0 {
		pacedP50, pacedP99 = unreadable, unreadable
	}
	return ScenarioReport{Result: &res, Baseline: &base,
		Facts: []Fact{
			{What: "endpoints", Value: fanoutEndpoints},
			{What: "dispatcher workers", Value: float64(workers)},
			{What: "paced rate", Value: paced.Rate, Unit: "deliveries/s"},
			{What: "paced errors", Value: float64(paced.Errors)},
		},
		targets: []target{
			atLeast("ratio", 0.40, ratioOf),
			atMost("first-attempt p50", "ms", 5, func(*ScenarioReport) float64 { return pacedP50 }),
			atMost("first-attempt p99", "ms", 50, func(*ScenarioReport) float64 { return pacedP99 }),
		}}
}
