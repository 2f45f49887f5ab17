package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ServeCommand returns the command that runs the appliance as an owner runs it: `frontdesk
// serve`, the same executable as the bench, over dataDir with the bench's configuration (a
// port the kernel picks, no FRONTDESK_* environment). The bench adds NOTIFY_SOCKET to its
// environment and sets its output.
type ServeCommand func(dataDir string) (*exec.Cmd, error)

// idleSample is resident memory of one process, in bytes (VmRSS and its split in
// /proc/PID/status).
type idleSample struct {
	rss, anon, file, shmem int64
}

// readIdle reads the resident memory of the process whose status file is status
// ("/proc/self/status", "/proc/1234/status"), all four figures from one reading; zeros where
// it cannot be read.
func readIdle(status string) idleSample {
	raw, err := os.ReadFile(status)
	if err != nil {
		return idleSample{}
	}
	return idleSample{
		rss:   statusField(raw, "VmRSS"),
		anon:  statusField(raw, "RssAnon"),
		file:  statusField(raw, "RssFile"),
		shmem: statusField(raw, "RssShmem"),
	}
}

// Settling: an idle process is read every settleEvery until settleReads readings in a row lie
// within settleSpread of each other (the runtime's background scavenger has returned what it
// will, start-up's goroutines are done), for at most settleWait.
const (
	settleEvery  = 100 * time.Millisecond
	settleReads  = 10
	settleSpread = 128 << 10
	settleWait   = 30 * time.Second
)

// serveIdle is what measureServeIdle found.
type serveIdle struct {
	idleSample
	readyMs  float64 // start of the process to its READY=1
	settleMs float64 // READY=1 to settled
	settled  bool    // false: settleWait passed first, and the last reading is reported
	// afterLoad is the reading once memory came back after the load (or when the load's wait
	// passed first: returned is then false); peakLoad the most seen under the load; returnMs
	// the end of the load to that reading. Zero when no load was run.
	afterLoad idleSample
	peakLoad  int64
	returnMs  float64
	returned  bool
}

// serveLoad is the load measureServeIdle puts on the serve process: run loads it at url (its
// base URL) and returns when done; then the process is read every returnEvery until its RSS
// lies within returnSlack of the fresh idle figure, for at most wait.
type serveLoad struct {
	run  func(ctx context.Context, url string) error
	wait time.Duration
}

const (
	returnEvery = time.Second
	returnSlack = 10 << 20
	// returnWait is serveLoad's wait in a full run: the "five minutes after load" of the
	// idle RSS target (README "Performance").
	returnWait = 5 * time.Minute
)

// measureServeIdle starts cmd (a `frontdesk serve`), waits for it to tell the service manager
// it is ready (sd_notify READY=1, the signal systemd waits for) and for /readyz to answer 200,
// reads its resident memory until it settles; with a load, runs it, then reads the memory
// until it comes back near the settled figure; and stops it with SIGTERM, as systemd does. An
// error means the figure could not be measured; the process is stopped in every case.
func measureServeIdle(ctx context.Context, cmd *exec.Cmd, dir string, log io.Writer, load *serveLoad) (serveIdle, error) {
	var out serveIdle
	sock := filepath.Join(dir, "notify.sock")
	os.Remove(sock)
	notify, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		return out, fmt.Errorf("listen for sd_notify: %w", err)
	}
	defer notify.Close()
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "NOTIFY_SOCKET="+sock)
	cmd.Stdout, cmd.Stderr = log, log
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return out, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return fmt.Errorf("stop serve: %w", err)
		}
		select {
		case err := <-exited:
			if err != nil {
				return fmt.Errorf("serve did not stop cleanly: %w", err)
			}
			return nil
		case <-time.After(stopWait):
			cmd.Process.Kill()
			<-exited
			return fmt.Errorf("serve did not stop within %s of SIGTERM", stopWait)
		}
	}
	defer stop()

	url, err := awaitReady(ctx, notify, exited)
	if err != nil {
		return out, err
	}
	out.readyMs = millis(time.Since(t0))
	if err := getReadyz(url); err != nil {
		return out, err
	}
	t1 := time.Now()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	out.idleSample, out.settled, err = settle(ctx, status, exited)
	if err != nil {
		return out, err
	}
	out.settleMs = millis(time.Since(t1))
	if load != nil {
		if err := out.loadAndReturn(ctx, url, status, exited, load); err != nil {
			return out, err
		}
	}
	return out, stop()
}

