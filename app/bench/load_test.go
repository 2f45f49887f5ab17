package bench

import (
	"context"
	"errors"
	"math"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

func TestDriveCountsOutcomes(t *testing.T) {
	var n atomic.Int64
	f := Drive(context.Background(), Load{Concurrency: 4, Warmup: 20 * time.Millisecond, Duration: 100 * time.Millisecond},
		func(ctx context.Context, w int) (Outcome, error) {
			time.Sleep(time.Millisecond)
			switch n.Add(1) % 3 {
			case 0:
				return 0, errors.New("boom")
			case 1:
				return Refused, nil
			}
			return Succeeded, nil
		})
	if f.Succeeded == 0 || f.Refused == 0 || f.Errors == 0 {
		t.Fatalf("got %d succeeded, %d refused, %d errors; want some of each", f.Succeeded, f.Refused, f.Errors)
	}
	if f.Ops != f.Succeeded+f.Refused {
		t.Fatalf("got %d ops, want succeeded + refused = %d", f.Ops, f.Succeeded+f.Refused)
	}
	if want := float64(f.Ops) / 0.1; math.Abs(f.Rate-want) > 1e-6 {
		t.Fatalf("got rate %.1f, want ops over the recorded window %.1f", f.Rate, want)
	}
	if f.FirstError != "boom" {
		t.Fatalf("got first error %q, want %q", f.FirstError, "boom")
	}
	// Every op sleeps at least a millisecond.
	if f.P50 < 1 || f.P99 < f.P50 {
		t.Fatalf("got p50 %.3f ms and p99 %.3f ms, want p50 ≥ 1 ms and p99 ≥ p50", f.P50, f.P99)
	}
	// The warm-up is not recorded: at most 4 workers × 100 ms / 1 ms ops in the window.
	if total := n.Load(); f.Ops+f.Errors >= total {
		t.Fatalf("recorded %d of %d ops, want the warm-up's left out", f.Ops+f.Errors, total)
	}
}

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one", ms(7), 0.99, 7 * time.Millisecond},
		{"median of four is the second", ms(1, 2, 3, 4), 0.5, 2 * time.Millisecond},
		{"p99 of 1..100", ms(hundred...), 0.99, 99 * time.Millisecond},
		{"p50 of 1..100", ms(hundred...), 0.5, 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := percentile(tc.sorted, tc.p); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRSSReadsProc(t *testing.T) {
	if RSS() <= 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("got no VmRSS from /proc/self/status, want it on the CI machine (Linux)")
		}
		t.Skip("no /proc/self/status on this system")
	}
	s := startRSSSampler()
	buf := make([]byte, 16<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	peak := s.stop()
	if peak < 16<<20 {
		t.Fatalf("got peak RSS %d bytes after touching 16 MiB, want at least that", peak)
	}
	_ = buf[len(buf)-1]
}

func TestDrivePairAlternatesAndSplitsTheWindow(t *testing.T) {
	var last atomic.Int32 // 1: scenario ran last, 2: baseline ran last
	var switches atomic.Int32
	op := func(side int32) Op {
		return func(ctx context.Context, w int) (Outcome, error) {
			if last.Swap(side) != side {
				switches.Add(1)
			}
			time.Sleep(time.Millisecond)
			return Succeeded, nil
		}
	}
	res, base := DrivePair(context.Background(), Load{Concurrency: 2, Warmup: 10 * time.Millisecond, Duration: 200 * time.Millisecond}, op(1), op(2))
	if res.Ops == 0 || base.Ops == 0 {
		t.Fatalf("got %d scenario and %d baseline ops, want both measured", res.Ops, base.Ops)
	}
	if math.Abs(res.Seconds-0.2) > 1e-9 || math.Abs(base.Seconds-0.2) > 1e-9 {
		t.Fatalf("got %v s and %v s recorded, want the whole 0.2 s window each", res.Seconds, base.Seconds)
	}
	if got := switches.Load(); got < 2*pairRounds-1 {
		t.Fatalf("got %d switches between the sides, want at least %d (alternating slices)", got, 2*pairRounds-1)
	}
}
