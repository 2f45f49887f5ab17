package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is a whole bench run; WriteJSON writes it as one JSON object.
type Report struct {
	Date        string           `json:"date"`
	Go          string           `json:"go"`
	CPUModel    string           `json:"cpu_model"`
	CPUs        int              `json:"cpus"`
	Seconds     float64          `json:"seconds_per_run"`
	Warmup      float64          `json:"warmup_seconds"`
	Concurrency int              `json:"concurrency"`
	Process     Process          `json:"process"`
	Scenarios   []ScenarioReport `json:"scenarios"`
	Checks      []Check          `json:"checks"`
	Notes       []string         `json:"notes"`
	// AllMet is true when every scenario ran and every check, theirs and the process's, was met.
	AllMet bool `json:"all_met"`
}

// Process is the figures of the appliance as a whole.
type Process struct {
	BinaryBytes int64 `json:"binary_bytes"`
	// StartToReadyMs is from starting on a fresh data directory (a new database and the demo
	// import included) to the first 200 from /readyz; RestartToReadyMs the same on the data
	// directory it left.
	StartToReadyMs   float64 `json:"start_to_ready_ms"`
	RestartToReadyMs float64 `json:"restart_to_ready_ms"`
	// IdleRSS is the idle resident memory of the appliance as an owner runs it: a separate
	// `frontdesk serve` process (the bench's own executable) over the bench's data directory
	// after the fixture import, read once it said READY=1, answered /readyz and its RSS
	// settled (README "Performance"). 0 when it could not be measured, which fails its target.
	IdleRSS int64 `json:"idle_rss_bytes"`
	// IdleRSSAnon, IdleRSSFile and IdleRSSShmem split IdleRSS (RssAnon, RssFile, RssShmem of
	// /proc/PID/status): the heap, stacks and runtime; the pages of the executable (and other
	// files) mapped in; the same for an executable on a tmpfs such as /dev/shm.
	IdleRSSAnon  int64 `json:"idle_rss_anon_bytes"`
	IdleRSSFile  int64 `json:"idle_rss_file_bytes"`
	IdleRSSShmem int64 `json:"idle_rss_shmem_bytes"`
	// IdleSettleMs is how long the serve process's RSS took to settle after it was ready;
	// IdleSettled is false when it had not settled within the bench's bound (the last
	// reading is then the figure, and a note says so).
	IdleSettleMs float64 `json:"idle_settle_ms"`
	IdleSettled  bool    `json:"idle_settled"`
	// AfterLoadRSS is the same serve process's RSS once it has given memory back after
	// creates and lists at the bench's concurrency for its recorded duration (AfterLoadPeakRSS
	// the most seen under them; serve runs on a copy of the data directory):
	// the first reading within 10 MiB of IdleRSS, AfterLoadReturnMs after the load ended,
	// or the reading five minutes after it (AfterLoadReturned false).
	AfterLoadRSS      int64   `json:"after_load_rss_bytes"`
	AfterLoadRSSAnon  int64   `json:"after_load_rss_anon_bytes"`
	AfterLoadRSSFile  int64   `json:"after_load_rss_file_bytes"`
	AfterLoadPeakRSS  int64   `json:"after_load_peak_rss_bytes"`
	AfterLoadReturnMs float64 `json:"after_load_return_ms"`
	AfterLoadReturned bool    `json:"after_load_returned"`
	// BenchIdleRSS and its split are the bench process's own resident memory after the
	// in-process restart, once ready and after a collection: the appliance plus the load
	// generator, the fixture import and the bench's code. Informational, no target.
	BenchIdleRSS      int64 `json:"bench_idle_rss_bytes"`
	BenchIdleRSSAnon  int64 `json:"bench_idle_rss_anon_bytes"`
	BenchIdleRSSFile  int64 `json:"bench_idle_rss_file_bytes"`
	BenchIdleRSSShmem int64 `json:"bench_idle_rss_shmem_bytes"`
	// PeakRSS is the most any recorded window saw, and PeakRSSDuring names that window.
	PeakRSS       int64  `json:"peak_rss_bytes"`
	PeakRSSDuring string `json:"peak_rss_during"`
}

