package booking

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"frontdesk/db"
)

func TestLoadScheduleIsBatched(t *testing.T) {
	counts := map[int]int{}
	for _, n := range []int{1, 10} {
		d := openStore(t, n)
		c := &countingDB{DBTX: d.Read}
		day := Date{2026, time.November, 24}
		l, err := LoadSchedule(context.Background(), db.New(c), ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day.AddDays(30)})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Schedule.Providers) != n {
			t.Fatalf("loaded %d providers, want %d", len(l.Schedule.Providers), n)
		}
		counts[n] = c.n
	}
	if counts[10] != counts[1] || counts[10] > 12 {
		t.Fatalf("got %d queries for 1 provider and %d for 10, want the same handful (≤ 12)", counts[1], counts[10])
	}
}

func TestLoadSchedule(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	ms := func(s string) int64 { return db.Millis(santiago(t, s)) }
	// Provider 1: a booking at location 2 (counts), a cancelled one (does not), one a week
	// later (outside the range), time off overlapping Tuesday and time off long before.
	exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at) VALUES
		(2, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, 0, 0), (1, 1, 1, 1, 5, ?, ?, ?, ?, 0, 0, 0, 0), (1, 1, 1, 1, 1, ?, ?, ?, ?, 0, 0, 0, 0)`,
		ms("2026-11-24 10:00"), ms("2026-11-24 10:30"), ms("2026-11-24 10:00"), ms("2026-11-24 10:40"),
		ms("2026-11-24 11:00"), ms("2026-11-24 11:30"), ms("2026-11-24 11:00"), ms("2026-11-24 11:40"),
		ms("2026-12-08 11:00"), ms("2026-12-08 11:30"), ms("2026-12-08 11:00"), ms("2026-12-08 11:40"))
	exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?), (1, ?, ?)`,
		ms("2026-11-20 00:00"), ms("2026-11-24 09:30"), ms("2026-10-01 00:00"), ms("2026-10-02 00:00"))
	exec(`INSERT INTO location_closures (location_id, date) VALUES (1, '2026-11-25'), (1, '2027-01-01')`)
	exec(`UPDATE providers SET active = 0 WHERE id = 3`)
	exec(`UPDATE providers SET online_booking = 0 WHERE id = 2`)
	exec(`UPDATE company SET min_notice_min = 30, max_advance_days = 60, slot_step_min = 20`)

	tue := Date{2026, time.November, 24}
	l, err := LoadSchedule(ctx, d.R, ScheduleQuery{LocationID: 1, ServiceID: 1, First: tue, Last: tue})
	if err != nil {
		t.Fatal(err)
	}
	s := l.Schedule
	if s.Zone.String() != "America/Santiago" || l.Location.Name != "Centro" || l.Service.Name != "Haircut" {
		t.Fatalf("got zone %s, location %s, service %s", s.Zone, l.Location.Name, l.Service.Name)
	}
	if s.Service != (Service{ID: 1, Duration: 30 * time.Minute, BufferAfter: 10 * time.Minute, Capacity: 1}) {
		t.Fatalf("got service %+v", s.Service)
	}
	if s.Policy != (Policy{Step: 20 * time.Minute, MinNotice: 30 * time.Minute, MaxAdvance: 60 * 24 * time.Hour}) {
		t.Fatalf("got policy %+v", s.Policy)
	}
	if len(s.Hours) != 6 || s.Hours[0] != (WeeklyHours{time.Monday, 540, 1140}) {
		t.Fatalf("got hours %+v", s.Hours)
	}
	if !slices.Equal(s.Closures, []Date{{2026, time.November, 25}}) {
		t.Fatalf("got closures %v, want only 2026-11-25 (near the range)", s.Closures)
	}
	ids := []int64{}
	for _, p := range s.Providers {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []int64{1, 2}) {
		t.Fatalf("got providers %v, want 1 and 2 (3 is inactive)", ids)
	}
	p1 := s.Providers[0]
	if len(p1.Shifts) != 5 || !slices.Equal(p1.Shifts[0].Breaks, []Break{{780, 840}}) || p1.Shifts[0].Open != 540 || p1.Shifts[0].Close != 1080 {
		t.Fatalf("got shifts %+v", p1.Shifts)
	}
	if len(p1.Busy) != 1 || !p1.Busy[0].Start.Equal(santiago(t, "2026-11-24 10:00")) || !p1.Busy[0].End.Equal(santiago(t, "2026-11-24 10:40")) {
		t.Fatalf("got busy %v, want only the booking at the other location, with its buffer", p1.Busy)
	}
	if len(p1.TimeOff) != 1 || !p1.TimeOff[0].End.Equal(santiago(t, "2026-11-24 09:30")) {
		t.Fatalf("got time off %v, want the one reaching into Tuesday", p1.TimeOff)
	}
	if !p1.OffersService {
		t.Fatal("provider 1 offers the haircut")
	}

	// The customer flow drops provider 2 (online booking off); a booking being moved does not
	// block itself; without a service the duration is one step and everyone offers it.
	l, err = LoadSchedule(ctx, d.R, ScheduleQuery{LocationID: 1, First: tue, Last: tue, OnlineOnly: true, IgnoreBookingID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Schedule.Providers) != 1 || len(l.Schedule.Providers[0].Busy) != 0 || l.Service != nil ||
		l.Schedule.Service.Duration != 20*time.Minute || !l.Schedule.Providers[0].OffersService {
		t.Fatalf("got %+v", l.Schedule)
	}
	// A service not bookable online offers nothing to the customer flow, everything to the owner.
	for online, want := range map[bool]int{true: 0, false: 2} {
		l, err = LoadSchedule(ctx, d.R, ScheduleQuery{LocationID: 1, ServiceID: 2, First: tue, Last: tue, OnlineOnly: online})
		if err != nil || len(l.Schedule.Providers) != want {
			t.Fatalf("offline service, online=%v: got %d providers (%v), want %d", online, len(l.Schedule.Providers), err, want)
		}
	}

	for _, c := range []struct {
		q    ScheduleQuery
		want string
	}{
		{ScheduleQuery{LocationID: 9, First: tue, Last: tue}, "location"},
		{ScheduleQuery{LocationID: 1, ServiceID: 9, First: tue, Last: tue}, "service"},
		{ScheduleQuery{LocationID: 1, ProviderID: 9, First: tue, Last: tue}, "provider"},
	} {
		var nf *NotFoundError
		if _, err := LoadSchedule(ctx, d.R, c.q); !errors.As(err, &nf) || nf.Resource != c.want {
			t.Fatalf("%+v: got %v, want %s not found", c.q, err, c.want)
		}
	}
}

