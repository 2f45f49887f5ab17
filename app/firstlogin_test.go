package app

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// First login (docs/deploy.md): without an owner, serve prints the setup URL — built from the
// public URL — as a plain, prominent line on standard error as well as in the JSON log, and
// /login says setup is pending and how to finish it.
func TestFirstLoginMessage(t *testing.T) {
	dir := newDataDir(t)
	srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--public-url", "https://book.example.test"})
	entries := srv.logEntries("first run: no owner account yet; open the setup URL in a browser to create one")
	if len(entries) != 1 {
		t.Fatalf("got %d first-run log entries, want 1:\n%s", len(entries), srv.logs)
	}
	url, _ := entries[0]["setup_url"].(string)
	if !strings.HasPrefix(url, "https://book.example.test/setup?token=") {
		t.Fatalf("setup URL %q is not built from the public URL", url)
	}
	if !strings.Contains(srv.logs.String(), "\n      "+url+"\n") || !strings.Contains(srv.logs.String(), "frontdesk owner create --data "+dir) {
		t.Errorf("no plain setup line on stderr:\n%s", srv.logs)
	}
	res, err := http.Get(srv.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`data-testid="setup-pending"`, "frontdesk owner create", "setup link"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/login lacks %q", want)
		}
	}
	if strings.Contains(string(body), url) || strings.Contains(string(body), "token=") {
		t.Error("/login shows the setup token to anyone")
	}

	// With an owner, neither the message nor the notice.
	srv.stop()
	if code, stderr := ownerCmd(t, "a long enough password\n", "create", "--data", dir, "--email", "ana@example.com"); code != 0 {
		t.Fatalf("owner create: %d %s", code, stderr)
	}
	srv = serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0"})
	res, err = http.Get(srv.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Contains(string(body), "setup-pending") || strings.Contains(srv.logs.String(), "one-time link") {
		t.Error("setup is offered although an owner exists")
	}
}

// The first-run message's command is the one the operator can run: under go run there is no
// frontdesk binary (its own is a temporary file, gone when it stops), so it says "go run .";
// otherwise the program as it was invoked.
func TestFirstRunCommandAsInvoked(t *testing.T) {
	dir := newDataDir(t)
	for program, want := range map[string]string{
		"/tmp/go-build2739384/b001/exe/frontdesk": "run on this server: go run . owner create --data " + dir + " --email you@example.com\n",
		"/root/.cache/go-build/b2/b2ed87ae5207680da76b6f672b65c6f4dfb141a5f0c684ec4657f99b477647ab-d/frontdesk": "run on this server: go run . owner create --data " + dir + " --email you@example.com\n",
		"/usr/local/bin/frontdesk": "run on this server: /usr/local/bin/frontdesk owner create --data " + dir + " --email you@example.com\n",
		"./frontdesk":              "run on this server: ./frontdesk owner create --data " + dir + " --email you@example.com\n",
	} {
		ctx, stop := context.WithCancel(context.Background())
		var logs lockedBuffer
		code := Run(ctx, Env{Program: program, Args: []string{"serve", "--addr", "127.0.0.1:0", "--data", dir},
			Stdout: io.Discard, Stderr: &logs, Ready: func(string) { stop() }})
		stop()
		if code != 0 || !strings.Contains(logs.String(), want) {
			t.Errorf("invoked as %s: exit %d, want %q in\n%s", program, code, want, logs.String())
		}
	}
}