// ScenarioReport is one scenario: its figures, its baseline's, the ratio and the checks.
type ScenarioReport struct {
	Name string `json:"name"`
	// Status is "ok", "unavailable" (the appliance does not serve the feature yet) or
	// "failed" (the bench could not measure it, or its figures cannot be trusted: errors on
	// either side, a window cut short, nothing measured); Reason says why when not ok.
	Status   string   `json:"status"`
	Reason   string   `json:"reason,omitempty"`
	Result   *Figures `json:"result,omitempty"`
	Baseline *Figures `json:"baseline,omitempty"`
	// Ratio is Result.Rate over Baseline.Rate.
	Ratio  float64 `json:"ratio"`
	Facts  []Fact  `json:"facts,omitempty"`
	Checks []Check `json:"checks"`
	// targets are checked by evaluate once the figures are in.
	targets []target
}

// Fact is a figure worth showing beside a scenario's rates.
type Fact struct {
	What  string  `json:"what"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
}

// Check is a figure against its target.
type Check struct {
	What   string  `json:"what"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit,omitempty"`
	Target string  `json:"target"`
	Met    bool    `json:"met"`
	// Unreadable says the figure could not be measured (its Value is meaningless): the check
	// fails, and so does the run.
	Unreadable bool `json:"unreadable,omitempty"`
	// NotChecked says why a scenario's check was not judged ("the scenario failed"): its
	// figures cannot be trusted, so the check is not met whatever Value, if any, says.
	NotChecked string `json:"not_checked,omitempty"`
}

// target is a check waiting for its figure: value reads it from the finished scenario, and
// returns unreadable (NaN) when there is no figure — a latency of no samples is not 0 ms.
type target struct {
	what, unit string
	atMost     bool
	limit      float64
	value      func(*ScenarioReport) float64
}

func atLeast(what string, limit float64, value func(*ScenarioReport) float64) target {
	return target{what: what, limit: limit, value: value}
}

func atMost(what, unit string, limit float64, value func(*ScenarioReport) float64) target {
	return target{what: what, unit: unit, atMost: true, limit: limit, value: value}
}

func ratioOf(s *ScenarioReport) float64 { return s.Ratio }

// unreadable is what a target's value returns when its figure could not be measured.
var unreadable = math.NaN()

// check judges v; an unreadable v (NaN) fails, with Value 0 (JSON has no NaN).
func (t target) check(v float64) Check {
	c := Check{What: t.what, Value: v, Unit: t.unit, Met: v >= t.limit, Target: "≥ " + trimFloat(t.limit)}
	if t.atMost {
		c.Met, c.Target = v <= t.limit, "≤ "+trimFloat(t.limit)
	}
	if t.unit != "" {
		c.Target += " " + t.unit
	}
	if math.IsNaN(v) {
		c.Value, c.Met, c.Unreadable = 0, false, true
	}
	return c
}

func trimFloat(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%.2f", v)
}

// evaluate computes the ratio and checks the targets; an unavailable or failed scenario meets
// none of them, and figures that cannot be trusted fail the scenario.
func (s *ScenarioReport) evaluate() {
	if s.Status == "" {
		s.Status = "ok"
	}
	if s.Result != nil && s.Baseline != nil {
		s.Ratio = ratio(s.Result.Rate, s.Baseline.Rate)
	}
	if why := s.unsound(); s.Status == "ok" && why != "" {
		s.Status, s.Reason = "failed", why
	}
	// A check reads its figure whenever the scenario produced figures, even when they cannot
	// be trusted: the table then shows what was measured, marked not checked, rather than a
	// made-up 0 (a failed day_in_the_life once printed "webhook lag p99 0 ms" beside a 34 ms
	// p50). A figure that cannot be read fails a scenario that was otherwise ok.
	s.Checks = []Check{}
	for _, t := range s.targets {
		c := Check{What: t.what, Target: t.check(0).Target, Unit: t.unit}
		if s.Result != nil && t.value != nil {
			c = t.check(t.value(s))
		}
		if c.Unreadable && s.Status == "ok" {
			s.Status, s.Reason = "failed", t.what+": could not be read"
		}
		if s.Status != "ok" {
			c.Met, c.NotChecked = false, "the scenario failed"
			if s.Status == "unavailable" {
				c.NotChecked = "the scenario is unavailable"
			}
		}
		s.Checks = append(s.Checks, c)
	}
}

// unsound says why the figures cannot be trusted, "" when they can: an error on either side
// (a 5xx, a wrong answer, a race window run dry), a recorded window cut short, or a side that
// measured nothing.
func (s *ScenarioReport) unsound() string {
	if s.Result == nil {
		return "no figures"
	}
	var why []string
	for _, side := range []struct {
		name string
		f    *Figures
	}{{"scenario", s.Result}, {"baseline", s.Baseline}} {
		switch f := side.f; {
		case f == nil:
		case f.Errors > 0:
			why = append(why, fmt.Sprintf("%s: %d errors (first: %s)", side.name, f.Errors, trimBody(f.FirstError)))
		case f.CutShort:
			why = append(why, side.name+": the recorded window was cut short")
		case f.Ops == 0:
			why = append(why, side.name+": nothing was measured")
		}
	}
	return strings.Join(why, "; ")
}

