package resource

import (
	"bytes"
	"database/sql"
	"testing"
)

func TestBookingAppendJSONMatchesEncodingJSON(t *testing.T) {
	rows, zone := bookingPage()
	hostile := rows[1]
	hostile.ServiceName, hostile.ProviderName, hostile.LocationName = "Corte \"VIP\" <b>&", "Zoë\u2028\x01", "bad \xff"
	hostile.StatusDescription = sql.NullString{String: "tab\there", Valid: true}
	hostile.Booking.Notes = sql.NullString{String: "línea 1\nlínea 2 \\ fin", Valid: true}
	hostile.Booking.DiscountBp = sql.NullInt64{Int64: 1250, Valid: true}
	hostile.Booking.TimeResourceID = sql.NullInt64{Int64: 9, Valid: true}
	hostile.Booking.Scheduled = false
	hostile.Booking.SaleID = sql.NullInt64{Int64: 4, Valid: true}
	hostile.SaleStatus, hostile.SaleCartID = sql.NullString{String: "paid", Valid: true}, sql.NullInt64{Int64: 12, Valid: true}
	hostile.Booking.SessionID, hostile.Booking.PackID = sql.NullInt64{Int64: 31, Valid: true}, sql.NullInt64{Int64: 5, Valid: true}
	hostile.Booking.ClientConfirmedAt = sql.NullInt64{Int64: 1795000000000, Valid: true}
	one, two := int64(1), int64(3)
	cases := []struct {
		name string
		list List[Booking]
	}{
		{"nil page", List[Booking]{Pagination: NewPagination(1, 30, 0)}},
		{"empty page", List[Booking]{Data: []Booking{}, Pagination: Pagination{CurrentPage: 2, PerPage: 30, PrevPage: &one}}},
		{"a page with every kind of field", List[Booking]{
			Data:       []Booking{NewBooking(rows[0], 1, zone), NewBooking(hostile, 7, zone), NewBooking(rows[3], 1, zone)},
			Pagination: Pagination{CurrentPage: 2, PerPage: 3, NextPage: &two, PrevPage: &one, TotalRecords: 9, TotalPages: 3},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, want := AppendBookingList(nil, c.list), encodingJSON(t, c.list); !bytes.Equal(got, want) {
				t.Fatalf("AppendBookingList:\ngot  %s\nwant %s", got, want)
			}
			for _, b := range c.list.Data {
				if got, want := b.AppendJSON(nil), encodingJSON(t, b); !bytes.Equal(got, want) {
					t.Fatalf("AppendJSON:\ngot  %s\nwant %s", got, want)
				}
			}
		})
	}
}

func BenchmarkBookingPageAppendJSON(b *testing.B) {
	rows, zone := bookingPage()
	b.ReportAllocs()
	var size int
	buf := make([]byte, 0, 32<<10)
	for b.Loop() {
		page := List[Booking]{Data: make([]Booking, 0, len(rows)), Pagination: NewPagination(1, 30, 200)}
		for _, r := range rows {
			page.Data = append(page.Data, NewBooking(r, 1, zone))
		}
		size = len(AppendBookingList(buf[:0], page))
	}
	b.ReportMetric(float64(size), "bytes/page")
}
