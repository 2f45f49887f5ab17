package app

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"frontdesk/app/apikey"
)

// BenchmarkServeRead is one keyed GET through the appliance's own root router (newServer), as
// `frontdesk serve` answers it with rate limits off, as the side-by-side bench runs it: request
// id, real client, JSON access log and its latency metric, recover, security headers, the
// activity address, then /v3's query check, key authentication, scope, conditional GET and the
// kept answer. Only the network and the log's write are missing. It shows what the request path
// costs in CPU and allocations per request.
func BenchmarkServeRead(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	env := Env{Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard, Now: time.Now}
	cfg, err := parseServeConfig(env, []string{"--addr", "127.0.0.1:0", "--data", dir,
		"--rate-limit-per-minute", "0", "--rate-limit-per-day", "0"})
	if err != nil {
		b.Fatal(err)
	}
	d, _, err := createData(ctx, env, cfg.Data)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	if _, err := loadDemoIfEmpty(ctx, d, time.Now()); err != nil {
		b.Fatal(err)
	}
	_, key, err := apikey.Create(ctx, d, apikey.NewKey{Name: "bench", Scopes: apikey.FullAccess}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	srv, err := newServer(ctx, cfg, d, newLogger(io.Discard, logJSON), time.Now, linkBase(cfg, "127.0.0.1:1"))
	if err != nil {
		b.Fatal(err)
	}
	var service, booking int64
	if err := d.Read.QueryRow(`SELECT id FROM services ORDER BY id LIMIT 1`).Scan(&service); err != nil {
		b.Fatal(err)
	}
	if err := d.Read.QueryRow(`SELECT id FROM bookings ORDER BY id LIMIT 1`).Scan(&booking); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, path string }{
		{"service", "/v3/services/" + strconv.FormatInt(service, 10)},
		{"booking", "/v3/bookings/" + strconv.FormatInt(booking, 10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			// net/http gives every request a context that is cancelled when the client goes
			// away, and the connection's address.
			reqCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			req := httptest.NewRequestWithContext(reqCtx, http.MethodGet, c.path, nil)
			req.RemoteAddr = "127.0.0.1:53124"
			req.Header.Set("Authorization", "Bearer "+key)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				srv.handler.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("got status %d, want 200: %s", w.Code, w.Body)
				}
			}
		})
	}
}
