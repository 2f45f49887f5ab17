package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/db"
)

func weekly(count int) Repeat { return Repeat{Freq: RepeatWeekly, Count: count} }

// occurrenceClocks are the local start times of a series' bookings in zone, "2006-01-02 15:04".
func occurrenceClocks(t *testing.T, res SeriesResult, zone *time.Location) []string {
	t.Helper()
	var out []string
	for _, o := range res.Occurrences {
		if o.Booking != nil {
			out = append(out, db.Time(o.Booking.Booking.StartAt).In(zone).Format("2006-01-02 15:04"))
		}
	}
	return out
}

// TestSeriesKeepsWallTimeAcrossDST: a weekly series over Santiago's April fall-back and New
// York's March spring-forward keeps 10:00 on the clock; the instants move by the hour.
func TestSeriesKeepsWallTimeAcrossDST(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	for _, tc := range []struct {
		location int64
		zone     string
		first    string
		want     []string
	}{
		{1, "America/Santiago", "2027-03-23 10:00", []string{"2027-03-23 10:00", "2027-03-30 10:00", "2027-04-06 10:00", "2027-04-13 10:00"}},
		{2, "America/New_York", "2027-03-02 10:00", []string{"2027-03-02 10:00", "2027-03-09 10:00", "2027-03-16 10:00", "2027-03-23 10:00"}},
	} {
		zone := mustZone(t, tc.zone)
		nb := NewBooking{LocationID: tc.location, ServiceID: 1, ProviderID: 1, ClientID: 1, StatusID: StatusConfirmed,
			Start: at(t, zone, tc.first), Source: SourceAdmin}
		res, err := BookSeries(ctx, d, storeNow, SeriesRequest{NewBooking: nb, Repeat: weekly(4), Mode: SeriesAllOrNothing})
		if err != nil {
			t.Fatalf("%s: %v", tc.zone, err)
		}
		if got := occurrenceClocks(t, res, zone); !slices.Equal(got, tc.want) {
			t.Fatalf("%s: local starts %v, want %v", tc.zone, got, tc.want)
		}
		first, last := res.Occurrences[0].Booking.Booking.StartAt, res.Occurrences[3].Booking.Booking.StartAt
		if gap := time.Duration(last-first) * time.Millisecond; gap == 3*7*24*time.Hour {
			t.Fatalf("%s: the series kept UTC (%v apart), not the wall time", tc.zone, gap)
		}
		for _, o := range res.Occurrences {
			if !o.Booking.Booking.SeriesID.Valid || o.Booking.Booking.SeriesID.Int64 != res.SeriesID {
				t.Fatalf("%s: occurrence %s carries series %v, want %d", tc.zone, o.Date, o.Booking.Booking.SeriesID, res.SeriesID)
			}
		}
	}
	wantNoOverlaps(t, d)
}

