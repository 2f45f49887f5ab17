package bench

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

// Load is how hard and how long one closed-loop run pushes: Concurrency workers each send one
// request, wait for its answer and send the next, for Warmup (not recorded) and then Duration
// (recorded). Closed loop is what wrk does; it measures the most the system sustains.
type Load struct {
	Concurrency int
	Warmup      time.Duration
	Duration    time.Duration
	// ScenarioRound, if set, runs each of DriveMixedPair's scenario rounds (never a baseline's):
	// the bench profiles through it.
	ScenarioRound func(round func())
}

// Outcome is how one operation ended when it did not fail.
type Outcome int

const (
	// Succeeded: the operation did what was asked (200, 201, a committed booking).
	Succeeded Outcome = iota
	// Refused: an answer the scenario expects as a correct refusal, such as the 409 of a
	// booking race the request lost. It counts towards the rate, not as an error.
	Refused
)

// Op is one operation of a run, called by worker w (0 ≤ w < Concurrency).
type Op func(ctx context.Context, w int) (Outcome, error)

// MixedOp is an operation of a scenario that mixes kinds (a read, a create, …): it also names
// the kind it ran, and the figures break down by kind.
type MixedOp func(ctx context.Context, w int) (kind string, o Outcome, err error)

func (op Op) mixed() MixedOp {
	return func(ctx context.Context, w int) (string, Outcome, error) {
		o, err := op(ctx, w)
		return "", o, err
	}
}

// Drive runs op under l and returns what it measured. Operations that start during the
// recorded window count; an operation that ends in an error counts as an error and its
// latency is left out of the percentiles.
func Drive(ctx context.Context, l Load, op Op) Figures {
	return drive(ctx, l, op.mixed()).figures()
}

// pairRounds is how many slices DrivePair cuts a recorded window into.
const pairRounds = 4

// around runs round, one scenario slice, through l.ScenarioRound when one is set.
func (l Load) around(round func()) {
	if l.ScenarioRound == nil {
		round()
		return
	}
	l.ScenarioRound(round)
}

// DrivePair measures a scenario and its baseline in alternating slices of l.Duration
// (baseline, scenario, baseline, scenario, …), each side warmed up once, so that background
// load on a shared machine weighs on both alike and their ratio stays meaningful.
func DrivePair(ctx context.Context, l Load, scenario, baseline Op) (Figures, Figures) {
	return DriveMixedPair(ctx, l, scenario.mixed(), baseline)
}

// DriveMixedPair is DrivePair for a scenario of mixed kinds: its figures carry a breakdown by
// kind.
func DriveMixedPair(ctx context.Context, l Load, scenario MixedOp, baseline Op) (Figures, Figures) {
	var res, base sample
	l.alternate(pairRounds, func(slice Load) error {
		base.add(drive(ctx, slice, baseline.mixed()))
		l.around(func() { res.add(drive(ctx, slice, scenario)) })
		return nil
	})
	return res.figures(), base.figures()
}

// alternate runs round on each of rounds slices of l.Duration, the first after l's warm-up:
// one baseline slice and one scenario slice per round, until round fails.
func (l Load) alternate(rounds int, round func(slice Load) error) error {
	slice := Load{Concurrency: l.Concurrency, Duration: l.Duration / time.Duration(rounds)}
	for i := range rounds {
		slice.Warmup = 0
		if i == 0 {
			slice.Warmup = l.Warmup
		}
		if err := round(slice); err != nil {
			return err
		}
	}
	return nil
}

// sample is the raw record of one or more recorded windows.
type sample struct {
	latencies          []time.Duration // of operations that did not fail
	succeeded, refused int64
	errors             int64
	firstErr           error
	seconds            float64
	peakRSS            int64
	cutShort           bool
	kinds              map[string]*sample // by kind, for mixed scenarios ("" is not broken down)
}

// kind returns the sub-sample of kind k, creating it.
func (s *sample) kind(k string) *sample {
	if s.kinds == nil {
		s.kinds = map[string]*sample{}
	}
	if s.kinds[k] == nil {
		s.kinds[k] = &sample{}
	}
	return s.kinds[k]
}

func (s *sample) add(o sample) {
	s.latencies = append(s.latencies, o.latencies...)
	s.succeeded += o.succeeded
	s.refused += o.refused
	s.errors += o.errors
	if s.firstErr == nil {
		s.firstErr = o.firstErr
	}
	s.seconds += o.seconds
	s.peakRSS = max(s.peakRSS, o.peakRSS)
	s.cutShort = s.cutShort || o.cutShort
	for k, ks := range o.kinds {
		s.kind(k).add(*ks) // their seconds are the whole sample's, set by figures
	}
}

func (s sample) figures() Figures {
	f := Figures{Succeeded: s.succeeded, Refused: s.refused, Errors: s.errors, Seconds: s.seconds, PeakRSS: s.peakRSS, CutShort: s.cutShort}
	if s.firstErr != nil {
		f.FirstError = s.firstErr.Error()
	}
	f.Ops = f.Succeeded + f.Refused
	f.Rate = ratio(float64(f.Ops), f.Seconds)
	f.setLatencies(s.latencies)
	for k, ks := range s.kinds {
		ks.seconds = s.seconds
		kf := ks.figures()
		kf.What = k
		f.Kinds = append(f.Kinds, kf)
	}
	slices.SortFunc(f.Kinds, func(a, b Figures) int { return strings.Compare(a.What, b.What) })
	return f
}

func drive(ctx context.Context, l Load, op MixedOp) sample {
	workers := make([]sample, l.Concurrency)
	start := time.Now()
	measureFrom := start.Add(l.Warmup)
	measureTo := measureFrom.Add(l.Duration)
	var sampler *rssSampler
	var samplerOnce sync.Once

	var wg sync.WaitGroup
	for w := range l.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := &workers[w]
			t.latencies = make([]time.Duration, 0, 1024)
			for ctx.Err() == nil {
				began := time.Now()
				if !began.Before(measureTo) {
					return
				}
				if !began.Before(measureFrom) {
					samplerOnce.Do(func() { sampler = startRSSSampler() })
				}
				kind, outcome, err := op(ctx, w)
				if began.Before(measureFrom) {
					continue
				}
				if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
					return // cancelled, not a failure of the system under test
				}
				took := time.Since(began)
				t.record(outcome, err, took)
				if kind != "" {
					t.kind(kind).record(outcome, err, took)
				}
			}
		}()
	}
	wg.Wait()
	samplerOnce.Do(func() {}) // no worker reached the window: there is no sampler to stop
	var out sample
	for _, t := range workers {
		out.add(t)
	}
	out.seconds = l.Duration.Seconds()
	out.cutShort = ctx.Err() != nil && time.Now().Before(measureTo)
	if sampler != nil {
		out.peakRSS = sampler.stop()
	}
	return out
}

// record counts one operation that started in the recorded window.
func (s *sample) record(outcome Outcome, err error, took time.Duration) {
	switch {
	case err != nil:
		s.errors++
		if s.firstErr == nil {
			s.firstErr = err
		}
	case outcome == Refused:
		s.refused++
		s.latencies = append(s.latencies, took)
	default:
		s.succeeded++
		s.latencies = append(s.latencies, took)
	}
}
