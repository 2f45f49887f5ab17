// Package radicaletest runs a real CalDAV server for tests: Debian's radicale on a loopback
// port, its storage in a temporary directory, no authentication (any user name and password
// sign in as that user). .ci/run installs it; without it a test skips, except under CI
// (CI=true), where it fails.
package radicaletest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Server is one Radicale; Stop and Start again keep its calendars (the same storage and port).
type Server struct {
	t       testing.TB
	addr    string
	dir     string
	cmd     *exec.Cmd
	URL     string
	started bool
}

// Start runs a Radicale until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("radicale"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("radicale is not installed (.ci/run installs it)")
		}
		t.Skip("radicale is not installed: apt-get install radicale")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := &Server{t: t, addr: addr, dir: t.TempDir(), URL: "http://" + addr}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// Start starts a stopped server again, waiting until it accepts connections.
func (r *Server) Start() {
	r.t.Helper()
	cfg := filepath.Join(r.dir, "config")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[server]\nhosts = %s\n[auth]\ntype = none\n[storage]\nfilesystem_folder = %s\n[rights]\ntype = owner_only\n[logging]\nlevel = warning\n",
		r.addr, filepath.Join(r.dir, "collections"))), 0o600); err != nil {
		r.t.Fatal(err)
	}
	r.cmd = exec.Command("radicale", "--config", cfg)
	var out bytes.Buffer
	r.cmd.Stdout, r.cmd.Stderr = &out, &out
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.started = true
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", r.addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("radicale did not start: %s", out.String())
		}
		time.Sleep(50 * time.Millisecond) // polling a port that has no event to wait on
	}
}

// Stop kills the server; its port refuses connections until Start.
func (r *Server) Stop() {
	if r.started {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.started = false
	}
}

// Do sends one request as user and returns the status and body, failing the test on a status
// not in want (when want is given).
func (r *Server) Do(method, path, user, contentType, body string, want ...int) (int, string) {
	r.t.Helper()
	req, err := http.NewRequest(method, r.URL+path, strings.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	req.SetBasicAuth(user, "app-password")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if len(want) == 0 {
		return resp.StatusCode, string(data)
	}
	for _, w := range want {
		if resp.StatusCode == w {
			return resp.StatusCode, string(data)
		}
	}
	r.t.Fatalf("%s %s: %s", method, path, resp.Status)
	return 0, ""
}

// MkCalendar makes user's calendar name (events only).
func (r *Server) MkCalendar(user, name, displayName string) {
	r.t.Helper()
	r.Do("MKCALENDAR", "/"+user+"/"+name+"/", user, "application/xml",
		`<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>`+displayName+
			`</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`, http.StatusCreated)
}

// Put stores one calendar object.
func (r *Server) Put(user, calendarName, object, ics string) {
	r.t.Helper()
	r.Do(http.MethodPut, "/"+user+"/"+calendarName+"/"+object, user, "text/calendar; charset=utf-8", ics, http.StatusCreated, http.StatusNoContent)
}

// Calendar is the whole of user's calendar name as one iCalendar text, lines unfolded.
func (r *Server) Calendar(user, name string) string {
	r.t.Helper()
	_, body := r.Do(http.MethodGet, "/"+user+"/"+name+"/", user, "", "", http.StatusOK)
	return strings.ReplaceAll(body, "\r\n ", "")
}