// TestConcurrentCreates: 60 goroutines call Create directly for one provider in six
// overlapping sets; exactly one per set wins, every other gets ErrSlotUnavailable.
func TestConcurrentCreates(t *testing.T) {
	d := openStore(t, 1)
	starts := []string{"09:00", "10:00", "11:00", "12:00", "14:00", "15:00"}
	results := make([]error, 60)
	race(60, func(i int) {
		start := santiago(t, "2026-11-24 "+starts[i%len(starts)]).Add(time.Duration(i/len(starts)%3) * 10 * time.Minute)
		_, results[i] = Create(context.Background(), d, storeNow, haircut(1, start))
	})
	wins := make([]int, len(starts))
	for i, err := range results {
		switch {
		case err == nil:
			wins[i%len(starts)]++
		case !errors.Is(err, ErrSlotUnavailable):
			t.Fatalf("attempt %d: got %v, want success or ErrSlotUnavailable", i, err)
		}
	}
	for set, n := range wins {
		if n != 1 {
			t.Fatalf("set %s: got %d winners, want 1", starts[set], n)
		}
	}
	wantNoOverlaps(t, d)
}

// TestConcurrentReschedulesAndCreates: half the goroutines move existing bookings onto six
// contested times while the other half create there.
func TestConcurrentReschedulesAndCreates(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	var ids []int64
	for _, day := range []string{"2026-11-25", "2026-11-26", "2026-11-27", "2026-12-01"} {
		for _, hm := range []string{"09:00", "10:00", "11:00", "12:00", "14:00", "15:00", "16:00", "17:00"} {
			if len(ids) == 30 {
				break
			}
			v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, day+" "+hm)))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.Booking.ID)
		}
	}
	starts := []string{"09:00", "10:00", "11:00", "12:00", "14:00", "15:00"}
	results := make([]error, 60)
	race(60, func(i int) {
		start := santiago(t, "2026-11-24 "+starts[i%len(starts)]).Add(time.Duration(i/len(starts)%2) * 15 * time.Minute)
		if i%2 == 0 {
			_, results[i] = Create(ctx, d, storeNow, haircut(1, start))
			return
		}
		_, results[i] = Update(ctx, d, storeNow, ids[i/2], Change{Start: &start}, SourceConnect)
	})
	wins := make([]int, len(starts))
	for i, err := range results {
		switch {
		case err == nil:
			wins[i%len(starts)]++
		case !errors.Is(err, ErrSlotUnavailable):
			t.Fatalf("attempt %d: got %v, want success or ErrSlotUnavailable", i, err)
		}
	}
	for set, n := range wins {
		if n != 1 {
			t.Fatalf("set %s: got %d winners, want 1", starts[set], n)
		}
	}
	wantNoOverlaps(t, d)
}

