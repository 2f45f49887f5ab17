package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"frontdesk/app/secrets"
	"frontdesk/app/tlsacme"
	"frontdesk/db"
)

// runHealthcheck is `frontdesk healthcheck`: GET the running server's /readyz and exit 0 when it
// answers 200, 1 otherwise. It is the container's HEALTHCHECK (deploy/Dockerfile), so the image
// needs no shell or curl. By default it finds the server the way serve would listen, from the
// same FRONTDESK_* environment.
func runHealthcheck(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("healthcheck", "[--url URL] [--timeout 5s]", env)
	url := fs.String("url", env.Getenv("FRONTDESK_HEALTHCHECK_URL"), "readiness URL to probe; default: /readyz on the address serve listens on (env FRONTDESK_HEALTHCHECK_URL)")
	timeout := fs.Duration("timeout", envDuration(env, "FRONTDESK_HEALTHCHECK_TIMEOUT", 5*time.Second), "give up after this long (env FRONTDESK_HEALTHCHECK_TIMEOUT)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *url == "" {
		*url = defaultHealthURL(env)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return usagef("--url: %v", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", *url, err)
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s", *url, res.Status, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", *url, strings.TrimSpace(string(body)))
	return nil
}

// defaultHealthURL is /readyz where serve, given the same environment, listens in plain HTTP:
// --addr, or with --https the HTTP listener (which answers /readyz without redirecting).
func defaultHealthURL(env Env) string {
	addr := envString(env, "FRONTDESK_ADDR", "127.0.0.1:8080")
	if envBool(env, "FRONTDESK_HTTPS", false) {
		addr = envString(env, "FRONTDESK_HTTP_ADDR", ":80")
	}
	return "http://" + localAddr(addr) + "/readyz"
}

// runDoctor is `frontdesk doctor`, a preflight for a real installation: with the same flags and
// FRONTDESK_* environment as serve it tells whether the database is there and current, whether
// the public URL is set and its host resolves to this machine, and whether the ports serve
// needs are free (or held by a running frontdesk) and reachable through the public host. It
// changes nothing; it exits 1 when a check fails.
func runDoctor(ctx context.Context, env Env, args []string) error {
	cfg, err := parseServeFlags("doctor", "[serve's flags]\n\nChecks what serve, given the same flags and environment, needs.", env, args)
	if err != nil {
		return err
	}
	d := doctor{out: env.Stdout}
	d.database(ctx, cfg.Data)
	d.publicURL(ctx, cfg)
	if cfg.HTTPS {
		d.port(ctx, "HTTP (challenges, redirect)", cfg.HTTPAddr, cfg, false)
		d.port(ctx, "HTTPS", cfg.HTTPSAddr, cfg, true)
	} else {
		d.port(ctx, "HTTP", cfg.Addr, cfg, false)
	}
	if cfg.MetricsAddr != "" {
		d.metricsPort(ctx, cfg.MetricsAddr)
	}
	switch {
	case d.failed > 0:
		return fmt.Errorf("%s failed, %s", plural(d.failed, "check"), plural(d.warned, "warning"))
	case d.warned > 0:
		fmt.Fprintf(env.Stdout, "passed with %s\n", plural(d.warned, "warning"))
	default:
		fmt.Fprintln(env.Stdout, "all checks passed")
	}
	return nil
}

// plural is "1 warning", "2 warnings".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

type doctor struct {
	out            io.Writer
	failed, warned int
}

func (d *doctor) ok(what, format string, args ...any) {
	fmt.Fprintf(d.out, "ok    %s: %s\n", what, fmt.Sprintf(format, args...))
}

func (d *doctor) warn(what, format string, args ...any) {
	d.warned++
	fmt.Fprintf(d.out, "warn  %s: %s\n", what, fmt.Sprintf(format, args...))
}

func (d *doctor) fail(what, format string, args ...any) {
	d.failed++
	fmt.Fprintf(d.out, "FAIL  %s: %s\n", what, fmt.Sprintf(format, args...))
}

func (d *doctor) database(ctx context.Context, dir string) {
	const what = "database"
	path := db.Path(dir)
	st := db.Inspect(ctx, path)
	switch {
	case !st.Exists:
		d.warn(what, "%s does not exist yet; serve will create it (check --data / FRONTDESK_DATA if you expected one)", path)
	case st.Err != nil:
		d.fail(what, "%v", st.Err)
	case st.Schema > st.Known:
		d.fail(what, "%s has schema %d, newer than this frontdesk knows (%d); it was written by %s", path, st.Schema, st.Known, orUnknown(st.WrittenBy))
	case st.Schema < st.Known || st.Missing > 0:
		missing := ""
		if st.Missing > 0 {
			missing = fmt.Sprintf(" without %d earlier migration(s)", st.Missing)
		}
		d.ok(what, "%s at schema %d%s; serve (or migrate) will back it up and upgrade it to %d", path, st.Schema, missing, st.Known)
	default:
		d.ok(what, "%s at schema %d (current)", path, st.Schema)
	}
	d.files(dir)
}

// files checks that the user serve runs as can write what serve opens for writing in the data
// directory: the directory itself, the database and its WAL files, serve.lock and secrets.key.
// Run by that user (or by anyone on a directory of their own) it opens each file for writing
// and closes it, changing nothing. Run by root on a directory another user owns — the service's
// — it checks for that user: root may write anything, the service only what is its own, and a
// file restored or made by root is the usual reason it cannot start (README, "Restoring a
// backup").
func (d *doctor) files(dir string) {
	fi, err := os.Stat(dir)
	if err != nil {
		return // no directory yet: serve makes it
	}
	owner, known := db.FileOwner(fi)
	forOwner := known && os.Geteuid() == 0 && owner != 0
	user, chownTo := db.UserName(os.Geteuid()), db.UserArg(os.Geteuid())
	if forOwner {
		user, chownTo = db.UserName(owner), db.UserArg(owner)
		d.ok("data directory", "%s belongs to %s; checked as %s, the user serve must run as (this is root)", dir, user, user)
	}
	writable := func(path string, fi os.FileInfo) error {
		if !forOwner {
			if fi.IsDir() {
				return syscall.Access(path, 2 /* W_OK */)
			}
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err == nil {
				f.Close()
			}
			return err
		}
		if uid, ok := db.FileOwner(fi); ok && uid != owner {
			return fmt.Errorf("it belongs to %s", db.UserName(uid))
		}
		if fi.Mode().Perm()&0o200 == 0 {
			return fmt.Errorf("its mode %04o lets no one write it", fi.Mode().Perm())
		}
		return nil
	}
	if err := writable(dir, fi); err != nil {
		d.fail("data directory", "%s is not writable by %s: %v", dir, user, err)
	}
	path := db.Path(dir)
	for _, p := range []string{path, path + "-wal", path + "-shm", filepath.Join(dir, serveLockName), filepath.Join(dir, secrets.KeyFile)} {
		fi, err := os.Stat(p)
		if err != nil {
			continue // not there: serve makes it
		}
		if err := writable(p, fi); err != nil {
			d.fail("file", "%s cannot be written by %s (%v): serve would fail; give it to %s, readable by that user only (as root: chown %s: %s && chmod 0600 %s)",
				p, user, err, user, chownTo, p, p)
			continue
		}
		if fi.Mode().Perm()&0o004 != 0 && p != filepath.Join(dir, serveLockName) {
			d.warn("file", "%s can be read by every user of this machine (mode %04o): chmod 0600 %s", p, fi.Mode().Perm(), p)
		}
	}
}

func orUnknown(v string) string {
	if v == "" {
		return "an unknown version"
	}
	return "frontdesk " + v
}

func (d *doctor) publicURL(ctx context.Context, cfg serveConfig) {
	if !cfg.PublicURL.Configured() {
		if cfg.HTTPS {
			d.fail("public URL", "--https needs --public-url")
		} else {
			d.warn("public URL", "not set: generated links will use the listen address %s (set --public-url or FRONTDESK_PUBLIC_URL)", cfg.Addr)
		}
		return
	}
	host := cfg.PublicURL.Hostname()
	d.ok("public URL", "%s", cfg.PublicURL)
	if cfg.HTTPS {
		if _, err := tlsacme.New(tlsacme.Options{Host: host}); err != nil {
			d.fail("certificate", "%v", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		d.fail("public host", "%s does not resolve: %v (create its DNS A/AAAA record pointing to this server)", host, err)
		return
	}
	local := localAddresses()
	var mine, others []string
	for _, a := range addrs {
		if local[a.IP.String()] {
			mine = append(mine, a.IP.String())
		} else {
			others = append(others, a.IP.String())
		}
	}
	switch {
	case len(others) == 0:
		d.ok("public host", "%s resolves to %s, an address of this machine", host, strings.Join(mine, ", "))
	case len(mine) > 0:
		d.warn("public host", "%s resolves to %s (this machine) and %s (not this machine)", host, strings.Join(mine, ", "), strings.Join(others, ", "))
	default:
		d.warn("public host", "%s resolves to %s, which is not an address of this machine: fine behind NAT, a load balancer or a proxy; otherwise fix the DNS record", host, strings.Join(others, ", "))
	}
}

func localAddresses() map[string]bool {
	out := map[string]bool{}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			out[ipn.IP.String()] = true
		}
	}
	return out
}

// port checks that addr can be bound (or is held by a running frontdesk) and, with a public
// URL, that a connection to the public host on that port reaches this machine: while holding
// the port it serves a random token and fetches it through the public host name.
func (d *doctor) port(ctx context.Context, what, addr string, cfg serveConfig, tlsPort bool) {
	what = "port " + addr + " (" + what + ")"
	_, port, _ := net.SplitHostPort(addr)
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EACCES):
		d.fail(what, "permission denied: ports below 1024 need CAP_NET_BIND_SERVICE (deploy/frontdesk.service grants it) or root")
		return
	case errors.Is(err, syscall.EADDRINUSE):
		if frontdeskAnswers(ctx, addr, tlsPort) {
			d.ok(what, "in use by a running frontdesk")
		} else {
			d.fail(what, "in use by another program (another web server?); stop it or choose another address")
		}
		if cfg.PublicURL.Configured() && !tlsPort {
			d.reach(ctx, cfg.PublicURL.Hostname(), port, "/healthz", "ok")
		}
		return
	case err != nil:
		d.fail(what, "%v", err)
		return
	}
	defer ln.Close()
	d.ok(what, "free")
	if !cfg.PublicURL.Configured() {
		return
	}
	token := make([]byte, 16)
	rand.Read(token)
	want := hex.EncodeToString(token)
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, want)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	d.reach(ctx, cfg.PublicURL.Hostname(), port, "/.well-known/frontdesk-doctor", want)
}