// TestSeriesModes: with one occurrence taken, "all or nothing" refuses naming that date and
// writes nothing; "the free ones" books the others. One booking.created per occurrence, one
// confirmation for the series, reminders for each.
func TestSeriesModes(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-12-08 10:00"))); err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		t.Helper()
		var n int
		if err := d.Read.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count(`SELECT count(*) FROM bookings`)
	req := SeriesRequest{NewBooking: haircut(1, santiago(t, "2026-11-24 10:00")), Repeat: weekly(4), Mode: SeriesAllOrNothing}

	occ, err := CheckSeries(ctx, d, storeNow, req)
	if err != nil {
		t.Fatal(err)
	}
	var free []bool
	for _, o := range occ {
		free = append(free, o.Free)
	}
	if want := []bool{true, true, false, true}; !slices.Equal(free, want) || occ[2].Reason != ReasonTaken {
		t.Fatalf("check: free %v (reason %q), want %v", free, occ[2].Reason, want)
	}

	_, err = BookSeries(ctx, d, storeNow, req)
	var se *SeriesUnavailableError
	if !errors.As(err, &se) || len(se.Dates) != 1 || se.Dates[0].String() != "2026-12-08" {
		t.Fatalf("all or nothing: got %v, want a refusal naming 2026-12-08", err)
	}
	if f := se.Fail(); f.Reason != ConflictSeriesUnavailable || f.Message != "not free on 2026-12-08" {
		t.Fatalf("refusal: %+v", f)
	}
	if n := count(`SELECT count(*) FROM bookings`); n != before {
		t.Fatalf("all or nothing refused but wrote: %d bookings, want %d", n, before)
	}

	req.Mode = SeriesFreeOnes
	events := count(`SELECT count(*) FROM events WHERE type = 'booking.created'`)
	res, err := BookSeries(ctx, d, storeNow, req)
	if err != nil {
		t.Fatal(err)
	}
	zone := mustZone(t, "America/Santiago")
	if got, want := occurrenceClocks(t, res, zone), []string{"2026-11-24 10:00", "2026-12-01 10:00", "2026-12-15 10:00"}; !slices.Equal(got, want) {
		t.Fatalf("free ones: booked %v, want %v", got, want)
	}
	if n := count(`SELECT count(*) FROM events WHERE type = 'booking.created'`) - events; n != 3 {
		t.Fatalf("booking.created events: %d, want 3", n)
	}
	if n := count(fmt.Sprintf(`SELECT count(*) FROM events WHERE type = 'booking.created' AND json_extract(body, '$.data.series_id') = %d`, res.SeriesID)); n != 3 {
		t.Fatalf("booking.created events carrying the series id: %d, want 3", n)
	}
	// Reminders are written a day before they are due: run the horizon past the last one, a
	// day at a time, as the message dispatcher's claim rounds would over those weeks.
	for at := storeNow; at.Before(time.Date(2026, 12, 16, 0, 0, 0, 0, time.UTC)); at = at.Add(24 * time.Hour) {
		if err := d.InTx(ctx, func(q *db.Queries) error { _, err := messages.PlanDueReminders(ctx, q, at); return err }); err != nil {
			t.Fatal(err)
		}
	}
	var confirmations, reminders int
	err = d.Read.QueryRow(`SELECT count(*) FILTER (WHERE m.kind = 'confirmation'), count(*) FILTER (WHERE m.kind = 'reminder')
		FROM messages m JOIN bookings b ON b.id = m.booking_id WHERE b.series_id = ? AND m.recipient = 'client'`, res.SeriesID).Scan(&confirmations, &reminders)
	if err != nil {
		t.Fatal(err)
	}
	if confirmations != 1 || reminders != 3*2 {
		t.Fatalf("messages: %d confirmations and %d reminders, want 1 and 6", confirmations, reminders)
	}
	wantNoOverlaps(t, d)
}

// TestSeriesScopes: cancelling "this and following" leaves the earlier occurrences; moving
// "all" keeps every one on its own date at the new wall time; one occurrence alone changes
// only itself.
func TestSeriesScopes(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	zone := mustZone(t, "America/Santiago")
	res, err := BookSeries(ctx, d, storeNow, SeriesRequest{NewBooking: haircut(1, santiago(t, "2026-11-24 10:00")),
		Repeat: weekly(5), Mode: SeriesAllOrNothing})
	if err != nil {
		t.Fatal(err)
	}
	id := func(i int) int64 { return res.Occurrences[i].Booking.Booking.ID }
	states := func() []string {
		t.Helper()
		var out []string
		for i := range res.Occurrences {
			v, err := Get(ctx, d.R, id(i))
			if err != nil {
				t.Fatal(err)
			}
			s := db.Time(v.Booking.StartAt).In(zone).Format("01-02 15:04")
			if v.Booking.StatusID == StatusCancelled {
				s += " cancelled"
			}
			out = append(out, s)
		}
		return out
	}

	moved := santiago(t, "2026-12-01 11:00")
	if _, err := UpdateOccurrences(ctx, d, storeNow, id(1), Change{Start: &moved}, ScopeOne, SourceConnect); err != nil {
		t.Fatal(err)
	}
	later := santiago(t, "2026-11-24 15:00")
	if _, err := UpdateOccurrences(ctx, d, storeNow, id(0), Change{Start: &later}, ScopeAll, SourceConnect); err != nil {
		t.Fatal(err)
	}
	want := []string{"11-24 15:00", "12-01 15:00", "12-08 15:00", "12-15 15:00", "12-22 15:00"}
	if got := states(); !slices.Equal(got, want) {
		t.Fatalf("after moving all: %v, want %v", got, want)
	}

	ids, err := CancelOccurrences(ctx, d, storeNow, id(2), ScopeFollowing, CancelOptions{Source: SourceConnect})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 {
		t.Fatalf("cancelled %v, want 3 occurrences", ids)
	}
	want = []string{"11-24 15:00", "12-01 15:00", "12-08 15:00 cancelled", "12-15 15:00 cancelled", "12-22 15:00 cancelled"}
	if got := states(); !slices.Equal(got, want) {
		t.Fatalf("after cancelling this and following: %v, want %v", got, want)
	}
}

