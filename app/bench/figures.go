package bench

import (
	"slices"
	"time"
)

// Figures is what one measured run produced.
type Figures struct {
	// What ran: a scenario, or the baseline it is compared with.
	What string `json:"what"`
	// Ops is the operations that ended as expected during the recorded window: Succeeded plus
	// Refused (the lost races of conflicting_booking). Errors are everything else.
	Ops       int64   `json:"ops"`
	Succeeded int64   `json:"succeeded"`
	Refused   int64   `json:"refused"`
	Errors    int64   `json:"errors"`
	Seconds   float64 `json:"seconds"`
	// Rate is Ops per second of the recorded window.
	Rate float64 `json:"per_second"`
	// P50 and P99 are latencies in milliseconds, of Ops only.
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
	// Timed is how many latencies P50 and P99 are of: with none they are not figures.
	Timed int64 `json:"latency_samples"`
	// PeakRSS is the most resident memory of the whole process seen during the window, in
	// bytes (0 where /proc is unavailable). The load generator runs in the same process.
	PeakRSS    int64  `json:"peak_rss_bytes"`
	FirstError string `json:"first_error,omitempty"`
	// CutShort says the recorded window did not run to its end (the run was cancelled), so the
	// figures are not those of a full run.
	CutShort bool `json:"cut_short,omitempty"`
	// Kinds breaks a mixed scenario down by kind of operation (What names the kind).
	Kinds []Figures `json:"kinds,omitempty"`
}

// addErrors counts n errors found after the run (deliveries or emails that never arrived),
// keeping the first error's text if there is none yet.
func (f *Figures) addErrors(n int64, text string) {
	f.Errors += n
	if f.FirstError == "" {
		f.FirstError = text
	}
}

// setLatencies sorts all and records its percentiles.
func (f *Figures) setLatencies(all []time.Duration) {
	slices.Sort(all)
	f.Timed = int64(len(all))
	f.P50 = millis(percentile(all, 0.50))
	f.P99 = millis(percentile(all, 0.99))
}

// percentile is the nearest-rank percentile of sorted latencies, 0 for none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	i = max(0, min(i, len(sorted)-1))
	return sorted[i]
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// ratio is a over b, 0 when there is nothing to compare with.
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
