package activity

import (
	"database/sql"
	"reflect"
	"testing"
	"time"

	"frontdesk/db"
)

// Created is Diff from nothing with the fields that hold no value left out.
func TestCreatedIsDiffFromNothing(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for _, row := range []any{
		db.Booking{LocationID: 1, ServiceID: 2, ProviderID: 3, ClientID: 4, StatusID: 1, StartAt: db.Millis(at),
			EndAt: db.Millis(at.Add(time.Hour)), Notes: sql.NullString{String: "hello", Valid: true}, PriceCents: 1500, Source: "api",
			SessionID: sql.NullInt64{Int64: 9, Valid: true}, CreatedAt: db.Millis(at), UpdatedAt: db.Millis(at)},
		db.Booking{},
		&db.Booking{ClientID: 7, Notes: sql.NullString{String: "apk_live_secretlooking", Valid: true}},
		struct {
			Name    string
			When    time.Time
			Pointer *int
			Key     []byte
		}{Name: "x", When: at, Key: []byte{1}},
	} {
		want := Changes{}
		for name, v := range Diff(nil, row, "updated_at") {
			if !isZero(v[1]) {
				want[name] = v
			}
		}
		if got := Created(row, "updated_at"); !reflect.DeepEqual(got, want) {
			t.Errorf("Created(%+v)\n got %v\nwant %v", row, got, want)
		}
	}
}

// BenchmarkDraftBooking prints the cost of a new booking's trail entry: its changes and their
// encoding, as booking.Book drafts them for every booking made.
func BenchmarkDraftBooking(b *testing.B) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	row := db.Booking{LocationID: 1, ServiceID: 2, ProviderID: 3, ClientID: 4, StatusID: 1, StartAt: db.Millis(at),
		EndAt: db.Millis(at.Add(time.Hour)), BlockStartAt: db.Millis(at), BlockEndAt: db.Millis(at.Add(time.Hour)),
		Notes: sql.NullString{String: "side by side", Valid: true}, PriceCents: 1500, ListPriceCents: 1500, Source: "api",
		CreatedAt: db.Millis(at), UpdatedAt: db.Millis(at)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(Created(row, "updated_at")); err != nil {
			b.Fatal(err)
		}
	}
}
