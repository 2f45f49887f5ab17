package resource

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"testing"
	"time"

	"frontdesk/db"
)

// The benchmarks below build and encode a full list page (30 records) the way the /v3 list
// handlers do, so a regression in the wire shapes or their encoding shows in benchstat.

func bookingPage() ([]db.BookingViewsRow, *time.Location) {
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, zone)
	rows := make([]db.BookingViewsRow, 30)
	for i := range rows {
		at := start.Add(time.Duration(i) * 30 * time.Minute)
		rows[i] = db.BookingViewsRow{
			Booking: db.Booking{
				ID: int64(1000 + i), LocationID: 1, ServiceID: 3, ProviderID: int64(1 + i%4), ClientID: int64(40 + i), StatusID: 1,
				StartAt: at.UnixMilli(), EndAt: at.Add(30 * time.Minute).UnixMilli(), PriceCents: 2500, ListPriceCents: 2500,
				Notes: sql.NullString{String: "First visit", Valid: i%3 == 0}, Scheduled: true, Source: "connect",
				CreatedAt: start.UnixMilli(), UpdatedAt: start.UnixMilli(),
			},
			StatusName: "Confirmed", StatusInternalName: "confirmed", ServiceName: "Haircut",
			ProviderName: "Ana", LocationName: "Providencia", LocationTimezone: "America/Santiago",
		}
	}
	return rows, zone
}

func encode(b *testing.B, v any) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.Fatal(err)
	}
	return buf.Len()
}

func BenchmarkBookingPageJSON(b *testing.B) {
	rows, zone := bookingPage()
	b.ReportAllocs()
	var size int
	for b.Loop() {
		page := List[Booking]{Data: make([]Booking, 0, len(rows)), Pagination: NewPagination(1, 30, 200)}
		for _, r := range rows {
			page.Data = append(page.Data, NewBooking(r, 1, zone))
		}
		size = encode(b, page)
	}
	b.ReportMetric(float64(size), "bytes/page")
}

func BenchmarkServicePageJSON(b *testing.B) {
	desc := sql.NullString{String: "Wash, cut and a blow-dry finish.", Valid: true}
	rows := make([]ServiceRow, 30)
	images := make([][]db.ServiceImage, 30)
	for i := range rows {
		rows[i] = ServiceRow{
			Service: db.Service{
				ID: int64(i + 1), UUID: "6f1c2a9e-8b1d-4c1e-9a55-0f3f7d1b2c3d", Name: "Haircut and styling", Active: true,
				PriceCents: 2500, DurationMin: 45, BufferAfterMin: 10, Description: desc, CategoryID: sql.NullInt64{Int64: 1, Valid: true},
				Capacity: 1, SessionCount: 1, OnlineBooking: true, OnlinePaymentMode: "NOT_AVAILABLE",
				KeywordsJSON: `["hair","cut","style"]`, CreatedAt: 1763700000000, UpdatedAt: 1763700000000,
			},
			CategoryName: sql.NullString{String: "Hair", Valid: true},
		}
		images[i] = []db.ServiceImage{{ID: int64(i + 1), ServiceID: int64(i + 1), URL: "https://example.com/haircut.jpg"}}
	}
	b.ReportAllocs()
	var size int
	for b.Loop() {
		page := List[ServiceIndex]{Data: make([]ServiceIndex, 0, len(rows)), Pagination: NewPagination(1, 30, 30)}
		for i, r := range rows {
			page.Data = append(page.Data, NewServiceIndex(r, 1, images[i]))
		}
		size = encode(b, page)
	}
	b.ReportMetric(float64(size), "bytes/page")
}
