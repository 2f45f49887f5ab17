// Package bench measures frontdesk against this machine's own limits (README "Performance"): it runs the
// real appliance in-process on a loopback port and, with a built-in closed-loop load generator,
// drives each scenario and a baseline measured in the same run with the same client — a bare
// chi handler, a raw SQLite booking loop, a bare webhook POST loop. Absolute numbers on a
// shared machine drift from run to run; the ratio to the baseline is the figure that counts.
//
// The package cannot import app (app imports it), so app hands it a Starter that brings the
// real server up.
package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/db"
)

// Appliance is the real server, running in this process.
type Appliance struct {
	URL string // http://127.0.0.1:port
	// DB is the server's own database handle: the bench seeds through it and commits webhook
	// events through its InTx, which wakes the server's dispatcher as a booking would.
	DB             *db.DB
	WebhookWorkers int
	// DemoErr says why the demo business was not loaded (nil when it was).
	DemoErr error
	// Stop shuts the server down gracefully and closes the database.
	Stop func() error
}

// Starter starts the appliance over dataDir (created if needed) on a fresh loopback port, with
// rate limits off and private webhook targets allowed, logging to log, and returns once it
// accepts connections.
type Starter func(ctx context.Context, dataDir string, log io.Writer) (*Appliance, error)

// Config is one bench run.
type Config struct {
	Duration    time.Duration // recorded time of each scenario and baseline
	Warmup      time.Duration // unrecorded time before it
	Concurrency int           // closed-loop workers of the HTTP scenarios and their baselines
	Bookings    int           // bookings seeded for list_bookings_100k; 0 skips it
	// CalendarInstances is the size of the hostile calendar slots_day_synced gives each
	// provider (0: syncedInstances).
	CalendarInstances int
	// Only, if not empty, names the scenarios to run.
	Only []string
	// CPUProfile, if set, is a file name prefix: each scenario's measured rounds, without its
	// baseline's, write CPU profiles of the whole process (server and load generator) to
	// PREFIX.<scenario>.<round>.pprof (see env.profiled).
	CPUProfile string
	// Serve, if set, makes the command whose idle memory is the report's idle RSS; without
	// it that figure cannot be measured and fails.
	Serve ServeCommand
	// ReturnWait bounds how long the serve process is watched for giving memory back after
	// its load (0: five minutes, the idle RSS target's).
	ReturnWait time.Duration
	// Progress, if set, gets a line as each step starts.
	Progress io.Writer
	Now      func() time.Time
}

// Scenarios lists every scenario name in the order they run.
func Scenarios() []string {
	return []string{"read_service", "list_bookings", "list_bookings_not_modified", "slots_day", "slots_day_synced", "create_booking", "conflicting_booking", "webhook_fanout", "day_in_the_life", "week_view", "slots_visit", "series_check", "feed_provider", "site_times", "list_bookings_100k", "report_month"}
}

// env is what scenarios share during a run.
type env struct {
	cfg  Config
	load Load
	app  *Appliance
	api  *client
	key  string // the scenarios' API key
	fx   *fixture
	dir  string
	// slotsDay is slots_day's result, which slots_day_synced is compared with.
	slotsDay *Figures
}

func (e *env) progress(format string, args ...any) {
	if e.cfg.Progress != nil {
		fmt.Fprintf(e.cfg.Progress, "bench: "+format+"\n", args...)
	}
}