// loadAndReturn runs load against the serve process while watching its peak RSS, then reads
// its RSS every returnEvery until it is back within returnSlack of the settled figure.
func (out *serveIdle) loadAndReturn(ctx context.Context, url, status string, exited <-chan error, load *serveLoad) error {
	loaded := make(chan error, 1)
	go func() { loaded <- load.run(ctx, url) }()
	tick := time.NewTicker(returnEvery)
	defer tick.Stop()
	for running := true; running; {
		select {
		case err := <-loaded:
			if err != nil {
				return fmt.Errorf("load on serve: %w", err)
			}
			running = false
		case err := <-exited:
			return fmt.Errorf("serve exited under load: %v", err)
		case <-tick.C:
			out.peakLoad = max(out.peakLoad, readIdle(status).rss)
		}
	}
	t0 := time.Now()
	for {
		s := readIdle(status)
		if s.rss <= 0 {
			return fmt.Errorf("cannot read %s", status)
		}
		out.peakLoad = max(out.peakLoad, s.rss)
		out.afterLoad, out.returnMs = s, millis(time.Since(t0))
		if s.rss <= out.rss+returnSlack {
			out.returned = true
			return nil
		}
		if time.Since(t0) >= load.wait {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-exited:
			return fmt.Errorf("serve exited while idle after load: %v", err)
		case <-tick.C:
		}
	}
}

// stopWait bounds a graceful stop of the measured serve (its own shutdown timeout is 20 s).
const stopWait = 30 * time.Second

// awaitReady reads sd_notify datagrams until READY=1 and returns the URL of the STATUS that
// comes with it ("serving http://127.0.0.1:port").
func awaitReady(ctx context.Context, notify *net.UnixConn, exited <-chan error) (string, error) {
	buf := make([]byte, 4096)
	deadline := time.Now().Add(readyWait)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return "", fmt.Errorf("serve exited before it was ready: %v", err)
		default:
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		notify.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := notify.Read(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("read sd_notify: %w", err)
		}
		ready, url := false, ""
		for line := range strings.SplitSeq(string(buf[:n]), "\n") {
			ready = ready || line == "READY=1"
			if s, ok := strings.CutPrefix(line, "STATUS=serving "); ok {
				url = s
			}
		}
		if ready {
			if url == "" {
				return "", fmt.Errorf("serve said READY=1 without its address: %q", buf[:n])
			}
			return url, nil
		}
	}
	return "", fmt.Errorf("serve did not say READY=1 within %s", readyWait)
}

// getReadyz asks the ready process its /readyz, as a health check would.
func getReadyz(url string) error {
	hc := &http.Client{Timeout: 10 * time.Second}
	resp, err := hc.Get(url + "/readyz")
	if err != nil {
		return fmt.Errorf("serve's /readyz: %w", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	hc.CloseIdleConnections()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("serve's /readyz answered %d, want 200", resp.StatusCode)
	}
	return nil
}

// settle reads status until settleReads readings in a row lie within settleSpread, and
// returns the last one; after settleWait it returns the last reading unsettled.
func settle(ctx context.Context, status string, exited <-chan error) (idleSample, bool, error) {
	tick := time.NewTicker(settleEvery)
	defer tick.Stop()
	var recent []int64
	deadline := time.Now().Add(settleWait)
	for {
		s := readIdle(status)
		if s.rss <= 0 {
			return s, false, fmt.Errorf("cannot read %s", status)
		}
		recent = append(recent, s.rss)
		if len(recent) > settleReads {
			recent = recent[1:]
		}
		if len(recent) == settleReads && spread(recent) <= settleSpread {
			return s, true, nil
		}
		if time.Now().After(deadline) {
			return s, false, nil
		}
		select {
		case <-ctx.Done():
			return s, false, ctx.Err()
		case err := <-exited:
			return s, false, fmt.Errorf("serve exited while idle: %v", err)
		case <-tick.C:
		}
	}
}

func spread(xs []int64) int64 {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

// procStatusOf reads one "Vm…/Rss…: N kB" field of a /proc status file, in bytes; 0 where it
// cannot be read.
func procStatusOf(status, field string) int64 {
	raw, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	return statusField(raw, field)
}

// statusField is one "Name: N kB" field of a /proc status file's text, in bytes; 0 if absent.
func statusField(raw []byte, field string) int64 {
	for line := range bytes.SplitSeq(raw, []byte("\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || string(name) != field {
			continue
		}
		var kb int64
		if _, err := fmt.Sscanf(string(bytes.TrimSpace(value)), "%d kB", &kb); err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
