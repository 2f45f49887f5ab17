package api

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/apikey"
	"frontdesk/app/middleware"
	"frontdesk/db"
)

// BenchmarkGetService is the server's side of the bench's read_service scenario, without the
// network: GET /v3/services/{id} with a valid key through the middleware every request pays
// (request id, JSON access log, recover, security headers) and the /v3 plumbing (query check,
// key lookup, rate limits). It shows in benchstat what one request costs in CPU and allocations.
func BenchmarkGetService(b *testing.B) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(b.TempDir(), db.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ms := db.Millis(now)
	for _, s := range []string{
		`INSERT INTO company (id, name, currency, created_at, updated_at) VALUES (1, 'Bench Salon', 'CLP', 0, 0)`,
		`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'loc-1', 'Centro', 'America/Santiago', 1, 0, 0)`,
		`INSERT INTO categories (id, name, sort_order, created_at, updated_at) VALUES (1, 'Hair', 1, 0, 0)`,
		`INSERT INTO services (id, uuid, name, price_cents, duration_min, description, category_id, keywords_json, created_at, updated_at)
			VALUES (1, 'svc-1', 'Haircut', 1500000, 30, 'Classic cut', 1, '["cut","hair"]', 0, 0)`,
		`INSERT INTO service_images (service_id, url, position) VALUES (1, 'https://img.example.com/a.jpg', 0), (1, 'https://img.example.com/b.jpg', 1)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'Ana', 1, 0, 0), (2, 'Ben', 1, 0, 0), (3, 'Cleo', 1, 0, 0)`,
		`INSERT INTO service_providers (service_id, provider_id) VALUES (1, 1), (1, 2), (1, 3)`,
	} {
		if _, err := d.Write.Exec(s); err != nil {
			b.Fatalf("seed: %v\n%s", err, s)
		}
	}
	_, key, err := apikey.Create(ctx, d, apikey.NewKey{Name: "bench", Scopes: apikey.FullAccess}, time.UnixMilli(ms))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		limits Limits
		miss   bool
	}{
		{"limits off", Limits{}, false},                                   // as frontdesk bench runs it
		{"limits on", Limits{PerMinute: 1 << 30, PerDay: 1 << 30}, false}, // headers on every answer
		{"cache miss", Limits{}, true},                                    // as after a catalog write
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.miss {
				// A cache ahead of every version the database will show misses every lookup
				// and keeps nothing.
				d.Catalog().Store(math.MaxInt64, struct{}{}, nil)
			}
			log := slog.New(slog.NewJSONHandler(io.Discard, nil))
			root := chi.NewRouter()
			root.Use(middleware.WithRequestID, middleware.AccessLog(log, nil), middleware.Recover(log), middleware.SecurityHeaders)
			root.Mount("/v3", New(d, Options{Log: log, Limits: c.limits}).Routes())

			// net/http gives every request a context that is cancelled when the client goes away.
			reqCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			req := httptest.NewRequestWithContext(reqCtx, http.MethodGet, "/v3/services/1", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				w := httptest.NewRecorder()
				root.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("got status %d, want 200: %s", w.Code, w.Body)
				}
			}
			// CPU time per request is steadier than wall time on a shared machine.
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the process's user and system CPU time so far, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
