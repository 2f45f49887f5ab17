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
	r.Process = Process{BinaryBytes: 20 << 20, IdleRSS: 20 << 20, StartToReadyMs: 50}
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
	if back.Process.PeakRSS != 30<<20 {
		t.Fatalf("got process peak RSS %d, want the scenarios' peak %d", back.Process.PeakRSS, 30<<20)
	}

	buf.Reset()
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"read_service", "0.50", "≥ 0.50 ✓", "create_booking", "unavailable: POST /v3/bookings answers 501", "idle RSS", "start → ready"} {
		if !strings.Contains(text, want) {
			t.Fatalf("text output lacks %q:\n%s", want, text)
		}
	}
}
