package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A scenario is only as good as both sides of its ratio: errors on either side, a window cut
// short or a side that measured nothing fail it, whatever the ratio says (issue 15: the race
// baseline once ran dry with 67 million errors and still reported ok with a ratio of 1.99).
func TestUnsoundFiguresFailTheScenario(t *testing.T) {
	good := func() *Figures { return &Figures{Rate: 100, Ops: 100} }
	for _, tc := range []struct {
		name         string
		result, base *Figures
		want         string // in Reason; "" means ok
	}{
		{"clean", good(), good(), ""},
		{"errors on the scenario", &Figures{Rate: 100, Ops: 100, Errors: 3, FirstError: "500"}, good(), "scenario: 3 errors (first: 500)"},
		{"errors on the baseline", good(), &Figures{Rate: 199, Ops: 199, Errors: 67_000_000, FirstError: "the 57-day race window is full"}, "baseline: 67000000 errors"},
		{"cut short", good(), &Figures{Rate: 100, Ops: 100, CutShort: true}, "baseline: the recorded window was cut short"},
		{"nothing measured", &Figures{}, good(), "scenario: nothing was measured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ScenarioReport{Name: "x", Result: tc.result, Baseline: tc.base, targets: []target{atLeast("ratio", 0.5, ratioOf)}}
			s.evaluate()
			if tc.want == "" {
				if s.Status != "ok" || !s.Checks[0].Met {
					t.Fatalf("got %s (%s), ratio met %v; want ok and met", s.Status, s.Reason, s.Checks[0].Met)
				}
				return
			}
			if s.Status != "failed" || !strings.Contains(s.Reason, tc.want) {
				t.Fatalf("got status %q reason %q, want failed with %q", s.Status, s.Reason, tc.want)
			}
			if s.Checks[0].Met {
				t.Fatal("a failed scenario met its ratio target")
			}
			r := newReport(Config{Concurrency: 1, Duration: time.Second, Now: time.Now})
			r.Scenarios = append(r.Scenarios, s)
			r.Process = Process{BinaryBytes: 1 << 20, IdleRSS: 1 << 20, AfterLoadRSS: 1 << 20, PeakRSS: 1 << 20, StartToReadyMs: 1}
			r.finish()
			if len(r.Failures()) != 1 || r.AllMet {
				t.Fatalf("got failures %v, all met %v; want this scenario, not all met", r.Failures(), r.AllMet)
			}
			var buf bytes.Buffer
			r.WriteText(&buf)
			if !strings.Contains(buf.String(), "✗ failed") || !strings.Contains(buf.String(), "FAILED: ") {
				t.Fatalf("the table does not show the failure:\n%s", buf.String())
			}
		})
	}
}

// A figure that cannot be read is 0, which would pass an "at most" target: it fails instead.
func TestUnreadableProcessFiguresFail(t *testing.T) {
	r := newReport(Config{Concurrency: 1, Duration: time.Second, Now: time.Now})
	r.Process = Process{BinaryBytes: 0, IdleRSS: 0, PeakRSS: 0, StartToReadyMs: 40}
	r.finish()
	var unreadable []string
	for _, c := range r.Checks {
		if c.Met && c.Unreadable {
			t.Errorf("%s: unreadable but met", c.What)
		}
		if c.Unreadable {
			unreadable = append(unreadable, c.What)
		}
	}
	if strings.Join(unreadable, ",") != "binary size,idle RSS,idle RSS after load,peak RSS" {
		t.Fatalf("unreadable checks %v, want binary size, idle RSS fresh and after load, and peak RSS", unreadable)
	}
	if len(r.Failures()) != 4 {
		t.Fatalf("got failures %v, want the four unreadable figures", r.Failures())
	}
	var buf bytes.Buffer
	r.WriteText(&buf)
	if !strings.Contains(buf.String(), "could not be read") {
		t.Fatalf("the table does not say the figure could not be read:\n%s", buf.String())
	}
	if r.CPUModel == "" || r.Go == "" {
		t.Fatalf("got CPU model %q and Go %q, want both recorded", r.CPUModel, r.Go)
	}
}

// The booking grids are sized from the run: a 60-second run at 16 or 64 clients (and the
// baseline, the fastest side) never runs out of free or contested times, and create_booking's
// share of the hall never reaches day_in_the_life's. A soak of ten minutes or an hour, whose
// demand caps the hall at maxGridSize providers, still leaves its day millions of free times.
func TestGridsNeverRunDry(t *testing.T) {
	const days, step = 87, 15 // the demo business books 90 days ahead in 15-minute steps
	for _, c := range []struct {
		duration    time.Duration
		concurrency int
	}{{10 * time.Second, 16}, {60 * time.Second, 16}, {60 * time.Second, 64}, {60 * time.Second, 1}} {
		d := demandOf(Config{Duration: c.duration, Warmup: 2 * time.Second, Concurrency: c.concurrency})
		hall, race := gridSizes(d, days, step)
		g := testGrid(t, step, hall, days)
		if g.half() < d.requests {
			t.Errorf("%s at %d clients: create_booking's %d requests reach day_in_the_life's share at %d", c.duration, c.concurrency, d.requests, g.half())
		}
		if _, _, err := g.free(g.half() + d.requests - 1); err != nil {
			t.Errorf("%s at %d clients: %d hall providers run dry: %v", c.duration, c.concurrency, hall, err)
		}
		r := testGrid(t, step, race, days)
		if _, _, _, err := r.race(d.requests-1, c.concurrency); err != nil {
			t.Errorf("%s at %d clients: %d race providers run dry: %v", c.duration, c.concurrency, race, err)
		}
	}
	// A day of 16 workers books about one request in twelve at a few thousand requests a
	// second: a million free times is hours of it.
	for _, soak := range []time.Duration{10 * time.Minute, time.Hour} {
		cfg := Config{Duration: soak, Warmup: 2 * time.Second, Concurrency: 16}
		hall, _ := gridSizes(demandOf(cfg), days, step)
		g := testGrid(t, step, hall, days)
		e := &env{cfg: cfg, fx: &fixture{hall: g}}
		if _, _, err := g.free(e.newDay().next.Load() + 1_000_000); err != nil {
			t.Errorf("a %s soak: %d hall providers leave its day too few times: %v", soak, hall, err)
		}
	}
	if hall, race := gridSizes(gridDemand{requests: 10, racers: 16}, days, step); hall != minHall || race != minRace {
		t.Fatalf("a tiny run: %d and %d providers, want the minimum %d and %d", hall, race, minHall, minRace)
	}
}