// TestSeriesMoveRefusalNamesDates: moving a whole series onto a time one of its dates cannot
// take refuses naming that date and moves none.
func TestSeriesMoveRefusalNamesDates(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	res, err := BookSeries(ctx, d, storeNow, SeriesRequest{NewBooking: haircut(1, santiago(t, "2026-11-24 10:00")),
		Repeat: weekly(3), Mode: SeriesAllOrNothing})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-12-01 16:00"))); err != nil {
		t.Fatal(err)
	}
	to := santiago(t, "2026-11-24 16:00")
	_, err = UpdateOccurrences(ctx, d, storeNow, res.Occurrences[0].Booking.Booking.ID, Change{Start: &to}, ScopeAll, SourceConnect)
	var se *SeriesUnavailableError
	if !errors.As(err, &se) || joinDates(se.Dates) != "2026-12-01" {
		t.Fatalf("got %v, want a refusal naming 2026-12-01", err)
	}
	v, err := Get(ctx, d.R, res.Occurrences[0].Booking.Booking.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Booking.StartAt != res.Occurrences[0].Booking.Booking.StartAt {
		t.Fatal("a refused series move moved the first occurrence")
	}
}

// TestSeriesRacingSingleBookings: series and single bookings race for the same provider's
// Tuesdays; whatever wins, no two live blocks overlap (the SQL sweep), and every series is
// whole or absent under all or nothing.
func TestSeriesRacingSingleBookings(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	times := []string{"10:00", "10:15", "10:30"}
	days := []string{"2026-11-24", "2026-12-01", "2026-12-08", "2026-12-15"}
	errs := make([]error, 48)
	race(len(errs), func(i int) {
		hm := times[i%len(times)]
		if i%2 == 0 {
			_, errs[i] = BookSeries(ctx, d, storeNow, SeriesRequest{NewBooking: haircut(1, santiago(t, days[0]+" "+hm)),
				Repeat: weekly(4), Mode: []string{SeriesAllOrNothing, SeriesFreeOnes}[i/2%2]})
			return
		}
		_, errs[i] = Create(ctx, d, storeNow, haircut(1, santiago(t, days[i/2%len(days)]+" "+hm)))
	})
	var se *SeriesUnavailableError
	for i, err := range errs {
		if err != nil && !errors.Is(err, ErrSlotUnavailable) && !errors.As(err, &se) {
			t.Fatalf("racer %d: %v", i, err)
		}
	}
	wantNoOverlaps(t, d)
	var broken int
	err := d.Read.QueryRow(`SELECT count(*) FROM booking_series s
		WHERE s.id IN (SELECT series_id FROM bookings WHERE series_id IS NOT NULL)
		  AND (SELECT count(*) FROM bookings b WHERE b.series_id = s.id) NOT BETWEEN 1 AND 4`).Scan(&broken)
	if err != nil {
		t.Fatal(err)
	}
	if broken != 0 {
		t.Fatalf("%d series with a wrong number of occurrences", broken)
	}
	var orphans int
	if err := d.Read.QueryRow(`SELECT count(*) FROM booking_series s WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.series_id = s.id)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 {
		t.Fatalf("%d series rows written without occurrences", orphans)
	}
}

// TestSeriesMonthlyDates: "the second Tuesday" and "the last Friday" of each month, and the
// bound of a year.
func TestSeriesMonthlyDates(t *testing.T) {
	r := Repeat{Freq: RepeatMonthly, Count: 3}
	got, err := r.dates(mustDate(t, "2026-12-08"))
	if err != nil {
		t.Fatal(err)
	}
	if s := joinDates(got); s != "2026-12-08, 2027-01-12, 2027-02-09" {
		t.Fatalf("second Tuesdays: %s", s)
	}
	r = Repeat{Freq: RepeatMonthly, Count: 3, WeekOfMonth: -1}
	if got, err = r.dates(mustDate(t, "2026-12-25")); err != nil {
		t.Fatal(err)
	}
	if s := joinDates(got); s != "2026-12-25, 2027-01-29, 2027-02-26" {
		t.Fatalf("last Fridays: %s", s)
	}
	r = Repeat{Freq: RepeatMonthly, Count: 2, WeekOfMonth: 3}
	var inv *InvalidError
	if _, err := r.dates(mustDate(t, "2026-12-08")); !errors.As(err, &inv) || inv.Field != "start_time" {
		t.Fatalf("a start that is not the third Tuesday: %v", err)
	}
	r = Repeat{Freq: RepeatWeekly, IntervalWeeks: 2, Count: 52}
	if got, err = r.dates(mustDate(t, "2026-12-08")); err != nil || len(got) != 27 {
		t.Fatalf("fortnightly for 52: %d dates (%v), want 27 within a year", len(got), err)
	}
}
