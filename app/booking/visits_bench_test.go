package booking

import (
	"context"
	"testing"
	"time"
)

// BenchmarkVisitSlots is GET /v3/available_slots?service_ids=… without HTTP: the starts of a
// three-service visit (haircut, colour with its processing time, scalp massage) on one day at a
// location of 20 providers who offer all three, with the bench store's bookings that month.
func BenchmarkVisitSlots(b *testing.B) {
	d := openStore(b, 20)
	withVisitServices(b, d, 20)
	ctx := context.Background()
	day := Date{2026, time.December, 15}
	segs := []VisitSegment{{ServiceID: 1}, {ServiceID: 3}, {ServiceID: 4}}
	slots, err := VisitSlots(ctx, d, storeNow, 1, segs, day, day, SourceConnect)
	if err != nil {
		b.Fatal(err)
	}
	if len(slots) == 0 {
		b.Fatal("no visit starts that day")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := VisitSlots(ctx, d, storeNow, 1, segs, day, day, SourceConnect); err != nil {
			b.Fatal(err)
		}
	}
}
