// Package systemd speaks the sd_notify protocol, so that `frontdesk serve` under the unit in
// deploy/frontdesk.service (Type=notify, WatchdogSec=) tells systemd when it is ready, when it
// stops, and that it is still alive. Outside systemd (no NOTIFY_SOCKET) everything here does
// nothing. The protocol is one datagram per message on a unix socket; see sd_notify(3).
package systemd

import (
	"context"
	"net"
	"strconv"
	"strings"
	"time"
)

// Notifier sends state changes to the service manager.
type Notifier struct {
	socket   string        // NOTIFY_SOCKET; "" when not run by systemd
	watchdog time.Duration // WATCHDOG_USEC; 0 when no watchdog is configured
}

// FromEnv reads NOTIFY_SOCKET, and WATCHDOG_USEC if WATCHDOG_PID is unset or is pid.
func FromEnv(getenv func(string) string, pid int) Notifier {
	n := Notifier{socket: getenv("NOTIFY_SOCKET")}
	if p := getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(pid) {
		return n
	}
	if us, err := strconv.ParseInt(getenv("WATCHDOG_USEC"), 10, 64); err == nil && us > 0 {
		n.watchdog = time.Duration(us) * time.Microsecond
	}
	return n
}

// Enabled reports whether a service manager is listening.
func (n Notifier) Enabled() bool { return n.socket != "" }

// Notify sends one state string, such as "READY=1" or "STOPPING=1".
func (n Notifier) Notify(state string) error {
	if n.socket == "" {
		return nil
	}
	name := n.socket
	if strings.HasPrefix(name, "@") { // an abstract socket
		name = "\x00" + name[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(state))
	return err
}

// Watchdog pings the watchdog at half its interval for as long as healthy says so, until ctx
// is done. A process whose health check fails stops pinging, and systemd restarts it. Without
// a configured watchdog it just waits for ctx.
func (n Notifier) Watchdog(ctx context.Context, healthy func(context.Context) error, onErr func(error)) error {
	if n.socket == "" || n.watchdog <= 0 {
		<-ctx.Done()
		return nil
	}
	t := time.NewTicker(n.watchdog / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			checkCtx, cancel := context.WithTimeout(ctx, n.watchdog/2)
			err := healthy(checkCtx)
			cancel()
			if err != nil {
				onErr(err)
				continue
			}
			if err := n.Notify("WATCHDOG=1"); err != nil {
				onErr(err)
			}
		}
	}
}
