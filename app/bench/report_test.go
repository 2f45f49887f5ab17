package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestEvaluateChecksTargets(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s         ScenarioReport
		wantRatio float64
		wantMet   []bool
	}{
		{"ratio met", ScenarioReport{Result: &Figures{Rate: 60, Ops: 60}, Baseline: &Figures{Rate: 100, Ops: 100},
			targets: []target{atLeast("ratio", 0.5, ratioOf)}}, 0.6, []bool{true}},
		{"ratio missed", ScenarioReport{Result: &Figures{Rate: 40, Ops: 40}, Baseline: &Figures{Rate: 100, Ops: 100},
			targets: []target{atLeast("ratio", 0.5, ratioOf)}}, 0.4, []bool{false}},
		{"at most", ScenarioReport{Result: &Figures{Rate: 1, Ops: 1}, Baseline: &Figures{Rate: 1, Ops: 1}, targets: []target{
			atMost("double bookings", "", 0, func(*ScenarioReport) float64 { return 0 }),
			atMost("p99", "ms", 50, func(*ScenarioReport) float64 { return 51 }),
		}}, 1, []bool{true, false}},
		{"unavailable meets nothing", ScenarioReport{Status: "unavailable", Reason: "not yet",
			targets: []target{atMost("double bookings", "", 0, func(*ScenarioReport) float64 { return 0 })}}, 0, []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.evaluate()
			if tc.s.Ratio != tc.wantRatio {
				t.Fatalf("got ratio %v, want %v", tc.s.Ratio, tc.wantRatio)
			}
			if len(tc.s.Checks) != len(tc.wantMet) {
				t.Fatalf("got %d checks, want %d", len(tc.s.Checks), len(tc.wantMet))
			}
			for i, c := range tc.s.Checks {
				if c.Met != tc.wantMet[i] {
					t.Fatalf("check %q (%v against %s): got met %v, want %v", c.What, c.Value, c.Target, c.Met, tc.wantMet[i])
				}
			}
		})
	}
}

func TestReportWritesJSONAndText(t *testing.T) {
	r := newReport(Config{Concurrency: 4, Duration: time.Second, Now: func() time.Time { return time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC) }})
	ok := ScenarioReport{Name: "read_service", Result: &Figures{Rate: 500, Ops: 500, P50: 1, P99: 3, PeakRSS: 30 << 20},
		Baseline: &Figures{Rate: 1000, Ops: 1000, What: "bare chi handler"}, targets: []target{atLeast("ratio", 0.5, ratioOf)}}
	ok.evaluate()
	missing := unavailable("POST /v3/bookings answers 501")
	missing.Name = "create_booking"
	missing.evaluate()
	r.Scenarios = append(r.Scenarios, ok, missing)
	r.Process = Process{BinaryBytes: 20 << 20, IdleRSS: 20 << 20, IdleRSSAnon: 8 << 20, IdleRSSFile: 12 << 20, AfterLoadRSS: 25 << 20, StartToReadyMs: 50}
	r.finish()

	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("JSON output does not parse: %v\n%s", err, buf.String())
	}
	if len(back.Scenarios) != 2 || back.Scenarios[0].Ratio != 0.5 || back.Scenarios[1].Status != "unavailable" || back.AllMet {
		t.Fatalf("got %+v, want both scenarios, ratio 0.5, create_booking unavailable and not all met", back.Scenarios)
	}
	if back.Process.IdleRSSAnon != 8<<20 || back.Process.IdleRSSFile != 12<<20 {
		t.Fatalf("got idle RSS split %d + %d in JSON, want %d + %d", back.Process.IdleRSSAnon, back.Process.IdleRSSFile, 8<<20, 12<<20)
	}
	if back.Process.PeakRSS != 30<<20 {
		t.Fatalf("got process peak RSS %d, want the scenarios' peak %d", back.Process.PeakRSS, 30<<20)
	}

	buf.Reset()
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"read_service", "0.50", "≥ 0.50 ✓", "create_booking", "unavailable: POST /v3/bookings answers 501", "idle RSS", "anon 8, file 12, shmem 0 MiB", "start → ready"} {
		if !strings.Contains(text, want) {
			t.Fatalf("text output lacks %q:\n%s", want, text)
		}
	}
}