// Run runs the bench and returns its report. Scenarios whose feature the appliance does not
// serve yet are reported as unavailable, not faked; an error means the bench itself could not
// run.
func Run(ctx context.Context, cfg Config, start Starter) (*Report, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Concurrency < 1 || cfg.Duration <= 0 || cfg.Warmup < 0 {
		return nil, fmt.Errorf("bench: concurrency %d, duration %s and warm-up %s: want ≥ 1, > 0 and ≥ 0", cfg.Concurrency, cfg.Duration, cfg.Warmup)
	}
	for _, name := range cfg.Only {
		if !slices.Contains(Scenarios(), name) {
			return nil, fmt.Errorf("bench: unknown scenario %q (known: %s)", name, strings.Join(Scenarios(), ", "))
		}
	}
	dir, err := os.MkdirTemp("", "frontdesk-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()

	rep := newReport(cfg)
	e := &env{cfg: cfg, dir: dir, load: Load{Concurrency: cfg.Concurrency, Warmup: cfg.Warmup, Duration: cfg.Duration}}
	defer func() {
		if e.app != nil {
			e.app.Stop()
		}
	}()
	if err := e.startAppliance(ctx, start, filepath.Join(dir, "data"), logFile, rep); err != nil {
		return nil, err
	}

	for _, s := range scenarioTable() {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, s.name) {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		e.progress("%s", s.name)
		out := s.run(ctx, e)
		out.Name = s.name
		out.evaluate()
		rep.Scenarios = append(rep.Scenarios, out)
	}
	err = e.app.Stop()
	e.app = nil
	if err != nil {
		return nil, fmt.Errorf("stop the appliance: %w", err)
	}
	rep.finish()
	return rep, nil
}

// startAppliance starts the server on a fresh data directory (a new database and the demo import
// included) and imports the bench's records; stops it and measures the idle memory of a
// separate `frontdesk serve` over that data directory (measureServeIdle); and starts the
// server in this process again. The report gives both times to a 200 from /readyz, the serve
// process's idle memory and, for information, this process's after the restart.
func (e *env) startAppliance(ctx context.Context, start Starter, dataDir string, log io.Writer, rep *Report) error {
	e.progress("starting the appliance on a fresh data directory")
	first, app, err := timeToReady(ctx, start, dataDir, log)
	if err != nil {
		return err
	}
	e.app = app
	if app.DemoErr != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("demo business not loaded (%v); the bench's own records carry a company instead", app.DemoErr))
	}
	if err := e.setUp(ctx); err != nil {
		return err
	}
	e.app = nil
	if err := app.Stop(); err != nil {
		return fmt.Errorf("stop the appliance: %w", err)
	}
	e.measureServe(ctx, dataDir, log, rep)
	again, app, err := timeToReady(ctx, start, dataDir, log)
	if err != nil {
		return err
	}
	e.app = app
	e.api = newClient(app.URL, e.key, e.cfg.Concurrency)
	debug.FreeOSMemory() // a collection, and the freed memory back to the OS, as an idle process's scavenger would
	rep.Process.StartToReadyMs = millis(first)
	rep.Process.RestartToReadyMs = millis(again)
	self := readIdle("/proc/self/status")
	rep.Process.BenchIdleRSS, rep.Process.BenchIdleRSSAnon = self.rss, self.anon
	rep.Process.BenchIdleRSSFile, rep.Process.BenchIdleRSSShmem = self.file, self.shmem
	rep.Process.BinaryBytes = binarySize()
	return nil
}

// measureServe fills the report's idle memory from a `frontdesk serve` over dataDir. A serve
// that cannot be measured leaves the figure at 0, which fails its target, and a note says why.
func (e *env) measureServe(ctx context.Context, dataDir string, log io.Writer, rep *Report) {
	e.progress("measuring the idle memory of frontdesk serve")
	if e.cfg.Serve == nil {
		rep.Notes = append(rep.Notes, "idle RSS: no serve command to measure")
		return
	}
	// serve runs on a copy: its load writes bookings the scenarios must not find.
	serveDir := filepath.Join(e.dir, "serve-data")
	err := os.CopyFS(serveDir, os.DirFS(dataDir))
	var cmd *exec.Cmd
	if err == nil {
		cmd, err = e.cfg.Serve(serveDir)
	}
	if err == nil {
		var idle serveIdle
		load := &serveLoad{run: e.serveLoad, wait: cmp.Or(e.cfg.ReturnWait, returnWait)}
		idle, err = measureServeIdle(ctx, cmd, e.dir, log, load)
		if err == nil {
			p := &rep.Process
			p.IdleRSS, p.IdleRSSAnon, p.IdleRSSFile, p.IdleRSSShmem = idle.rss, idle.anon, idle.file, idle.shmem
			p.IdleSettleMs, p.IdleSettled = idle.settleMs, idle.settled
			p.AfterLoadRSS, p.AfterLoadPeakRSS = idle.afterLoad.rss, idle.peakLoad
			p.AfterLoadRSSAnon, p.AfterLoadRSSFile = idle.afterLoad.anon, idle.afterLoad.file
			p.AfterLoadReturnMs, p.AfterLoadReturned = idle.returnMs, idle.returned
			if !idle.settled {
				rep.Notes = append(rep.Notes, fmt.Sprintf("idle RSS: serve's RSS did not settle within %s; the last reading is reported", settleWait))
			}
			if !idle.returned {
				rep.Notes = append(rep.Notes, fmt.Sprintf("idle RSS after load: serve's RSS was not back within %d MiB of idle %s after the load; the last reading is reported", returnSlack>>20, load.wait))
			}
			return
		}
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("idle RSS could not be measured: %v", err))
}

