package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/app/apikey"
	"frontdesk/db"
)

// run runs one command in-process and returns its exit status and output.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), Env{
		Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) },
	})
	return code, out.String(), errOut.String()
}

func TestAPIKeyCommands(t *testing.T) {
	dir := newDataDir(t)
	code, key, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "laptop", "--scopes", "clients:read,bookings:read")
	if code != 0 {
		t.Fatalf("create: exit %d, stderr %s", code, stderr)
	}
	key = strings.TrimSpace(key)
	if !strings.HasPrefix(key, apikey.Prefix) || strings.Contains(key, "\n") || len(key) < len(apikey.Prefix)+22 {
		t.Fatalf("create printed %q, want only the key (apk_live_ + ≥128 bits)", key)
	}

	code, list, _ := run(t, "", "apikey", "list", "--data", dir)
	if code != 0 || !strings.Contains(list, "laptop") || !strings.Contains(list, "bookings:read,clients:read") {
		t.Fatalf("list: exit %d, output %q", code, list)
	}
	if strings.Contains(list, key) || strings.Contains(list, key[len(apikey.Prefix)+4:]) {
		t.Fatalf("list shows the key: %q", list)
	}
	code, listJSON, _ := run(t, "", "apikey", "list", "--json", "--data", dir)
	if code != 0 || !strings.Contains(listJSON, `"name": "laptop"`) || strings.Contains(listJSON, key) {
		t.Fatalf("list --json: exit %d, output %q", code, listJSON)
	}

	// Flags after the positional argument work too.
	if code, _, stderr := run(t, "", "apikey", "revoke", "1", "--data", dir); code != 0 {
		t.Fatalf("revoke: exit %d, %s", code, stderr)
	}
	d, err := db.Open(context.Background(), db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	row, err := d.R.GetAPIKeyByHash(context.Background(), apikey.Hash(key))
	if err != nil || !row.RevokedAt.Valid {
		t.Fatalf("after revoke: %+v, %v; want revoked_at set", row, err)
	}
	if code, _, stderr := run(t, "", "apikey", "revoke", "1", "--data", dir); code != 1 || !strings.Contains(stderr, "no active key") {
		t.Fatalf("second revoke: exit %d, stderr %q; want 1 and a clear message", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string // in stdout (help) or stderr (errors)
	}{
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"unknown flag", []string{"migrate", "--nope"}, 2, "flag provided but not defined"},
		{"apikey without subcommand", []string{"apikey"}, 2, "missing subcommand"},
		{"apikey unknown subcommand", []string{"apikey", "rotate"}, 2, "unknown subcommand"},
		{"apikey create without name", []string{"apikey", "create", "--data", dir}, 2, "--name is required"},
		{"apikey create bad scope", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", "root"}, 2, "unknown scope"},
		// Full access is a named choice (issue 13): no choice, an empty list or a list of commas
		// is refused instead of becoming a full-access key.
		{"apikey create without access", []string{"apikey", "create", "--data", dir, "--name", "x"}, 2, "--full-access"},
		{"apikey create empty scopes", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", ""}, 2, "no scopes given"},
		{"apikey create comma scopes", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", ","}, 2, "no scopes given"},
		{"apikey create spaced commas", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", " , ,"}, 2, "no scopes given"},
		{"apikey create star scope", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", "*"}, 2, "unknown scope"},
		{"apikey create both", []string{"apikey", "create", "--data", dir, "--name", "x", "--scopes", "clients:read", "--full-access"}, 2, "not both"},
		{"apikey create help mentions z", []string{"apikey", "create", "--help"}, 0, "--z-means-local"},
		{"apikey revoke not a number", []string{"apikey", "revoke", "abc", "--data", dir}, 2, "positive integer"},
		{"backup without file", []string{"backup", "--data", dir}, 2, "destination FILE"},
		{"serve bad addr", []string{"serve", "--addr", "nonsense"}, 2, "HOST:PORT"},
		{"serve stray argument", []string{"serve", "extra"}, 2, "unexpected argument"},
		// Running it for real (docs/deploy.md): every new flag is checked before anything starts.
		{"serve --https without public URL", []string{"serve", "--data", dir, "--https"}, 2, "--https needs --public-url https://"},
		{"serve --https with an http public URL", []string{"serve", "--data", dir, "--https", "--public-url", "http://book.example.com"}, 2, "--https needs"},
		{"serve bad public URL", []string{"serve", "--data", dir, "--public-url", "book.example.com"}, 2, "--public-url"},
		{"serve public URL with a path", []string{"serve", "--data", dir, "--public-url", "https://example.com/frontdesk"}, 2, "has a path"},
		{"serve bad trusted proxies", []string{"serve", "--data", dir, "--trusted-proxies", "10.0.0.0/99"}, 2, "--trusted-proxies"},
		{"serve bad metrics addr", []string{"serve", "--data", dir, "--metrics-addr", "9090"}, 2, "--metrics-addr"},
		{"serve bad https addr", []string{"serve", "--data", dir, "--https", "--public-url", "https://book.example.com", "--https-addr", "443"}, 2, "--https-addr"},
		{"doctor stray argument", []string{"doctor", "extra"}, 2, "unexpected argument"},
		{"serve public URL scheme", []string{"serve", "--data", dir, "--public-url", "ftp://x"}, 2, "http:// or https://"},
		{"help", []string{"help"}, 0, "Commands:"},
		{"migrate help", []string{"migrate", "--help"}, 0, "Usage: frontdesk migrate"},
		{"apikey create help", []string{"apikey", "create", "--help"}, 0, "--scopes"},
		{"version", []string{"version"}, 0, "frontdesk "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", c.args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q)", code, c.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout+stderr, c.wantOut) {
				t.Fatalf("output %q + %q does not mention %q", stdout, stderr, c.wantOut)
			}
		})
	}
}

// TestAPIKeyAccessChoice: a refused create writes no key; --full-access and --z-means-local are
// stored and shown by list (text and JSON), and the full-access key really has full access.
func TestAPIKeyAccessChoice(t *testing.T) {
	dir := newDataDir(t)
	for _, args := range [][]string{{"--name", "x"}, {"--name", "x", "--scopes", ","}} {
		if code, _, _ := run(t, "", append([]string{"apikey", "create", "--data", dir}, args...)...); code != 2 {
			t.Fatalf("create %v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := run(t, "", "apikey", "list", "--json", "--data", dir); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("after refused creates, list: exit %d, %q; want no keys", code, out)
	}
	if code, _, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "all", "--full-access"); code != 0 {
		t.Fatalf("create --full-access: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "assistant", "--scopes", "bookings:write,bookings:read", "--z-means-local"); code != 0 {
		t.Fatalf("create --z-means-local: exit %d, %s", code, stderr)
	}
	code, list, _ := run(t, "", "apikey", "list", "--data", dir)
	if code != 0 {
		t.Fatalf("list: exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "Z MEANS LOCAL") {
		t.Fatalf("list:\n%s\nwant a header with Z MEANS LOCAL and two keys", list)
	}
	for _, want := range []struct{ line, has string }{
		{lines[1], "* (full access)"}, {lines[1], "  no  "}, {lines[2], "bookings:read,bookings:write"}, {lines[2], "  yes  "},
	} {
		if !strings.Contains(want.line, want.has) {
			t.Errorf("list line %q does not show %q", want.line, want.has)
		}
	}
	code, listJSON, _ := run(t, "", "apikey", "list", "--json", "--data", dir)
	var keys []struct {
		Name        string `json:"name"`
		Scopes      string `json:"scopes"`
		FullAccess  bool   `json:"full_access"`
		ZMeansLocal bool   `json:"z_means_local"`
	}
	if err := json.Unmarshal([]byte(listJSON), &keys); code != 0 || err != nil || len(keys) != 2 {
		t.Fatalf("list --json: exit %d, %v, %s", code, err, listJSON)
	}
	if k := keys[0]; k.Name != "all" || k.Scopes != "*" || !k.FullAccess || k.ZMeansLocal {
		t.Errorf("full-access key listed as %+v", k)
	}
	if k := keys[1]; k.Name != "assistant" || k.Scopes != "bookings:read,bookings:write" || k.FullAccess || !k.ZMeansLocal {
		t.Errorf("z-means-local key listed as %+v", k)
	}
}

func TestMigrate(t *testing.T) {
	code, out, stderr := run(t, "", "migrate", "--data", t.TempDir())
	if code != 0 || !strings.HasPrefix(out, "schema version ") || strings.HasPrefix(out, "schema version 0") {
		t.Fatalf("migrate: exit %d, out %q, stderr %q", code, out, stderr)
	}
}

// The new serve settings have FRONTDESK_* fallbacks, checked like the flags.
func TestServeEnvFallbacks(t *testing.T) {
	cases := map[string]string{
		"FRONTDESK_PUBLIC_URL":      "ftp://book.example.com",
		"FRONTDESK_TRUSTED_PROXIES": "not-an-address",
		"FRONTDESK_METRICS_ADDR":    "9090",
		"FRONTDESK_HTTPS":           "true", // without FRONTDESK_PUBLIC_URL
	}
	for key, value := range cases {
		t.Run(key, func(t *testing.T) {
			var stderr strings.Builder
			code := Run(context.Background(), Env{Args: []string{"serve", "--data", t.TempDir()}, Stdout: &strings.Builder{}, Stderr: &stderr,
				Getenv: func(k string) string {
					if k == key {
						return value
					}
					return ""
				}})
			if code != exitUsage {
				t.Errorf("%s=%s: exit %d, want 2; %s", key, value, code, stderr.String())
			}
		})
	}
	cfg, err := parseServeConfig(Env{Getenv: func(k string) string {
		return map[string]string{"FRONTDESK_PUBLIC_URL": "https://book.example.com", "FRONTDESK_HTTPS": "1", "FRONTDESK_HTTPS_ADDR": ":8443",
			"FRONTDESK_HTTP_ADDR": ":8080", "FRONTDESK_ACME_CA": "https://ca.example/dir", "FRONTDESK_ACME_CA_ROOT": "/etc/ca.pem",
			"FRONTDESK_ACME_EMAIL": "a@example.com", "FRONTDESK_METRICS_ADDR": "127.0.0.1:9090", "FRONTDESK_TRUSTED_PROXIES": "10.0.0.0/8"}[k]
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.HTTPS || cfg.HTTPSAddr != ":8443" || cfg.HTTPAddr != ":8080" || cfg.ACMECA != "https://ca.example/dir" || cfg.ACMECARoot != "/etc/ca.pem" ||
		cfg.ACMEEmail != "a@example.com" || cfg.MetricsAddr != "127.0.0.1:9090" || len(cfg.TrustedProxies) != 1 || cfg.PublicURL.String() != "https://book.example.com" {
		t.Errorf("environment not read: %+v", cfg)
	}
}

// A positional argument a command does not take is a usage error, and the command does nothing:
// `frontdesk migrate /var/lib/frontdesk` (without --data) used to create and migrate a
// database in ./data and report success.
func TestStrayArgumentRefused(t *testing.T) {
	t.Chdir(t.TempDir()) // where a wrongly accepted command would write (./data, ./-)
	existing := newDataDir(t)
	fresh := filepath.Join(t.TempDir(), "new")
	for _, args := range [][]string{
		{"migrate", "--data", fresh, "/var/lib/frontdesk"},
		{"apikey", "list", "--data", existing, "extra"},
		{"backup", "--data", existing, "-"}, // import's "-" is standard input; backup cannot write there
	} {
		code, stdout, stderr := run(t, "", args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "Run 'frontdesk") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and no output", args, code, stdout, stderr, exitUsage)
		}
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("migrate with a stray argument made %s (%v)", fresh, err)
	}
}
