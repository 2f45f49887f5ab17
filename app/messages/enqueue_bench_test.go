package messages_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/importer"
	"frontdesk/app/messages"
	"frontdesk/db"
)

// BenchmarkBookingCreated is what every new booking's write transaction spends planning its
// messages (a confirmation and two reminders for the client, with the fixture's settings):
// the plan, the rows and the booking's message state, inside one transaction that is rolled
// back at the end, so the figure is the committer's CPU and allocations without the commit.
func BenchmarkBookingCreated(b *testing.B) {
	ctx := context.Background()
	raw, err := os.ReadFile("testdata/business.json")
	if err != nil {
		b.Fatal(err)
	}
	d, err := db.Open(ctx, filepath.Join(b.TempDir(), db.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if _, err := importer.Load(ctx, d, raw, now); err != nil {
		b.Fatal(err)
	}
	var client int64
	if err := d.Read.QueryRow("SELECT id FROM clients ORDER BY id LIMIT 1").Scan(&client); err != nil {
		b.Fatal(err)
	}
	v, err := booking.Create(ctx, d, now, booking.NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: client,
		StatusID: booking.StatusConfirmed, Start: now.Add(72 * time.Hour), Source: booking.SourceAdmin})
	if err != nil {
		b.Fatal(err)
	}
	bk, err := d.R.GetBookingRow(ctx, v.Booking.ID)
	if err != nil {
		b.Fatal(err)
	}
	rollback := errors.New("rolled back")
	b.ReportAllocs()
	err = d.InTx(ctx, func(q *db.Queries) error {
		for i := 0; b.Loop(); i++ {
			// Each plan is for a booking of its own (a booking has one reminder per offset),
			// written with the timer stopped: an hour apart, as an import writes them.
			b.StopTimer()
			next := bk
			next.StartAt, next.EndAt = bk.StartAt+int64(i+1)*3_600_000, bk.EndAt+int64(i+1)*3_600_000
			next.BlockStartAt, next.BlockEndAt = next.StartAt, next.EndAt
			var err error
			if next.ID, err = q.ImportBooking(ctx, db.ImportBookingParams{LocationID: bk.LocationID, ServiceID: bk.ServiceID,
				ProviderID: bk.ProviderID, ClientID: bk.ClientID, StatusID: bk.StatusID, StartAt: next.StartAt, EndAt: next.EndAt,
				BlockStartAt: next.BlockStartAt, BlockEndAt: next.BlockEndAt, CreatedAt: bk.CreatedAt, UpdatedAt: bk.UpdatedAt}); err != nil {
				return err
			}
			b.StartTimer()
			if err := messages.BookingCreated(ctx, q, now, next); err != nil {
				return err
			}
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		b.Fatal(err)
	}
}