// serveLoad is the load measureServe puts on the serve process before reading how much memory
// it gives back: for the bench's recorded duration at its concurrency, creates on free times
// of the booking hall (as create_booking makes them) alternating with lists of 30 bookings.
func (e *env) serveLoad(ctx context.Context, url string) error {
	c := newClient(url, e.key, e.cfg.Concurrency)
	defer c.close()
	list := fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", e.fx.hallLoc)
	var n atomic.Int64
	f := Drive(ctx, Load{Concurrency: e.cfg.Concurrency, Duration: e.cfg.Duration}, func(ctx context.Context, w int) (Outcome, error) {
		k := n.Add(1) - 1
		if k%2 == 1 {
			_, err := c.do(ctx, http.MethodGet, list, nil, http.StatusOK)
			return Succeeded, err
		}
		provider, start, err := e.fx.hall.free(k / 2)
		if err != nil {
			return 0, err
		}
		_, err = c.do(ctx, http.MethodPost, "/v3/bookings", e.bookingBody(k/2, e.fx.quick, provider, start), http.StatusCreated)
		return Succeeded, err
	})
	if f.Errors > 0 {
		return fmt.Errorf("%d of the requests failed", f.Errors)
	}
	return nil
}

// timeToReady starts the appliance and polls /readyz until it answers 200.
func timeToReady(ctx context.Context, start Starter, dataDir string, log io.Writer) (time.Duration, *Appliance, error) {
	t0 := time.Now()
	app, err := start(ctx, dataDir, log)
	if err != nil {
		return 0, nil, fmt.Errorf("start the appliance: %w", err)
	}
	hc := &http.Client{Timeout: time.Second}
	// The wait is generous: a race-instrumented build on a loaded machine takes many times the
	// usual 0.1–1 s, and the figure is measured, never judged by this deadline.
	for deadline := t0.Add(readyWait); time.Now().Before(deadline); {
		resp, err := hc.Get(app.URL + "/readyz")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(t0), app, nil
			}
		}
		time.Sleep(time.Millisecond)
	}
	app.Stop()
	return 0, nil, fmt.Errorf("the appliance at %s did not answer /readyz with 200 within %s", app.URL, readyWait)
}

// readyWait bounds how long timeToReady waits for /readyz.
const readyWait = 2 * time.Minute

func binarySize() int64 {
	exe, err := os.Executable()
	if err != nil {
		return 0
	}
	st, err := os.Stat(exe)
	if err != nil {
		return 0
	}
	return st.Size()
}

// setUp creates the API key the scenarios use and imports the bench's records.
func (e *env) setUp(ctx context.Context) error {
	e.progress("importing the bench records")
	now := e.cfg.Now()
	_, key, err := apikey.Create(ctx, e.app.DB, apikey.NewKey{Name: "frontdesk bench", Scopes: apikey.FullAccess}, now)
	if err != nil {
		return fmt.Errorf("create an API key: %w", err)
	}
	e.key = key
	e.fx, err = seedFixture(ctx, e.app.DB, now, demandOf(e.cfg))
	return err
}

// profiled runs fn, a scenario's measured run, and when the run asked for profiles writes a
// CPU profile of the scenario alone: each of the pair's scenario rounds (Load.ScenarioRound)
// goes to PREFIX.<name>.<round>.pprof, never mixed with the baseline's rounds; a run that drives
// no pair is profiled whole as PREFIX.<name>.1.pprof. `go tool pprof -top PREFIX.<name>.*.pprof`
// merges the rounds.
func (e *env) profiled(name string, fn func()) error {
	if e.cfg.CPUProfile == "" {
		fn()
		return nil
	}
	rounds := 0
	var profErr error
	profile := func(run func()) {
		rounds++
		f, err := os.Create(fmt.Sprintf("%s.%s.%d.pprof", e.cfg.CPUProfile, name, rounds))
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			profErr = cmp.Or(profErr, err)
			run()
			return
		}
		run()
		pprof.StopCPUProfile()
		profErr = cmp.Or(profErr, f.Close())
	}
	saved := e.load.ScenarioRound
	e.load.ScenarioRound = profile
	defer func() { e.load.ScenarioRound = saved }()
	if pairs[name] {
		fn()
	} else {
		profile(fn)
	}
	return profErr
}

// pairs names the scenarios whose measured run interleaves scenario and baseline rounds
// (DriveMixedPair, fanoutPair), so that profiled profiles their scenario rounds only.
var pairs = map[string]bool{
	"read_service": true, "list_bookings": true, "list_bookings_not_modified": true, "slots_day": true, "slots_day_synced": true,
	"create_booking": true, "conflicting_booking": true, "webhook_fanout": true, "day_in_the_life": true,
	"list_bookings_100k": true, "slots_visit": true, "series_check": true, "feed_provider": true, "site_times": true,
}

func goInfo() string { return runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH }
