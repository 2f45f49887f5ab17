package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets this test binary stand in for `frontdesk serve` (serveHelperEnv set): it says
// READY=1 on NOTIFY_SOCKET with its address, answers /readyz, and on SIGTERM exits with the
// code the test asked for.
func TestMain(m *testing.M) {
	if mode := os.Getenv(serveHelperEnv); mode != "" {
		os.Exit(fakeServe(mode))
	}
	os.Exit(m.Run())
}

const serveHelperEnv = "FRONTDESK_BENCH_FAKE_SERVE"

func fakeServe(mode string) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 2
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/readyz" && mode != "not-ready" {
			w.Write([]byte("ready\n"))
			return
		}
		http.Error(w, "starting", http.StatusServiceUnavailable)
	}))
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	conn, err := net.Dial("unixgram", os.Getenv("NOTIFY_SOCKET"))
	if err != nil {
		return 2
	}
	fmt.Fprintf(conn, "READY=1\nSTATUS=serving http://%s", ln.Addr())
	conn.Close()
	<-stop
	code, _ := strconv.Atoi(strings.TrimPrefix(mode, "exit-"))
	return code
}

func fakeServeCommand(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveHelperEnv+"="+mode)
	return cmd
}

// The idle figure is the child's own memory, read from one status reading, once settled; a
// child that cannot be started, is never ready or does not stop cleanly gives no figure.
func TestMeasureServeIdle(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: idle memory is read from /proc/PID/status")
	}
	ctx := context.Background()
	idle, err := measureServeIdle(ctx, fakeServeCommand("exit-0"), t.TempDir(), io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if idle.rss <= 0 || idle.anon <= 0 || idle.rss != idle.anon+idle.file+idle.shmem || !idle.settled || idle.readyMs <= 0 {
		t.Fatalf("got %+v, want a settled reading whose split adds up", idle)
	}
	for _, tc := range []struct{ mode, want string }{
		{"exit-3", "did not stop cleanly"},
		{"not-ready", "/readyz answered 503"},
	} {
		idle, err := measureServeIdle(ctx, fakeServeCommand(tc.mode), t.TempDir(), io.Discard, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v (%+v), want an error saying %q", tc.mode, err, idle, tc.want)
		}
	}
	quits := exec.Command(os.Args[0], "-test.run=^$") // a process that ends without a word
	if _, err := measureServeIdle(ctx, quits, t.TempDir(), io.Discard, nil); err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("a process that exits at once: got %v, want it to exit before it was ready", err)
	}
}

// With a load, the child is loaded and then read until its memory is back near the idle
// figure; a load that fails is an error, not a figure.
func TestMeasureServeAfterLoad(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: idle memory is read from /proc/PID/status")
	}
	ctx := context.Background()
	loaded := false
	idle, err := measureServeIdle(ctx, fakeServeCommand("exit-0"), t.TempDir(), io.Discard, &serveLoad{wait: time.Minute, run: func(ctx context.Context, url string) error {
		loaded = getReadyz(url) == nil
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !loaded || !idle.returned || idle.afterLoad.rss <= 0 || idle.afterLoad.rss > idle.rss+returnSlack || idle.peakLoad < idle.afterLoad.rss {
		t.Fatalf("loaded %v, got %+v: want a reading back within %d bytes of idle and a peak at least as high", loaded, idle, returnSlack)
	}
	_, err = measureServeIdle(ctx, fakeServeCommand("exit-0"), t.TempDir(), io.Discard, &serveLoad{wait: time.Minute, run: func(context.Context, string) error {
		return fmt.Errorf("3 of the reads failed")
	}})
	if err == nil || !strings.Contains(err.Error(), "3 of the reads failed") {
		t.Fatalf("a failed load: got %v, want its error", err)
	}
}

// A serve that cannot be measured leaves the figure unreadable, which fails the run, and the
// report says why.
func TestUnmeasuredServeFailsIdleRSS(t *testing.T) {
	for name, serve := range map[string]ServeCommand{
		"no command":     nil,
		"no such binary": func(string) (*exec.Cmd, error) { return exec.Command("/nonexistent/frontdesk", "serve"), nil },
		"never ready":    func(string) (*exec.Cmd, error) { return fakeServeCommand("not-ready"), nil },
	} {
		t.Run(name, func(t *testing.T) {
			e := &env{cfg: Config{Serve: serve}, dir: t.TempDir()}
			r := newReport(Config{Concurrency: 1, Duration: time.Second, Now: time.Now})
			e.measureServe(context.Background(), t.TempDir(), io.Discard, r)
			r.Process.BinaryBytes, r.Process.PeakRSS, r.Process.StartToReadyMs = 1<<20, 1<<20, 1
			r.finish()
			if r.Process.IdleRSS != 0 || !strings.Contains(strings.Join(r.Notes, "\n"), "idle RSS") {
				t.Fatalf("got idle RSS %d and notes %q, want none and a note", r.Process.IdleRSS, r.Notes)
			}
			if f := r.Failures(); len(f) != 2 || !strings.Contains(f[0], "idle RSS") || !strings.Contains(f[1], "idle RSS after load") {
				t.Fatalf("got failures %v, want the idle RSS, fresh and after load", f)
			}
		})
	}
}
