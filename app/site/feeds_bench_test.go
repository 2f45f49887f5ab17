package site_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"frontdesk/app/feeds"
)

// BenchmarkProviderFeed measures a provider's calendar feed with 5,000 bookings in its window
// (one every 30 minutes, each with its own client, a tenth of them cancelled): the full answer
// through the whole handler (token, tag, one snapshot of the rows, the iCalendar text), and the
// 304 a calendar gets when nothing changed. It reports the answer's size and the events in it.
// Run:
//
//	go test ./app/site -run '^$' -bench ProviderFeed -benchmem
func BenchmarkProviderFeed(b *testing.B) {
	f := newFixture(b)
	const n = 5000
	first := start.Add(-20 * 24 * time.Hour).UnixMilli()
	f.exec(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ? - 1)
		INSERT INTO clients (first_name, last_name, phone, created_at, updated_at)
		SELECT 'Client' || i, 'Surname' || i, '+56 9 1234 ' || i, 0, 0 FROM k`, n)
	f.exec(`WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ? - 1)
		INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at,
			block_end_at, price_cents, list_price_cents, notes, created_at, updated_at)
		SELECT 1, 1, ?, (SELECT min(id) FROM clients) + i, CASE WHEN i % 10 = 0 THEN 5 ELSE 1 END,
			? + i * 1800000, ? + i * 1800000 + 1800000, ? + i * 1800000, ? + i * 1800000 + 1800000, 0, 0,
			'note ' || i, ?, ?
		FROM k`, n, f.ana, first, first, first, first, start.UnixMilli(), start.UnixMilli())
	path := f.feedOf(feeds.Subject{ProviderID: f.ana})

	get := func(h http.Header) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for k, v := range h {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		f.handler.ServeHTTP(rec, req)
		return rec
	}
	full := get(nil)
	if full.Code != http.StatusOK {
		b.Fatalf("status %d", full.Code)
	}
	events := strings.Count(full.Body.String(), "BEGIN:VEVENT")
	if events != n {
		b.Fatalf("%d events, want %d", events, n)
	}
	tag := full.Header().Get("ETag")

	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			w := discard{header: http.Header{}}
			f.handler.ServeHTTP(&w, req)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
		}
		b.ReportMetric(float64(full.Body.Len()), "bytes/feed")
		b.ReportMetric(float64(events), "events/feed")
	})
	b.Run("not-modified", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rec := get(http.Header{"If-None-Match": {tag}}); rec.Code != http.StatusNotModified {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
}

// discard is a ResponseWriter that keeps nothing of the body, as a network connection would.
type discard struct {
	header http.Header
	status int
}

func (d *discard) Header() http.Header { return d.header }
func (d *discard) WriteHeader(s int) {
	if d.status == 0 {
		d.status = s
	}
}
func (d *discard) Write(p []byte) (int, error) {
	d.WriteHeader(http.StatusOK)
	return io.Discard.Write(p)
}