// race runs fn(0…n-1) in n goroutines released together.
func race(n int, fn func(i int)) {
	start := make(chan struct{})
	done := make(chan struct{})
	for i := range n {
		go func() {
			defer func() { done <- struct{}{} }()
			<-start
			fn(i)
		}()
	}
	close(start)
	for range n {
		<-done
	}
}

// TestDatabaseRefusesOverlap: a write that skips every check in Go is still refused, and the
// refusal reads as ErrSlotUnavailable.
func TestDatabaseRefusesOverlap(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	b := v.Booking
	err = d.InTx(ctx, func(q *db.Queries) error {
		_, err := q.InsertBooking(ctx, db.InsertBookingParams{
			LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 1, StatusID: 1,
			StartAt: b.BlockEndAt - 60_000, EndAt: b.BlockEndAt + 1_800_000, BlockStartAt: b.BlockEndAt - 60_000, BlockEndAt: b.BlockEndAt + 1_800_000,
			Source: SourceAdmin,
		})
		return writeError(err)
	})
	if !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("got %v, want ErrSlotUnavailable from the trigger", err)
	}
	// The owner is not bound by working hours, but is by overlap.
	admin := haircut(1, santiago(t, "2026-11-24 10:20"))
	admin.Source = SourceAdmin
	if _, err := Create(ctx, d, storeNow, admin); !errors.Is(err, ErrSlotUnavailable) {
		t.Fatalf("admin overlap: got %v, want ErrSlotUnavailable", err)
	}
	admin.Start = santiago(t, "2026-11-24 21:00")
	if _, err := Create(ctx, d, storeNow, admin); err != nil {
		t.Fatalf("admin booking after hours: %v", err)
	}
}

func TestExplainAt(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00"))); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE providers SET online_booking = 0 WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		service  int64
		provider int64
		at       string
		want     ReasonCode
	}{
		{"offered", 1, 1, "2026-11-24 11:00", ReasonOK},
		{"booked", 1, 1, "2026-11-24 10:15", ReasonBooked},
		{"buffer", 1, 1, "2026-11-24 09:30", ReasonBuffer},
		{"break", 1, 1, "2026-11-24 12:45", ReasonBreak},
		{"closed", 1, 1, "2026-11-29 10:00", ReasonClosed},
		{"off grid", 1, 1, "2026-11-24 11:05", ReasonOffGrid},
		{"before opening", 1, 1, "2026-11-23 08:30", ReasonOutsideHours},
		{"now is still bookable", 1, 1, "2026-11-23 09:00", ReasonOK},
		{"passed", 1, 1, "2026-11-23 09:00", ReasonNotice},
		{"beyond advance", 1, 1, "2027-03-01 10:00", ReasonBeyondAdvance},
		{"provider not online", 1, 2, "2026-11-24 11:00", ReasonNotOnline},
		{"service not online", 2, 1, "2026-11-24 11:00", ReasonNotOnline},
		{"no service", 0, 1, "2026-11-24 10:45", ReasonOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := storeNow
			if c.name == "passed" {
				now = now.Add(time.Minute)
			}
			r, err := ExplainAt(ctx, d, 1, c.service, c.provider, santiago(t, c.at), now)
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != c.want {
				t.Fatalf("got %s (%s), want %s", r.Code, r.Message, c.want)
			}
		})
	}
}