func newReport(cfg Config) *Report {
	return &Report{
		Date: cfg.Now().Format(time.DateOnly), Go: goInfo(), CPUModel: cpuModel(), CPUs: runtime.NumCPU(),
		Seconds: cfg.Duration.Seconds(), Warmup: cfg.Warmup.Seconds(), Concurrency: cfg.Concurrency,
		Scenarios: []ScenarioReport{}, Notes: []string{
			"the load generator runs in the same process as the appliance: client and server share the CPUs, and peak RSS includes the load generator; idle RSS is that of a separate `frontdesk serve` (this executable) on the bench's data directory, read once ready and settled",
			"absolute rates are shared-machine figures that drift between runs; the ratio to the baseline measured in the same run is what counts",
		},
	}
}

const mib = 1 << 20

// finish adds the process checks and sums up.
func (r *Report) finish() {
	for _, s := range r.Scenarios {
		for _, f := range []*Figures{s.Result, s.Baseline} {
			if f != nil && f.PeakRSS > r.Process.PeakRSS {
				r.Process.PeakRSS = f.PeakRSS
				r.Process.PeakRSSDuring = s.Name
				if f == s.Baseline {
					r.Process.PeakRSSDuring += " (its baseline)"
				}
			}
		}
	}
	p := r.Process
	r.Checks = []Check{
		readable(atMost("binary size", "MiB", 40, nil).check(float64(p.BinaryBytes)/mib), p.BinaryBytes),
		readable(atMost("idle RSS", "MiB", 30, nil).check(float64(p.IdleRSS)/mib), p.IdleRSS),
		readable(atMost("idle RSS after load", "MiB", 40, nil).check(float64(p.AfterLoadRSS)/mib), p.AfterLoadRSS),
		readable(atMost("peak RSS", "MiB", 200, nil).check(float64(p.PeakRSS)/mib), p.PeakRSS),
		readable(atMost("start → ready", "ms", 300, nil).check(p.StartToReadyMs), int64(p.StartToReadyMs*1000)),
	}
	r.AllMet = true
	for _, s := range r.Scenarios {
		r.AllMet = r.AllMet && s.Status == "ok"
		for _, c := range s.Checks {
			r.AllMet = r.AllMet && c.Met
		}
	}
	for _, c := range r.Checks {
		r.AllMet = r.AllMet && c.Met
	}
}

// readable fails c when its figure could not be read (0): a size that reads as nothing must
// not pass an "at most" target.
func readable(c Check, raw int64) Check {
	if raw <= 0 {
		c.Met, c.Unreadable = false, true
	}
	return c
}

