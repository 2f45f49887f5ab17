package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"frontdesk/app/bench"
)

// runBenchCommand runs `frontdesk bench` in-process on the real clock (webhook signatures carry
// real timestamps, which the receiver checks against its own clock).
// The idle memory is that of `frontdesk serve` run from exe (the test binary is not
// frontdesk); "" runs none, for commands that stop before it.
func runBenchCommand(t *testing.T, exe string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: append([]string{"bench"}, args...), Stdout: &out, Stderr: io.MultiWriter(&errOut, testLog{t}),
		Getenv: func(string) string { return "" }, Now: time.Now,
		Executable: func() (string, error) { return exe, nil },
	})
	return code, out.String(), errOut.String()
}

// TestBenchProducesEveryFigure runs the whole bench on tiny durations and checks that every
// scenario was measured against its baseline and that no booking race double-booked — not the
// speed, which a test on a shared machine cannot judge.
func TestBenchProducesEveryFigure(t *testing.T) {
	// Small calendars: expanding 100,000 instances a provider takes over a minute under -race.
	code, stdout, stderr := runBenchCommand(t, buildFrontdesk(t), "--duration", "200ms", "--concurrency", "8", "--bookings", "5000",
		"--calendar-instances", "2000", "--json")
	if code != 0 {
		t.Fatalf("bench exited %d; stderr:\n%s", code, stderr)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, stdout)
	}
	var names []string
	for _, s := range rep.Scenarios {
		names = append(names, s.Name)
		if s.Status != "ok" {
			t.Errorf("%s: got status %s (%s), want ok", s.Name, s.Status, s.Reason)
			continue
		}
		if s.Result == nil || s.Baseline == nil || s.Result.Rate <= 0 || s.Baseline.Rate <= 0 || s.Ratio <= 0 {
			t.Errorf("%s: got result %+v, baseline %+v, ratio %v; want both rates and their ratio", s.Name, s.Result, s.Baseline, s.Ratio)
			continue
		}
		if s.Result.P50 <= 0 || s.Result.P99 < s.Result.P50 {
			t.Errorf("%s: got p50 %v ms, p99 %v ms; want 0 < p50 ≤ p99", s.Name, s.Result.P50, s.Result.P99)
		}
		if s.Result.Errors != 0 || s.Baseline.Errors != 0 {
			t.Errorf("%s: got %d errors (first: %s) and %d baseline errors (first: %s), want none", s.Name,
				s.Result.Errors, s.Result.FirstError, s.Baseline.Errors, s.Baseline.FirstError)
		}
		if s.Result.CutShort || s.Baseline.CutShort {
			t.Errorf("%s: a recorded window was cut short", s.Name)
		}
		if len(s.Checks) == 0 {
			t.Errorf("%s: got no checks, want its targets", s.Name)
		}
	}
	if !slices.Equal(names, bench.Scenarios()) {
		t.Fatalf("got scenarios %v, want %v", names, bench.Scenarios())
	}

	race := rep.Scenarios[slices.Index(names, "conflicting_booking")]
	if c := checkNamed(t, race, "double bookings"); c.Value != 0 || !c.Met {
		t.Errorf("conflicting_booking: got %v double bookings, want 0", c.Value)
	}
	if race.Result.Succeeded == 0 || race.Result.Refused == 0 {
		t.Errorf("conflicting_booking: got %d wins and %d 409s, want both", race.Result.Succeeded, race.Result.Refused)
	}
	if race.Result.Succeeded*2 > race.Result.Refused {
		t.Errorf("conflicting_booking: got %d wins for %d 409s, want about one win per 8 racers", race.Result.Succeeded, race.Result.Refused)
	}
	synced := rep.Scenarios[slices.Index(names, "slots_day_synced")]
	if f := factNamed(t, synced, "instances in each provider's calendar"); f.Value != 2000 {
		t.Errorf("slots_day_synced: got %v instances a calendar, want the 2000 asked for", f.Value)
	}
	if f := factNamed(t, synced, "busy blocks stored"); f.Value <= 0 {
		t.Errorf("slots_day_synced: got %v busy blocks stored, want some", f.Value)
	}
	fanout := rep.Scenarios[slices.Index(names, "webhook_fanout")]
	for _, what := range []string{"first-attempt p50", "first-attempt p99"} {
		if c := checkNamed(t, fanout, what); c.Value <= 0 {
			t.Errorf("webhook_fanout: got %s %v ms, want a measured latency", what, c.Value)
		}
	}
	day := rep.Scenarios[slices.Index(names, "day_in_the_life")]
	var kinds []string
	for _, k := range day.Result.Kinds {
		kinds = append(kinds, k.What)
		if k.Ops > 0 && (k.P50 <= 0 || k.P99 < k.P50) {
			t.Errorf("day_in_the_life %s: got p50 %v, p99 %v", k.What, k.P50, k.P99)
		}
	}
	for _, want := range []string{"create", "list", "read", "slots"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("day_in_the_life: kinds %v lack %s", kinds, want)
		}
	}
	if f := factNamed(t, day, "webhook deliveries"); f.Value < 3 {
		t.Errorf("day_in_the_life: got %v webhook deliveries, want every write's event at 3 endpoints", f.Value)
	}
	if c := checkNamed(t, day, "webhook lag p99"); c.Value <= 0 {
		t.Errorf("day_in_the_life: got webhook lag p99 %v ms, want a measured lag", c.Value)
	}
	// Customer email: the creates' confirmations reached the mail sink (a missing or failed one
	// is an error of the scenario, checked with the others above).
	if f := factNamed(t, day, "customer emails sent"); f.Value < 1 {
		t.Errorf("day_in_the_life: got %v customer emails sent, want the confirmations of its creates", f.Value)
	}
	if c := checkNamed(t, day, "email lag p99"); c.Value <= 0 {
		t.Errorf("day_in_the_life: got email lag p99 %v ms, want a measured lag", c.Value)
	}

	p := rep.Process
	if p.BinaryBytes <= 0 || p.BenchIdleRSS <= 0 || p.PeakRSS < p.BenchIdleRSS || p.StartToReadyMs <= 0 || p.RestartToReadyMs <= 0 {
		t.Errorf("got process figures %+v, want binary size, the bench's idle ≤ peak RSS and both start times", p)
	}
	// The idle RSS is a separate serve's, split as its /proc status splits it, once settled.
	if p.IdleRSS <= 0 || p.IdleRSSAnon <= 0 || p.IdleRSSFile+p.IdleRSSShmem <= 0 || !p.IdleSettled {
		t.Errorf("got serve's idle RSS %d (anon %d, file %d, shmem %d), settled %v; want it measured and settled",
			p.IdleRSS, p.IdleRSSAnon, p.IdleRSSFile, p.IdleRSSShmem, p.IdleSettled)
	}
	if split := p.IdleRSSAnon + p.IdleRSSFile + p.IdleRSSShmem; split != p.IdleRSS {
		t.Errorf("serve's idle RSS %d is not the sum of its split %d: read from different moments", p.IdleRSS, split)
	}
	if rep.CPUModel == "" || !strings.HasPrefix(rep.Go, "go") {
		t.Errorf("got CPU model %q and Go %q, want both recorded", rep.CPUModel, rep.Go)
	}
	// The same serve, loaded, is watched giving memory back.
	if p.AfterLoadRSS <= 0 || p.AfterLoadRSSAnon <= 0 || p.AfterLoadPeakRSS < p.AfterLoadRSS || p.AfterLoadReturnMs < 0 {
		t.Errorf("got serve's RSS after load %d (anon %d, peak %d, %v ms after); want it measured", p.AfterLoadRSS, p.AfterLoadRSSAnon, p.AfterLoadPeakRSS, p.AfterLoadReturnMs)
	}
	if len(rep.Checks) != 5 {
		t.Errorf("got %d process checks, want binary size, idle RSS fresh and after load, peak RSS and start → ready", len(rep.Checks))
	}

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "bench process idle RSS") {
		t.Errorf("the table lacks the bench process's own idle RSS:\n%s", text.String())
	}
	for _, name := range bench.Scenarios() {
		if !strings.Contains(text.String(), name) {
			t.Errorf("the table lacks %s:\n%s", name, text.String())
		}
	}
}

