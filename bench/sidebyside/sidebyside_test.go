package main

import (
	"slices"
	"testing"
	"time"
)

func TestParseStatTicks(t *testing.T) {
	// A command name with spaces and a parenthesis of its own: the fields are counted after
	// the last ')'. utime 1234, stime 56.
	stat := "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 56 0 0 20 0 8 0 100 700000000 5000 18446744073709551615\n"
	got, err := parseStatTicks([]byte(stat))
	if err != nil || got != 1290 {
		t.Errorf("parseStatTicks = %d, %v; want 1290", got, err)
	}
	if _, err := parseStatTicks([]byte("4242 (x) S 1 2")); err == nil {
		t.Error("a short stat line was read")
	}
}

func TestParseStatusMem(t *testing.T) {
	status := "Name:\tfrontdesk\nVmPeak:\t 1300000 kB\nVmHWM:\t  104448 kB\nVmRSS:\t   27340 kB\nRssAnon:\t 6451 kB\n"
	rss, peak, err := parseStatusMem([]byte(status))
	if err != nil || rss != 27340 || peak != 104448 {
		t.Errorf("parseStatusMem = %d, %d, %v; want 27340, 104448", rss, peak, err)
	}
	if _, _, err := parseStatusMem([]byte("Name:\tkthreadd\nVmPeak:\t0 kB\n")); err == nil {
		t.Error("a status without VmRSS was read")
	}
}

func TestParseMachine(t *testing.T) {
	m, err := parseMachine([]byte("cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\n"))
	if err != nil || m != (machineTicks{total: 1000, idle: 800, iowait: 40}) {
		t.Errorf("parseMachine = %+v, %v", m, err)
	}
}

func TestParseWrk(t *testing.T) {
	out := "Running 2s test @ http://127.0.0.1:1\n  2 threads and 16 connections\n" +
		`SIDEBYSIDE {"requests":4000,"duration_us":2000000,"p50_us":700,"p99_us":5100,"mean_us":812.5,"max_us":9000,"non2xx":3,"connect_errors":0,"read_errors":1,"write_errors":0,"timeouts":2,"max_sent":2010}` +
		"\nSIDEBYSIDE_FIRSTBAD 409 {\"error\":\"conflict\"}\nRequests/sec: 2000.00\n"
	o, err := parseWrk([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if o.Requests != 4000 || o.P99US != 5100 || o.MaxSent != 2010 || o.errors() != 6 || o.FirstBad != `409 {"error":"conflict"}` {
		t.Errorf("parseWrk = %+v", o)
	}
	if _, err := parseWrk([]byte("Running 2s test\nRequests/sec: 1\n")); err == nil {
		t.Error("wrk's output without the script's report was read")
	}
}

// TestGridUnique: every request up to the grid's capacity gets a (provider, start) of its own,
// on the slot grid, from the first day on.
func TestGridUnique(t *testing.T) {
	g := newGrid([]int64{7, 8, 9}, time.Date(2026, 12, 2, 23, 59, 0, 0, time.UTC))
	if want := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC); !g.first.Equal(want) {
		t.Fatalf("first day %v, want %v", g.first, want)
	}
	type slot struct {
		provider int64
		start    time.Time
	}
	seen := map[slot]int64{}
	for k := range g.capacity() {
		p, s := g.at(k)
		if s.Before(g.first) || s.Minute()%stepMin != 0 {
			t.Fatalf("request %d: %v is off the grid", k, s)
		}
		if j, ok := seen[slot{p, s}]; ok {
			t.Fatalf("requests %d and %d both get provider %d at %v", j, k, p, s)
		}
		seen[slot{p, s}] = k
	}
}

func TestTableFigures(t *testing.T) {
	runs := []run{{PerSecond: 3}, {PerSecond: 1}, {PerSecond: 2}, {PerSecond: 10}}
	if m := median(runs, func(r run) float64 { return r.PerSecond }); m != 2.5 {
		t.Errorf("median = %v, want 2.5", m)
	}
	for x, want := range map[float64]string{27386.4: "27,386", 999.6: "1,000", 46: "46", 1137: "1,137", 1234567: "1,234,567"} {
		if got := thousands(x); got != want {
			t.Errorf("thousands(%v) = %q, want %q", x, got, want)
		}
	}
	for x, want := range map[float64]string{13.74: "13.7", 112.4: "112", 0.83: "0.8"} {
		if got := decimal(x); got != want {
			t.Errorf("decimal(%v) = %q, want %q", x, got, want)
		}
	}
	if got := rotate([]int{16, 64}, 3); !slices.Equal(got, []int{64, 16}) {
		t.Errorf("rotate = %v", got)
	}
}
