package booking

import (
	"context"
	"errors"
	"testing"
	"time"

	"frontdesk/db"
)

// BenchmarkRecordActivityCreated is the activity entry every new booking's write transaction
// records ("booking.created" with the booking's fields), inside one transaction rolled back at
// the end: the committer's CPU and allocations for it, without the commit.
func BenchmarkRecordActivityCreated(b *testing.B) {
	d, next := benchCreateStore(b)
	ctx := context.Background()
	v, err := Create(ctx, d, storeNow, next())
	if err != nil {
		b.Fatal(err)
	}
	after, err := d.R.GetBookingRow(ctx, v.Booking.ID)
	if err != nil {
		b.Fatal(err)
	}
	rollback := errors.New("rolled back")
	b.ReportAllocs()
	err = d.InTx(ctx, func(q *db.Queries) error {
		for b.Loop() {
			if err := recordActivity(ctx, q, storeNow.Add(time.Second), db.Booking{}, after); err != nil {
				return err
			}
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		b.Fatal(err)
	}
}