// A check shows the figure the scenario measured, even when the scenario failed (a failed
// day_in_the_life printed "webhook lag p99 0 ms (≤ 1000 ms ✗)" beside a 34 ms p50: the check
// was never read); it is then not met and says why. A figure that cannot be read fails an
// otherwise sound scenario and the run.
func TestChecksShowWhatWasMeasured(t *testing.T) {
	sound := func() (*Figures, *Figures) { return &Figures{Rate: 10, Ops: 10}, &Figures{Rate: 100, Ops: 100} }
	lag := func(v float64) []target {
		return []target{atMost("webhook lag p99", "ms", 1000, func(*ScenarioReport) float64 { return v })}
	}
	for _, tc := range []struct {
		name       string
		s          ScenarioReport
		wantStatus string
		wantCheck  Check
		wantText   string
	}{
		{"ok", func() ScenarioReport {
			r, b := sound()
			return ScenarioReport{Result: r, Baseline: b, targets: lag(152)}
		}(),
			"ok", Check{Value: 152, Met: true}, "webhook lag p99 152 ms (≤ 1000 ms ✓)"},
		{"failed scenario", func() ScenarioReport {
			r, b := sound()
			r.Errors, r.FirstError = 4, "PATCH /v3/bookings/17060/cancel: status 422"
			return ScenarioReport{Result: r, Baseline: b, targets: lag(152)}
		}(), "failed", Check{Value: 152, NotChecked: "the scenario failed"}, "webhook lag p99 152 ms (≤ 1000 ms ✗ not checked: the scenario failed)"},
		{"unreadable figure", func() ScenarioReport {
			r, b := sound()
			return ScenarioReport{Result: r, Baseline: b, targets: lag(unreadable)}
		}(),
			"failed", Check{Unreadable: true, NotChecked: "the scenario failed"}, "webhook lag p99 could not be read (≤ 1000 ms ✗"},
		{"unavailable", ScenarioReport{Status: "unavailable", Reason: "not yet", targets: lag(152)},
			"unavailable", Check{NotChecked: "the scenario is unavailable"}, "webhook lag p99 not measured (≤ 1000 ms ✗ not checked: the scenario is unavailable)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.Name = "day_in_the_life"
			tc.s.evaluate()
			c := tc.s.Checks[0]
			tc.wantCheck.What, tc.wantCheck.Unit, tc.wantCheck.Target = "webhook lag p99", "ms", "≤ 1000 ms"
			if tc.s.Status != tc.wantStatus || c != tc.wantCheck {
				t.Fatalf("got %s (%s) with %+v, want %s with %+v", tc.s.Status, tc.s.Reason, c, tc.wantStatus, tc.wantCheck)
			}
			r := newReport(Config{Concurrency: 1, Duration: time.Second, Now: time.Now})
			r.Scenarios = append(r.Scenarios, tc.s)
			r.Process = Process{BinaryBytes: 1 << 20, IdleRSS: 1 << 20, AfterLoadRSS: 1 << 20, PeakRSS: 1 << 20, StartToReadyMs: 1}
			r.finish()
			if r.AllMet != (tc.wantStatus == "ok") || (len(r.Failures()) > 0) != (tc.wantStatus == "failed") {
				t.Fatalf("all met %v, failures %v; want met only when ok, failures only when failed", r.AllMet, r.Failures())
			}
			var buf bytes.Buffer
			if err := r.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tc.wantText) || strings.Contains(buf.String(), "p99 0 ms") {
				t.Fatalf("the text lacks %q (or shows a made-up 0):\n%s", tc.wantText, buf.String())
			}
			buf.Reset()
			if err := r.WriteJSON(&buf); err != nil {
				t.Fatalf("JSON: %v", err) // an unreadable figure must not put a NaN in it
			}
		})
	}
}