// testLog shows the bench's progress lines in the test log (as they happen, with -v).
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func checkNamed(t *testing.T, s bench.ScenarioReport, what string) bench.Check {
	t.Helper()
	for _, c := range s.Checks {
		if c.What == what {
			return c
		}
	}
	t.Fatalf("%s: no %q check in %+v", s.Name, what, s.Checks)
	return bench.Check{}
}

func factNamed(t *testing.T, s bench.ScenarioReport, what string) bench.Fact {
	t.Helper()
	for _, f := range s.Facts {
		if f.What == what {
			return f
		}
	}
	t.Fatalf("%s: no %q fact in %+v", s.Name, what, s.Facts)
	return bench.Fact{}
}

func TestBenchRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"unknown scenario", []string{"--only", "read_everything"}},
		{"no clients", []string{"--concurrency", "0"}},
		{"negative duration", []string{"--duration", "-1s"}},
		{"negative bookings", []string{"--bookings", "-5"}},
		{"stray argument", []string{"now"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, stderr := runBenchCommand(t, "", tc.args...); code != exitUsage {
				t.Fatalf("got exit %d, want %d (usage); stderr %s", code, exitUsage, stderr)
			}
		})
	}
}

// The pages a business of real size opens every day are each measured against a baseline in the
// same run: a three-service visit's slots across 20 providers, a 52-week series checked, a
// provider's feed of 5,000 bookings, the booking site's time page of a busy day and the admin's
// week of 30 providers and 300 bookings — each
// with its figure, its ratio and the size it was measured at.
func TestBenchPageScenarios(t *testing.T) {
	pages := []string{"week_view", "slots_visit", "series_check", "feed_provider", "site_times"}
	code, stdout, stderr := runBenchCommand(t, "", "--duration", "200ms", "--concurrency", "4", "--only", strings.Join(pages, ","), "--json")
	var rep bench.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("bench exited %d; --json output does not parse: %v\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	want := map[string]map[string]float64{
		"week_view":     {"providers in the week": 30, "bookings in the week": 300},
		"slots_visit":   {"providers": 20, "services in the visit": 3},
		"series_check":  {"occurrences": 52},
		"feed_provider": {"bookings in the feed": 5000},
		"site_times":    {"providers": 10},
	}
	var names []string
	for _, s := range rep.Scenarios {
		names = append(names, s.Name)
		if s.Status != "ok" {
			t.Errorf("%s: got status %s (%s), want ok", s.Name, s.Status, s.Reason)
			continue
		}
		if s.Result == nil || s.Baseline == nil || s.Result.Rate <= 0 || s.Baseline.Rate <= 0 || s.Ratio <= 0 {
			t.Errorf("%s: got result %+v, baseline %+v, ratio %v; want both rates and their ratio", s.Name, s.Result, s.Baseline, s.Ratio)
			continue
		}
		if s.Result.Errors != 0 || s.Baseline.Errors != 0 {
			t.Errorf("%s: got %d errors (first: %s) and %d baseline errors, want none", s.Name, s.Result.Errors, s.Result.FirstError, s.Baseline.Errors)
		}
		checkNamed(t, s, "ratio")
		for what, v := range want[s.Name] {
			if f := factNamed(t, s, what); f.Value != v {
				t.Errorf("%s: got %s %v, want %v", s.Name, what, f.Value, v)
			}
		}
	}
	if !slices.Equal(names, pages) {
		t.Fatalf("got scenarios %v, want %v", names, pages)
	}
	visit := rep.Scenarios[slices.Index(names, "slots_visit")]
	if f := factNamed(t, visit, "visit starts that day"); f.Value < 1 {
		t.Errorf("slots_visit: got %v visit starts, want some", f.Value)
	}
	if f := factNamed(t, rep.Scenarios[slices.Index(names, "series_check")], "free occurrences"); f.Value < 1 {
		t.Errorf("series_check: got %v free occurrences, want some", f.Value)
	}
	if f := factNamed(t, rep.Scenarios[slices.Index(names, "site_times")], "times on the page"); f.Value < 1 {
		t.Errorf("site_times: got %v times on the page, want some", f.Value)
	}
}
