package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"frontdesk/app/bench"
)

// benchDurations are the recorded time per run and its warm-up, by default and with --short
// (which keeps the whole bench under a minute on a 2-core machine).
var benchDurations = map[bool][2]time.Duration{
	false: {10 * time.Second, 2 * time.Second},
	true:  {2 * time.Second, 500 * time.Millisecond},
}

// shortReturnWait is how long a run shorter than the default (--short, a small --duration)
// watches serve give memory back after its load: long enough to see it start, too short for
// the five-minute target, which a full run judges.
const shortReturnWait = 20 * time.Second

func runBench(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("bench", "[--short] [--duration D] [--concurrency N] [--json] [--bookings N] [--calendar-instances N]", env)
	short := fs.Bool("short", false, "2 s per scenario and baseline instead of 10 s; finishes in under a minute")
	duration := fs.Duration("duration", 0, "recorded time of each scenario and baseline (default 10s, 2s with --short)")
	concurrency := fs.Int("concurrency", 16, "closed-loop clients of the HTTP scenarios and their baselines")
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
	bookings := fs.Int("bookings", 100_000, "bookings seeded for list_bookings_100k; 0 skips that scenario")
	instances := fs.Int("calendar-instances", 100_000, "instances of the hostile calendar each provider of slots_day_synced syncs")
	only := fs.String("only", "", "comma-separated scenarios to run (default all: "+strings.Join(bench.Scenarios(), ",")+")")
	cpuProfile := fs.String("cpuprofile", "", "for diagnosis: write CPU profiles of each scenario's measured rounds, without its baseline's, to PREFIX.<scenario>.<round>.pprof (go tool pprof merges them)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	d := benchDurations[*short]
	if *duration != 0 {
		d[0] = *duration
		d[1] = min(d[1], *duration/4)
	}
	switch {
	case d[0] <= 0:
		return usagef("--duration must be positive")
	case *concurrency < 1 || *concurrency > 1024:
		return usagef("--concurrency must be between 1 and 1024")
	case *bookings < 0:
		return usagef("--bookings must be ≥ 0")
	case *instances < 1:
		return usagef("--calendar-instances must be positive")
	}
	cfg := bench.Config{
		Duration: d[0], Warmup: d[1], Concurrency: *concurrency, Bookings: *bookings, CalendarInstances: *instances,
		CPUProfile: *cpuProfile, Progress: env.Stderr, Now: env.Now, Serve: benchServeCommand(env),
	}
	if d[0] < benchDurations[false][0] {
		cfg.ReturnWait = shortReturnWait
	}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
		for _, name := range cfg.Only {
			if !slices.Contains(bench.Scenarios(), name) {
				return usagef("--only: unknown scenario %q (known: %s)", name, strings.Join(bench.Scenarios(), ", "))
			}
		}
	}
	rep, err := bench.Run(ctx, cfg, benchStarter(env))
	if err != nil {
		return err
	}
	if *asJSON {
		err = rep.WriteJSON(env.Stdout)
	} else {
		err = rep.WriteText(env.Stdout)
	}
	if err != nil {
		return err
	}
	// A missed target is a measurement; figures that cannot be trusted are a failed run.
	if failures := rep.Failures(); len(failures) > 0 {
		return fmt.Errorf("%d scenario(s) or figures failed: %s", len(failures), strings.Join(failures, "; "))
	}
	return nil
}

// benchStarter starts the real appliance in this process for `bench`: the same flags parsing,
// database opening, demo import, server and workers as serve, on a loopback port the kernel
// picks, with rate limits off and private webhook targets allowed. The FRONTDESK_* environment
// is ignored so that every bench measures the same configuration.
func benchStarter(env Env) bench.Starter {
	return func(ctx context.Context, dataDir string, logTo io.Writer) (*bench.Appliance, error) {
		serveEnv := Env{Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard, Now: env.Now}
		cfg, err := parseServeConfig(serveEnv, benchServeArgs(dataDir))
		if err != nil {
			return nil, err
		}
		log := newLogger(logTo, logJSON)
		d, _, err := createData(ctx, serveEnv, cfg.Data)
		if err != nil {
			return nil, err
		}
		_, demoErr := loadDemoIfEmpty(ctx, d, env.Now())
		if demoErr != nil {
			demoErr = fmt.Errorf("demo data: %w", demoErr)
		}
		ln, err := net.Listen("tcp", cfg.Addr)
		if err != nil {
			d.Close()
			return nil, err
		}
		srv, err := newServer(ctx, cfg, d, log, env.Now, linkBase(cfg, ln.Addr().String()))
		if err != nil {
			ln.Close()
			d.Close()
			return nil, err
		}
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- srv.serve(runCtx, ln, nil) }()
		return &bench.Appliance{
			URL: "http://" + ln.Addr().String(), DB: d, WebhookWorkers: cfg.WebhookWorkers, DemoErr: demoErr,
			Stop: func() error {
				stop()
				err := <-done
				if cerr := d.Close(); err == nil {
					err = cerr
				}
				return err
			},
		}, nil
	}
}

// benchServeArgs is the bench's configuration of the appliance, in process and as a child.
func benchServeArgs(dataDir string) []string {
	return []string{
		"--addr", "127.0.0.1:0", "--data", dataDir, "--demo",
		"--rate-limit-per-minute", "0", "--rate-limit-per-day", "0", "--webhook-allow-private",
	}
}

// benchServeCommand runs `frontdesk serve` as an owner runs it, for the bench's idle memory:
// this very executable (env.Executable in tests), with the bench's configuration and this
// process's environment less what would change that configuration or reach a service manager
// (FRONTDESK_*, NOTIFY_SOCKET, WATCHDOG_*, LISTEN_*).
func benchServeCommand(env Env) bench.ServeCommand {
	return func(dataDir string) (*exec.Cmd, error) {
		executable := env.Executable
		if executable == nil {
			executable = os.Executable
		}
		exe, err := executable()
		if err != nil {
			return nil, fmt.Errorf("find the frontdesk executable: %w", err)
		}
		cmd := exec.Command(exe, append([]string{"serve"}, benchServeArgs(dataDir)...)...)
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			if !strings.HasPrefix(name, "FRONTDESK_") && name != "NOTIFY_SOCKET" &&
				!strings.HasPrefix(name, "WATCHDOG_") && !strings.HasPrefix(name, "LISTEN_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		return cmd, nil
	}
}
