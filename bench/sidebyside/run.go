package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"time"
)

// server is one process under test, seen from outside.
type server struct {
	name string // frontdesk, pocketbase, chi
	url  string
	pid  int
}

// target is one kind of request, with the script each server gets for it; a server without a
// script for a target is not measured on it.
type target struct {
	name   string // one, list, create
	title  string
	script map[string]func(base int64) string
}

// run is one wrk run's figures: one server, one target, one connection count, one round.
type run struct {
	Kind          string  `json:"kind"`  // "run"
	Round         int     `json:"round"` // 0 is the warm-up
	Target        string  `json:"target"`
	Server        string  `json:"server"`
	Conns         int     `json:"conns"`
	Threads       int     `json:"threads"`
	Seconds       float64 `json:"seconds"`
	Requests      int64   `json:"requests"`
	PerSecond     float64 `json:"per_second"`
	P50MS         float64 `json:"p50_ms"`
	P99MS         float64 `json:"p99_ms"`
	MaxMS         float64 `json:"max_ms"`
	CPUMicros     float64 `json:"cpu_us_per_request"` // the server's user+system CPU over its requests
	Errors        int64   `json:"errors"`             // non-2xx answers and socket errors
	Non2xx        int64   `json:"non2xx"`
	FirstBad      string  `json:"first_bad,omitempty"`
	PeakRSSMiB    float64 `json:"peak_rss_mib"`   // the highest VmRSS sampled during the run
	MachineIdle   float64 `json:"machine_idle"`   // share of the machine's CPU time idle during the run
	MachineIOWait float64 `json:"machine_iowait"` // … of which waiting for I/O
}

// memory is one server's resident memory over the whole bench.
type memory struct {
	Kind      string  `json:"kind"` // "memory"
	Server    string  `json:"server"`
	IdleMiB   float64 `json:"idle_before_mib"` // VmRSS before the first request
	PeakMiB   float64 `json:"peak_mib"`        // VmHWM at the end: the peak over the process's life
	AfterMiB  float64 `json:"after_mib"`       // VmRSS after the last run and the settle time
	SettleSec float64 `json:"settle_seconds"`
}