// metricsPort checks the --metrics-addr listener serve would open: free, or held by a running
// frontdesk's metrics, or by another program (serve would then refuse to start).
func (d *doctor) metricsPort(ctx context.Context, addr string) {
	what := "port " + addr + " (metrics)"
	ln, err := net.Listen("tcp", addr)
	switch {
	case err == nil:
		ln.Close()
		d.ok(what, "free")
	case errors.Is(err, syscall.EADDRINUSE) && frontdeskMetrics(ctx, addr):
		d.ok(what, "in use by a running frontdesk")
	case errors.Is(err, syscall.EADDRINUSE):
		d.fail(what, "in use by another program; stop it or choose another address")
	case errors.Is(err, syscall.EACCES):
		d.fail(what, "permission denied: ports below 1024 need CAP_NET_BIND_SERVICE or root")
	default:
		d.fail(what, "%v", err)
	}
}

// frontdeskMetrics reports whether a frontdesk's /metrics is what listens on addr.
func frontdeskMetrics(ctx context.Context, addr string) bool {
	status, body := getLocal(ctx, addr, "/metrics", 1<<20)
	return status == http.StatusOK && strings.Contains(body, "frontdesk_build_info")
}

// reach fetches http://host:port/path (plain HTTP even on the HTTPS port: only reachability is
// checked) and compares the body.
func (d *doctor) reach(ctx context.Context, host, port, path, want string) {
	what := "reachable at " + net.JoinHostPort(host, port)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		d.warn(what, "%v — check the firewall and port forwarding (a NAT router may not loop back to itself; then check from outside)", err)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
	res.Body.Close()
	if strings.TrimSpace(string(body)) != want {
		d.warn(what, "something else answered (%s): the public host may point elsewhere", res.Status)
		return
	}
	d.ok(what, "a connection through the public host reaches this machine")
}

// frontdeskAnswers reports whether a frontdesk serve is what listens on addr.
func frontdeskAnswers(ctx context.Context, addr string, tlsPort bool) bool {
	if tlsPort {
		conn, err := net.DialTimeout("tcp", localAddr(addr), 2*time.Second)
		if err == nil {
			conn.Close()
		}
		return err == nil // a TLS listener: cannot tell more without its certificate
	}
	status, body := getLocal(ctx, addr, "/healthz", 64)
	return status == http.StatusOK && strings.TrimSpace(body) == "ok"
}

// getLocal GETs path over plain HTTP from what listens on addr on this machine, within 2 s,
// and returns the status and up to limit bytes of the body (status 0 when nothing answered).
func getLocal(ctx context.Context, addr, path string, limit int64) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+localAddr(addr)+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, ""
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, limit))
	return res.StatusCode, string(body)
}

// localAddr is a listen address as this machine reaches it: an unspecified host is loopback.
// An address that does not parse is left as it is, for the request to fail on.
func localAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
