package booking

import (
	"context"
	"fmt"
	"testing"
	"time"

	"frontdesk/db"
)

// sessionStarts lists the local starts of the class's scheduled sessions with provider at
// location 1 on the dates, as "2006-01-02 15:04".
func sessionStarts(t *testing.T, d *db.DB, first, last string) []string {
	t.Helper()
	zone := mustZone(t, "America/Santiago")
	var out []string
	queryInts(t, d, `SELECT start_at FROM class_sessions WHERE status = 'scheduled' AND local_date BETWEEN ? AND ? ORDER BY start_at`,
		func(ms int64) { out = append(out, db.Time(ms).In(zone).Format("2006-01-02 15:04")) }, first, last)
	return out
}

func queryInts(t *testing.T, d *db.DB, q string, row func(int64), args ...any) {
	t.Helper()
	rows, err := d.Read.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		row(v)
	}
}

// TestTimetableChanges: a weekly entry makes a year of sessions; moving it moves the empty
// sessions and keeps the one with an attendee where it was (a one-off now); a cancelled date
// stays cancelled through changes and generation; an entry with history cannot be deleted,
// only ended.
func TestTimetableChanges(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 2)
	var entry int64
	queryInts(t, d, `SELECT id FROM class_timetable`, func(id int64) { entry = id })
	var n int64
	queryInts(t, d, `SELECT count(*) FROM class_sessions`, func(c int64) { n = c })
	if n != 53 { // every Monday from 2026-11-23 to 2027-11-23
		t.Fatalf("got %d sessions, want a year of Mondays (53)", n)
	}
	if _, err := Create(ctx, d, storeNow, yoga(1, santiago(t, "2026-11-30 10:00"))); err != nil {
		t.Fatal(err)
	}
	if _, err := CancelTimetableDate(ctx, d, storeNow, entry, Date{2026, time.December, 7}); err != nil {
		t.Fatal(err)
	}
	if _, err := CancelTimetableDate(ctx, d, storeNow, entry, Date{2028, time.December, 25}); err != nil {
		t.Fatalf("cancelling a date beyond the horizon: %v", err)
	}
	in := TimetableInput{LocationID: 1, ServiceID: 3, ProviderID: 1, Weekday: time.Monday, StartMin: hm("12:00"), Capacity: 12, ValidFrom: Date{2026, time.November, 23}}
	ch, err := UpdateTimetableEntry(ctx, d, storeNow, entry, in)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ch.Kept) != "[2026-11-30]" {
		t.Fatalf("got kept %v, want the session with an attendee", ch.Kept)
	}
	got := sessionStarts(t, d, "2026-11-23", "2026-12-21")
	want := []string{"2026-11-23 12:00", "2026-11-30 10:00", "2026-11-30 12:00", "2026-12-14 12:00", "2026-12-21 12:00"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after moving to 12:00: got %v, want %v (the booked 10:00 kept, 12-07 still cancelled)", got, want)
	}
	var capacity int64
	queryInts(t, d, `SELECT capacity FROM class_sessions WHERE local_date = '2026-12-14'`, func(c int64) { capacity = c })
	if capacity != 12 {
		t.Fatalf("got capacity %d, want the entry's 12", capacity)
	}
	// Generation later (a year on) neither brings back 2026-12-07 nor makes 2028-12-25.
	if _, err := GenerateSessions(ctx, d, time.Date(2027, 12, 20, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if got := sessionStarts(t, d, "2026-12-07", "2026-12-07"); len(got) != 0 {
		t.Fatalf("a cancelled date came back: %v", got)
	}
	if got := sessionStarts(t, d, "2028-12-18", "2028-12-25"); fmt.Sprint(got) != "[2028-12-18 12:00]" {
		t.Fatalf("a year on: got %v, want 2028-12-18 and no 2028-12-25", got)
	}
	if _, err := Create(ctx, d, storeNow, yoga(2, santiago(t, "2026-12-14 12:00"))); err != nil {
		t.Fatal(err)
	}
	if err := DeleteTimetableEntry(ctx, d, time.Now(), entry); !isInvalid(err, "timetable_entry") {
		t.Fatalf("deleting an entry with history: got %v, want refused", err)
	}
	end := Date{2026, time.December, 31}
	in.ValidTo = &end
	if _, err := UpdateTimetableEntry(ctx, d, storeNow, entry, in); err != nil {
		t.Fatal(err)
	}
	if got := sessionStarts(t, d, "2027-01-01", "2029-01-01"); len(got) != 0 {
		t.Fatalf("after ending the entry: got %d sessions after its end", len(got))
	}
	if got := sessionStarts(t, d, "2026-12-14", "2026-12-14"); len(got) != 1 {
		t.Fatalf("after ending the entry: got %v, want its booked session before the end kept", got)
	}
}

// TestGenerateSessionsIsQuiet: the worker's pass is idempotent and writes only what is missing;
// a date whose provider is taken is reported and left free.
func TestGenerateSessionsIsQuiet(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 8, 1)
	if _, err := Create(ctx, d, storeNow, NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 2, ClientID: 1, StatusID: StatusConfirmed,
		Start: santiago(t, "2026-11-30 10:00"), Source: SourceAdmin}); err != nil {
		t.Fatal(err)
	}
	_, ch, err := CreateTimetableEntry(ctx, d, storeNow, TimetableInput{LocationID: 1, ServiceID: 3, ProviderID: 2,
		Weekday: time.Monday, StartMin: hm("09:30"), ValidFrom: Date{2026, time.November, 23}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ch.Clashes) != "[2026-11-30]" || ch.Created != 52 {
		t.Fatalf("got %d created, clashes %v; want 52 and 2026-11-30 (provider 2 has a haircut then)", ch.Created, ch.Clashes)
	}
	g, err := GenerateSessions(ctx, d, storeNow)
	if err != nil || g.Created != 0 || fmt.Sprint(g.Clashes) != "[2026-11-30]" {
		t.Fatalf("second pass: got %+v (%v), want nothing new and the clash again", g, err)
	}
	g, err = GenerateSessions(ctx, d, storeNow.AddDate(0, 0, 7))
	if err != nil || g.Created != 2 { // one more Monday for each of the two entries
		t.Fatalf("a week later: got %+v (%v), want 2 new sessions", g, err)
	}
}