func runCmd(ctx context.Context, args []string) error {
	fs := newFlags("run")
	wrkPath := fs.String("wrk", "wrk", "the wrk executable")
	dir := fs.String("dir", os.TempDir(), "where the wrk scripts are written")
	rounds := fs.Int("rounds", 5, "rounds; each round runs every target on every server at every connection count, in an order rotated per round")
	duration := fs.Duration("duration", 10*time.Second, "length of one wrk run")
	connsFlag := fs.String("conns", "16,64", "connection counts")
	threads := fs.Int("threads", 2, "wrk threads")
	warmup := fs.Duration("warmup", 2*time.Second, "an unrecorded run of each target on each server before the rounds (0: none)")
	pause := fs.Duration("pause", time.Second, "pause between runs")
	settle := fs.Duration("settle", 0, "wait after the last run before reading the memory left")
	clkTck := fs.Int("clk-tck", 100, "clock ticks per second of /proc's CPU times (getconf CLK_TCK)")
	jsonOut := fs.String("json", "", "also write the raw figures as JSON lines to this file")
	fdURL := fs.String("fd-url", "", "frontdesk's base URL")
	fdKey := fs.String("fd-key", "", "a frontdesk API key with full access")
	fdPID := fs.Int("fd-pid", 0, "frontdesk's process id")
	pbURL := fs.String("pb-url", "", "PocketBase's base URL")
	pbEmail := fs.String("pb-email", "", "a PocketBase superuser's email")
	pbPassword := fs.String("pb-password", "", "… and password")
	pbPID := fs.Int("pb-pid", 0, "PocketBase's process id")
	pbReads := fs.Int("pb-reads", 1000, "bookings seeded in PocketBase (as many as frontdesk's fixture --reads)")
	chiURL := fs.String("chi-url", "", "the chi baseline's base URL")
	chiPID := fs.Int("chi-pid", 0, "the chi baseline's process id")
	fs.Parse(args)
	conns, err := intList(*connsFlag)
	if err != nil {
		return fmt.Errorf("--conns: %v", err)
	}
	if *rounds < 1 || *duration < time.Second || *threads < 1 || slices.Min(conns) < *threads {
		return errors.New("want --rounds ≥ 1, --duration ≥ 1s, --threads ≥ 1 and every connection count ≥ --threads")
	}
	if *fdURL == "" || *fdKey == "" || *fdPID == 0 || *pbURL == "" || *pbPID == 0 || *chiURL == "" || *chiPID == 0 {
		return errors.New("--fd-url, --fd-key, --fd-pid, --pb-url, --pb-pid, --chi-url and --chi-pid are required")
	}

	fd, err := findFrontdesk(ctx, *fdURL, *fdKey)
	if err != nil {
		return err
	}
	pb, err := setupPocketBase(ctx, *pbURL, *pbEmail, *pbPassword, *pbReads)
	if err != nil {
		return err
	}
	now := time.Now()
	fdGrid := newGrid(fd.hallProviders, now)
	pbProviders := make([]int64, len(fd.hallProviders)) // the same number of providers, numbered
	pbClients := make([]int64, benchClients)
	for i := range pbProviders {
		pbProviders[i] = int64(i + 1)
	}
	for i := range pbClients {
		pbClients[i] = int64(i + 1)
	}
	pbGrid := newGrid(pbProviders, now)

	servers := []server{{"frontdesk", *fdURL, *fdPID}, {"pocketbase", *pbURL, *pbPID}, {"chi", *chiURL, *chiPID}}
	// The create bodies (createScript fills in the start, provider, client and end): frontdesk's
	// is the documented booking request, whose end the service's duration gives; PocketBase's
	// is the same record with its end.
	fdBody := fmt.Sprintf(`{"location_id":%d,"service_id":%d,"status_id":1,"start_time":"%%s","provider_id":%%d,"client_id":%%d,"notes":"side by side"}`,
		fd.hall, fd.service)
	pbBody := fmt.Sprintf(`{"start":"%%s","provider":%%d,"client":%%d,"end":"%%s","service":%d,"location":%d,"status":"confirmed","notes":"side by side"}`,
		pbService, pbHall)
	targets := []target{
		{"one", "one record", map[string]func(int64) string{
			"frontdesk":  func(int64) string { return readScript(fmt.Sprintf("/v3/bookings/%d", fd.readID), fd.auth()) },
			"pocketbase": func(int64) string { return readScript("/api/collections/bookings/records/"+pb.readID, pb.auth()) },
			"chi":        func(int64) string { return readScript("/thing", nil) },
		}},
		{"list", "list of 30", map[string]func(int64) string{
			"frontdesk": func(int64) string {
				return readScript(fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", fd.reads), fd.auth())
			},
			"pocketbase": func(int64) string {
				q := url.Values{"perPage": {"30"}, "filter": {fmt.Sprintf("location=%d", pbReads)}, "sort": {"start,id"}}
				return readScript("/api/collections/bookings/records?"+q.Encode(), pb.auth())
			},
		}},
		{"create", "create", map[string]func(int64) string{
			"frontdesk": func(base int64) string {
				return createScript("/v3/bookings", fd.auth(), fdGrid, fd.clients, base, *threads, fdBody)
			},
			"pocketbase": func(base int64) string {
				return createScript("/api/collections/bookings/records", pb.auth(), pbGrid, pbClients, base, *threads, pbBody)
			},
		}},
	}
	grids := map[string]grid{"frontdesk": fdGrid, "pocketbase": pbGrid}
	bases := map[string]int64{}

	var mems []memory
	for _, s := range servers {
		rss, _, err := memKiB(s.pid)
		if err != nil {
			return fmt.Errorf("%s (pid %d): %v", s.name, s.pid, err)
		}
		mems = append(mems, memory{Kind: "memory", Server: s.name, IdleMiB: mib(rss)})
	}

	var out []run
	var jsonw io.Writer = io.Discard
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			return err
		}
		defer f.Close()
		jsonw = f
	}
	one := func(round, c int, t target, s server, d time.Duration) error {
		script, ok := t.script[s.name]
		if !ok {
			return nil
		}
		if g, ok := grids[s.name]; ok && t.name == "create" && bases[s.name]+int64(20_000*d.Seconds()) > g.capacity() {
			return fmt.Errorf("%s: the create grid (%d times) could run out in this run: give the fixture more --providers", s.name, g.capacity())
		}
		name := fmt.Sprintf("r%d-c%d-%s-%s", round, c, t.name, s.name)
		r, err := measure(ctx, *wrkPath, *dir, name, s, script(bases[s.name]), *threads, c, d, *clkTck)
		if err != nil {
			return err
		}
		bases[s.name] += int64(*threads) * r.maxSent
		r.Round, r.Target = round, t.name
		fmt.Fprintf(os.Stderr, "round %d, %d connections, %-6s %-10s %8.0f/s  p99 %6.1f ms  CPU %6.0f µs/req  errors %d %s\n",
			round, c, t.name, s.name, r.PerSecond, r.P99MS, r.CPUMicros, r.Errors, r.FirstBad)
		b, _ := json.Marshal(r.run) // a struct of numbers and strings always encodes
		fmt.Fprintf(jsonw, "%s\n", b)
		if round > 0 {
			out = append(out, r.run)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(*pause):
		}
		return nil
	}
	if *warmup > 0 {
		for _, t := range targets {
			for _, s := range servers {
				if err := one(0, conns[len(conns)-1], t, s, *warmup); err != nil {
					return err
				}
			}
		}
	}
	for round := 1; round <= *rounds; round++ {
		for _, c := range rotate(conns, round-1) {
			for _, t := range rotate(targets, round-1) {
				for _, s := range rotate(servers, round-1) {
					if err := one(round, c, t, s, *duration); err != nil {
						return err
					}
				}
			}
		}
	}
	if *settle > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(*settle):
		}
	}
	for i, s := range servers {
		rss, peak, err := memKiB(s.pid)
		if err != nil {
			return fmt.Errorf("%s (pid %d): %v", s.name, s.pid, err)
		}
		mems[i].PeakMiB, mems[i].AfterMiB, mems[i].SettleSec = mib(peak), mib(rss), settle.Seconds()
		b, _ := json.Marshal(mems[i])
		fmt.Fprintf(jsonw, "%s\n", b)
	}

	writeTable(os.Stdout, out, mems, conns, targets)
	fmt.Println()
	for _, r := range out {
		b, _ := json.Marshal(r)
		fmt.Printf("%s\n", b)
	}
	for _, m := range mems {
		b, _ := json.Marshal(m)
		fmt.Printf("%s\n", b)
	}
	var bad int64
	for _, r := range out {
		bad += r.Errors
	}
	if bad > 0 {
		return fmt.Errorf("%d requests did not get a 2xx answer: the figures above are not to be trusted", bad)
	}
	return nil
}

