package systemd

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"
)

func TestFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name     string
		vars     map[string]string
		enabled  bool
		watchdog time.Duration
	}{
		{"not under systemd", nil, false, 0},
		{"notify only", map[string]string{"NOTIFY_SOCKET": "/run/x"}, true, 0},
		{"watchdog for us", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, true, 30 * time.Second},
		{"watchdog without pid", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "500000"}, true, 500 * time.Millisecond},
		{"watchdog for another process", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"}, true, 0},
		{"garbage interval", map[string]string{"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "soon"}, true, 0},
	}
	for _, c := range cases {
		n := FromEnv(env(c.vars), 42)
		if n.Enabled() != c.enabled || n.watchdog != c.watchdog {
			t.Errorf("%s: enabled %v watchdog %v, want %v %v", c.name, n.Enabled(), n.watchdog, c.enabled, c.watchdog)
		}
	}
	if err := FromEnv(env(nil), 1).Notify("READY=1"); err != nil {
		t.Errorf("Notify outside systemd: %v, want a silent no-op", err)
	}
}

// The watchdog pings only while the health check passes.
func TestWatchdogFollowsHealth(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "n.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	n := Notifier{socket: sock, watchdog: 40 * time.Millisecond}
	healthy := make(chan bool, 1)
	healthy <- true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var failures int
	done := make(chan struct{})
	state := true
	go func() {
		defer close(done)
		n.Watchdog(ctx, func(context.Context) error {
			select {
			case state = <-healthy:
			default:
			}
			if !state {
				return errors.New("database gone")
			}
			return nil
		}, func(error) { failures++ })
	}()
	buf := make([]byte, 64)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if k, err := conn.Read(buf); err != nil || string(buf[:k]) != "WATCHDOG=1" {
		t.Fatalf("got %q, %v; want WATCHDOG=1", buf[:k], err)
	}
	healthy <- false
	// Drain pings already sent, then expect silence for several intervals.
	time.Sleep(60 * time.Millisecond)
	for {
		conn.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
		if _, err := conn.Read(buf); err != nil {
			break
		}
	}
	conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if k, err := conn.Read(buf); err == nil {
		t.Errorf("got %q while unhealthy, want no ping", buf[:k])
	}
	cancel()
	<-done
	if failures == 0 {
		t.Error("unhealthy checks were not reported")
	}
}
