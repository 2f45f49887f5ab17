package site_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkDayTimes measures the date and time step — the page visitors wait on most (slow slot
// lists are the most common complaint about other booking pages): a fortnight of days with
// their free-time counts and one day's times, for anyone available among 10 providers working
// around the clock, with 40 bookings on the shown day, through the whole handler (settings,
// schedule from the catalog cache, the slot engine, the HTML). Run:
//
//	go test ./app/site -run '^$' -bench DayTimes -benchmem
func BenchmarkDayTimes(b *testing.B) {
	f := newFixture(b)
	for i := 3; i <= 10; i++ {
		f.provider("P" + string(rune('0'+i)))
	}
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, santiago)
	for i := range 40 {
		at := day.Add(time.Duration(8*60+15*i) * time.Minute)
		p := int64(1 + i%10)
		f.exec(`INSERT INTO clients (first_name, last_name, created_at, updated_at) VALUES ('C', 'D', 0, 0)`)
		f.exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
			price_cents, list_price_cents, created_at, updated_at) VALUES (1, 1, ?, last_insert_rowid(), 1, ?, ?, ?, ?, 0, 0, 0, 0)`,
			p, at.UnixMilli(), at.Add(30*time.Minute).UnixMilli(), at.UnixMilli(), at.Add(30*time.Minute).UnixMilli())
	}
	req := httptest.NewRequest(http.MethodGet, "/book/1/1/times?provider=0&date=2026-03-31", nil)
	rec := httptest.NewRecorder()
	f.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `data-testid="time"`) {
		b.Fatalf("status %d", rec.Code)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