// measured is a run and what the next create script's base needs.
type measured struct {
	run
	maxSent int64
}

// measure runs wrk once against s, reading the server's CPU time before and after and its
// resident memory every 100 ms in between.
func measure(ctx context.Context, wrk, dir, name string, s server, script string, threads, conns int, d time.Duration, clkTck int) (measured, error) {
	cpu0, err := cpuTicks(s.pid)
	if err != nil {
		return measured{}, fmt.Errorf("%s (pid %d) is not running: %v", s.name, s.pid, err)
	}
	m0, err := readMachine()
	if err != nil {
		return measured{}, err
	}
	stop := make(chan struct{})
	peak := make(chan int64)
	go func() {
		var hi int64
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if rss, _, err := memKiB(s.pid); err == nil {
				hi = max(hi, rss)
			}
			select {
			case <-stop:
				peak <- hi
				return
			case <-tick.C:
			}
		}
	}()
	o, err := runWrk(ctx, wrk, dir, name, s.url, script, threads, conns, d)
	close(stop)
	hi := <-peak
	if err != nil {
		return measured{}, err
	}
	cpu1, err := cpuTicks(s.pid)
	if err != nil {
		return measured{}, fmt.Errorf("%s (pid %d) ended during the run: %v", s.name, s.pid, err)
	}
	m1, err := readMachine()
	if err != nil {
		return measured{}, err
	}
	secs := float64(o.DurationUS) / 1e6
	r := run{Kind: "run", Server: s.name, Conns: conns, Threads: threads, Seconds: secs, Requests: o.Requests,
		P50MS: o.P50US / 1000, P99MS: o.P99US / 1000, MaxMS: o.MaxUS / 1000,
		Errors: o.errors(), Non2xx: o.Non2xx, FirstBad: o.FirstBad, PeakRSSMiB: mib(hi)}
	if secs > 0 {
		r.PerSecond = float64(o.Requests) / secs
	}
	if o.Requests > 0 {
		r.CPUMicros = float64(cpu1-cpu0) * 1e6 / float64(clkTck) / float64(o.Requests)
	}
	if total := m1.total - m0.total; total > 0 {
		r.MachineIdle = float64(m1.idle-m0.idle) / float64(total)
		r.MachineIOWait = float64(m1.iowait-m0.iowait) / float64(total)
	}
	return measured{run: r, maxSent: o.MaxSent}, nil
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

// rotate is s begun at its element n (mod its length).
func rotate[T any](s []T, n int) []T {
	n %= len(s)
	return append(slices.Clone(s[n:]), s[:n]...)
}