// Failures lists what makes the run a failure, as opposed to a target missed: scenarios that
// failed and process figures that could not be read. `frontdesk bench` exits 1 when there is any.
func (r *Report) Failures() []string {
	var out []string
	for _, s := range r.Scenarios {
		if s.Status == "failed" {
			out = append(out, s.Name+": "+s.Reason)
		}
	}
	for _, c := range r.Checks {
		if c.Unreadable {
			out = append(out, c.What+": could not be read")
		}
	}
	return out
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteText writes the report as tables.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "frontdesk bench — %s, %d CPUs (%s), %s; %s recorded per run after %s warm-up, %d clients\n\n",
		r.Date, r.CPUs, r.CPUModel, r.Go, seconds(r.Seconds), seconds(r.Warmup), r.Concurrency)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\t rate/s\t p50 ms\t p99 ms\t errors\t peak RSS\t baseline/s\t p50 ms\t p99 ms\t errors\t ratio\t target\t")
	for _, s := range r.Scenarios {
		if s.Result == nil {
			fmt.Fprintf(tw, "%s\t %s: %s\t\t\t\t\t\t\t\t\t\t\n", s.Name, s.Status, s.Reason)
			continue
		}
		res, base := figureCells(s.Result), []string{"", "", "", ""}
		if s.Baseline != nil {
			base = figureCells(s.Baseline)[:4]
		}
		target := ratioTarget(s)
		if s.Status != "ok" {
			target = "✗ " + s.Status
		}
		fmt.Fprintf(tw, "%s\t %s\t %s\t %s\t %s\t %s\t %s\t %s\t %s\t %s\t %.2f\t %s\t\n", s.Name,
			res[0], res[1], res[2], res[3], res[4], base[0], base[1], base[2], base[3], s.Ratio, target)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, s := range r.Scenarios {
		var parts []string
		for _, f := range s.Facts {
			parts = append(parts, fmt.Sprintf("%s %s%s", f.What, number(f.Value), unitSuffix(f.Unit)))
		}
		for _, c := range s.Checks {
			if c.What != "ratio" {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", c.What, checkValue(c, s.Result != nil), checkVerdict(c)))
			}
		}
		if s.Status == "failed" && s.Result != nil {
			parts = append(parts, "FAILED: "+s.Reason)
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "%s: %s\n", s.Name, strings.Join(parts, "; "))
		}
		if s.Status == "ok" && s.Baseline != nil {
			fmt.Fprintf(w, "  baseline: %s\n", s.Baseline.What)
		}
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "process\tvalue\ttarget\t")
	for _, c := range r.Checks {
		value := number(c.Value) + unitSuffix(c.Unit)
		if c.Unreadable {
			value = "could not be read"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t\n", c.What, value, c.Target, mark(c.Met))
	}
	if p := r.Process; p.IdleRSSAnon > 0 || p.IdleRSSFile > 0 {
		fmt.Fprintf(tw, "idle RSS split\tanon %s, file %s, shmem %s MiB\t\t\n", number(float64(p.IdleRSSAnon)/mib),
			number(float64(p.IdleRSSFile)/mib), number(float64(p.IdleRSSShmem)/mib))
	}
	if p := r.Process; p.AfterLoadRSS > 0 {
		fmt.Fprintf(tw, "serve RSS after load\tpeak %s MiB under creates and lists; %s MiB (anon %s, file %s) %s s after\t\t\n",
			number(float64(p.AfterLoadPeakRSS)/mib), number(float64(p.AfterLoadRSS)/mib), number(float64(p.AfterLoadRSSAnon)/mib),
			number(float64(p.AfterLoadRSSFile)/mib), number(p.AfterLoadReturnMs/1000))
	}
	if p := r.Process; p.BenchIdleRSS > 0 {
		fmt.Fprintf(tw, "bench process idle RSS\t%s MiB (anon %s, file %s, shmem %s)\t\t\n", number(float64(p.BenchIdleRSS)/mib),
			number(float64(p.BenchIdleRSSAnon)/mib), number(float64(p.BenchIdleRSSFile)/mib), number(float64(p.BenchIdleRSSShmem)/mib))
	}
	fmt.Fprintf(tw, "restart → ready\t%s ms\t\t\n", number(r.Process.RestartToReadyMs))
	if r.Process.PeakRSSDuring != "" {
		fmt.Fprintf(tw, "peak RSS during\t%s\t\t\n", r.Process.PeakRSSDuring)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// figureCells formats rate, p50, p99, errors and peak RSS.
func figureCells(f *Figures) []string {
	if f == nil {
		return []string{"", "", "", "", ""}
	}
	rss := "n/a"
	if f.PeakRSS > 0 {
		rss = fmt.Sprintf("%.0f MiB", float64(f.PeakRSS)/mib)
	}
	return []string{number(f.Rate), fmt.Sprintf("%.2f", f.P50), fmt.Sprintf("%.2f", f.P99), fmt.Sprint(f.Errors), rss}
}

// checkValue is a scenario check's figure as the text report shows it: never a 0 that was not
// measured.
func checkValue(c Check, measured bool) string {
	switch {
	case c.Unreadable:
		return "could not be read"
	case !measured:
		return "not measured"
	}
	return number(c.Value) + unitSuffix(c.Unit)
}

// checkVerdict is a check's target and whether it was met, or why it was not judged.
func checkVerdict(c Check) string {
	if c.NotChecked != "" {
		return c.Target + " ✗ not checked: " + c.NotChecked
	}
	return c.Target + " " + mark(c.Met)
}

func ratioTarget(s ScenarioReport) string {
	for _, c := range s.Checks {
		if c.What == "ratio" {
			return c.Target + " " + mark(c.Met)
		}
	}
	return "—"
}

func mark(met bool) string {
	if met {
		return "✓"
	}
	return "✗"
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// number formats a figure with sensible precision: whole numbers above 100, two decimals below.
func number(v float64) string {
	if v >= 100 || v == float64(int64(v)) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func seconds(s float64) string { return (time.Duration(s * float64(time.Second))).String() }
