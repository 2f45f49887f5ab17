package booking

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

// TestLoadScheduleCachedFollowsCatalogWrites changes each kind of catalog record behind the
// cache's back (plain SQL on the writer, as another process would) and checks that the cached
// load then answers exactly what an uncached load reads.
func TestLoadScheduleCachedFollowsCatalogWrites(t *testing.T) {
	d := openStore(t, 3)
	day := Date{2026, time.November, 24}
	queries := []ScheduleQuery{
		{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true},
		{LocationID: 1, ServiceID: 1, ProviderID: 2, First: day.AddDays(-1), Last: day.AddDays(2), OnlineOnly: true},
		{LocationID: 1, First: day, Last: day.AddDays(6)},
		{LocationID: 2, ServiceID: 1, ProviderID: 1, First: day, Last: day},
	}
	check := func(t *testing.T) { t.Helper(); wantCachedLoads(t, d, queries) }
	check(t) // fills the cache
	for _, c := range []struct{ name, sql string }{
		{"policy", `UPDATE company SET slot_step_min = 30, min_notice_min = 60`},
		{"location renamed and moved", `UPDATE locations SET name = 'Centro 2', timezone = 'America/New_York' WHERE id = 1`},
		{"location hours", `UPDATE location_hours SET open_min = 600 WHERE location_id = 1 AND day_id = 2`},
		{"closure added", `INSERT INTO location_closures (location_id, date) VALUES (1, '2026-11-25')`},
		{"closure removed", `DELETE FROM location_closures WHERE location_id = 1`},
		{"service duration", `UPDATE services SET duration_min = 45, buffer_before_min = 5 WHERE id = 1`},
		{"service offline", `UPDATE services SET online_booking = 0 WHERE id = 1`},
		{"service online again", `UPDATE services SET online_booking = 1 WHERE id = 1`},
		{"provider renamed", `UPDATE providers SET public_name = 'Ana' WHERE id = 2`},
		{"provider inactive", `UPDATE providers SET active = 0 WHERE id = 3`},
		{"provider leaves the location", `DELETE FROM provider_locations WHERE provider_id = 2 AND location_id = 1`},
		{"provider joins again", `INSERT INTO provider_locations (provider_id, location_id) VALUES (2, 1)`},
		{"provider stops offering the service", `DELETE FROM service_providers WHERE provider_id = 1 AND service_id = 1`},
		{"shift changed", `UPDATE provider_hours SET close_min = 1020 WHERE provider_id = 1 AND day_id = 2`},
		{"shift added", `INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (1, 2, 2, 540, 600)`},
		{"break removed", `DELETE FROM provider_breaks WHERE hours_id IN (SELECT id FROM provider_hours WHERE provider_id = 2)`},
		{"shifts removed", `DELETE FROM provider_hours WHERE provider_id = 3`},
		{"location inactive", `UPDATE locations SET active = 0 WHERE id = 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := d.Write.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			check(t)
		})
	}
}

// wantCachedLoads fails unless each of queries loads the same through the caches as straight
// from the database.
func wantCachedLoads(t *testing.T, d *db.DB, queries []ScheduleQuery) {
	t.Helper()
	ctx := context.Background()
	for _, sq := range queries {
		got, gotErr := LoadScheduleCached(ctx, d, sq)
		want, wantErr := LoadSchedule(ctx, d.R, sq)
		if !got.cached {
			t.Fatalf("%+v: got a load not marked as cached", sq)
		}
		got.cached, got.version = false, 0
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%+v: got error %v, want %v", sq, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: cached load differs from a fresh one:\ngot  %+v\nwant %+v", sq, got, want)
		}
	}
}

// TestLoadScheduleCachedFollowsBusyWrites: the busy time is kept by the providers' counters
// (busy.go); every kind of write to bookings, class sessions and time off behind the cache's back (plain
// SQL on the writer, as another process would) shows in the next load.
func TestLoadScheduleCachedFollowsBusyWrites(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 5, 1) // providers 1 and 2; service 3 is a class
	day := Date{2026, time.November, 24}
	queries := []ScheduleQuery{
		{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true},
		{LocationID: 1, ServiceID: 1, ProviderID: 2, First: day, Last: day, OnlineOnly: true},
		{LocationID: 1, ServiceID: 3, First: day, Last: day, OnlineOnly: true},
		{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true, IgnoreBookingID: 1},
		{LocationID: 2, ServiceID: 1, ProviderID: 1, First: day, Last: day},
	}
	b, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int64 { return db.Millis(santiago(t, s)) }
	wantCachedLoads(t, d, queries) // fills the cache
	for _, c := range []struct {
		name string
		sql  string
		args []any
	}{
		{"booking moved", `UPDATE bookings SET start_at = start_at + 3600000, end_at = end_at + 3600000,
			block_start_at = block_start_at + 3600000, block_end_at = block_end_at + 3600000 WHERE id = ?`, []any{b.Booking.ID}},
		{"booking to another provider", `UPDATE bookings SET provider_id = 2 WHERE id = ?`, []any{b.Booking.ID}},
		{"booking cancelled", `UPDATE bookings SET status_id = 5 WHERE id = ?`, []any{b.Booking.ID}},
		{"booking inserted", `INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
			VALUES (1, 1, 2, 1, 1, ?, ?, ?, ?, 0, 0, 'admin', 0, 0)`, []any{at("2026-11-24 15:00"), at("2026-11-24 16:00"), at("2026-11-24 15:00"), at("2026-11-24 16:00")}},
		{"booking deleted", `DELETE FROM bookings WHERE provider_id = 2`, nil},
		{"session added", `INSERT INTO class_sessions (location_id, service_id, provider_id, local_date, start_at, end_at,
			block_start_at, block_end_at, status, created_at, updated_at) VALUES (1, 3, 1, '2026-11-24', ?, ?, ?, ?, 'scheduled', 0, 0)`,
			[]any{at("2026-11-24 12:00"), at("2026-11-24 13:00"), at("2026-11-24 12:00"), at("2026-11-24 13:00")}},
		{"session moved to another teacher", `UPDATE class_sessions SET provider_id = 2`, nil},
		{"session cancelled", `UPDATE class_sessions SET status = 'cancelled'`, nil},
		{"session deleted", `DELETE FROM class_sessions`, nil},
		// Time off is kept with the blocks, under sessions_provider (00370).
		{"time off added", `INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?)`,
			[]any{at("2026-11-24 09:00"), at("2026-11-24 11:30")}},
		{"time off moved", `UPDATE provider_time_off SET starts_at = ?, ends_at = ?`, []any{at("2026-11-24 14:00"), at("2026-11-24 15:00")}},
		{"time off to another provider", `UPDATE provider_time_off SET provider_id = 2`, nil},
		{"time off deleted", `DELETE FROM provider_time_off`, nil},
		// The providers' own calendars are kept with the blocks, under sessions_provider (00530).
		{"calendar connected", `INSERT INTO calendar_connections (id, provider_id, kind, url, created_at, updated_at)
			VALUES (1, 1, 'ics', 'https://calendar.example/p1.ics', 0, 0)`, nil},
		{"calendar busy added", `INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (1, 1, ?, ?, 'Dentist')`,
			[]any{at("2026-11-24 11:00"), at("2026-11-24 12:00")}},
		{"calendar busy moved", `UPDATE calendar_busy SET starts_at = ?, ends_at = ?`, []any{at("2026-11-24 15:00"), at("2026-11-24 16:00")}},
		{"calendar stale, stale time not blocking", `UPDATE calendar_connections SET stale = 1, stale_blocks = 0`, nil},
		{"calendar fresh again", `UPDATE calendar_connections SET stale = 0`, nil},
		{"calendar busy deleted", `DELETE FROM calendar_busy`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := d.Write.Exec(c.sql, c.args...); err != nil {
				t.Fatal(err)
			}
			wantCachedLoads(t, d, queries)
		})
	}
}

// TestBusyTimeKeptInTwoParts: a schedule's busy time is kept in two parts (busy.go). A new
// booking moves only its provider's bookings counter, so the next cached load reads the
// bookings again and keeps the time off, taught sessions and calendar busy blocks; a write to
// any of those reads that part again, and only it. Every load answers what an uncached load
// reads.
func TestBusyTimeKeptInTwoParts(t *testing.T) {
	ctx := context.Background()
	d := classStore(t, 5, 1) // providers 1 and 2; service 3 is a class
	at := func(s string) int64 { return db.Millis(santiago(t, s)) }
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?)`, at("2026-11-24 09:00"), at("2026-11-24 10:00"))
	exec(`INSERT INTO calendar_connections (id, provider_id, kind, url, created_at, updated_at)
		VALUES (1, 2, 'ics', 'https://calendar.example/p2.ics', 0, 0)`)
	exec(`INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (1, 2, ?, ?, '')`,
		at("2026-11-24 11:00"), at("2026-11-24 12:00"))
	day := Date{2026, time.November, 24}
	sq := ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true}
	load := func(t *testing.T) []string { t.Helper(); return countedCachedLoad(t, d, sq) }
	bookings := []string{"ScheduleBookingsPacked"}
	rest := []string{"ScheduleTimeOffPacked", "ScheduleCalendarBusy"}
	load(t) // fills the cache
	for _, c := range []struct {
		name  string
		write func(t *testing.T)
		want  []string
	}{
		{"nothing written", func(*testing.T) {}, nil},
		{"booking created", func(t *testing.T) {
			if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 15:00"))); err != nil {
				t.Fatal(err)
			}
		}, bookings},
		{"booking cancelled", func(*testing.T) { exec(`UPDATE bookings SET status_id = 5`) }, bookings},
		{"time off added", func(*testing.T) {
			exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (2, ?, ?)`, at("2026-11-24 16:00"), at("2026-11-24 17:00"))
		}, rest},
		{"calendar busy added", func(*testing.T) {
			exec(`INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (1, 2, ?, ?, 'Dentist')`,
				at("2026-11-24 14:00"), at("2026-11-24 14:30"))
		}, rest},
		{"calendar stale, stale time not blocking", func(*testing.T) { exec(`UPDATE calendar_connections SET stale = 1, stale_blocks = 0`) }, rest},
		{"session added", func(*testing.T) {
			exec(`INSERT INTO class_sessions (location_id, service_id, provider_id, local_date, start_at, end_at,
				block_start_at, block_end_at, status, created_at, updated_at) VALUES (1, 3, 2, '2026-11-24', ?, ?, ?, ?, 'scheduled', 0, 0)`,
				at("2026-11-24 10:00"), at("2026-11-24 11:00"), at("2026-11-24 10:00"), at("2026-11-24 11:00"))
		}, rest},
		{"booking and time off", func(t *testing.T) {
			if _, err := Create(ctx, d, storeNow, haircut(2, santiago(t, "2026-11-24 15:00"))); err != nil {
				t.Fatal(err)
			}
			exec(`DELETE FROM provider_time_off WHERE provider_id = 1`)
		}, append(bookings, rest...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.write(t)
			if got := load(t); !slices.Equal(got, c.want) {
				t.Fatalf("statements of the load: got %v, want %v", got, c.want)
			}
		})
	}
}

// TestLoadScheduleCachedReadsBookingsEveryTime: bookings and time off are not catalog data, so a
// new booking shows at once without any catalog write.
func TestLoadScheduleCachedReadsBookingsEveryTime(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	day := Date{2026, time.November, 24}
	sq := ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true}
	before, err := LoadScheduleCached(ctx, d, sq)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00"))); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (2, ?, ?)`,
		santiago(t, "2026-11-24 09:00").UnixMilli(), santiago(t, "2026-11-24 12:00").UnixMilli()); err != nil {
		t.Fatal(err)
	}
	after, err := LoadScheduleCached(ctx, d, sq)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(before.Schedule.Providers[0].Busy); n != 0 {
		t.Fatalf("before: got %d bookings of provider 1, want 0", n)
	}
	if got := after.Schedule.Providers[0].Busy; len(got) != 1 {
		t.Fatalf("after: got bookings %v of provider 1, want the new one", got)
	}
	if got := after.Schedule.Providers[1].TimeOff; len(got) != 1 {
		t.Fatalf("after: got time off %v of provider 2, want the new one", got)
	}
	if n := len(before.Schedule.Providers[0].Busy); n != 0 {
		t.Fatalf("the earlier answer changed: got %d bookings of provider 1, want 0", n)
	}
}

// TestCreateAnswersWhatItStored: Create builds its answer from the inserted row and the records
// it checked instead of reading the booking back; the answer must equal a read.
func TestCreateAnswersWhatItStored(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 2)
	notes, price, resource := "First visit, \"quoted\"", int64(1234), int64(7)
	admin := haircut(2, santiago(t, "2026-11-24 11:00"))
	admin.Source, admin.End = SourceAdmin, santiago(t, "2026-11-24 12:15")
	for _, c := range []struct {
		name string
		nb   NewBooking
	}{
		{"plain haircut, discounted", haircut(1, santiago(t, "2026-11-24 10:00"))},
		{"notes, price and time resource", func() NewBooking {
			nb := haircut(1, santiago(t, "2026-11-24 15:00"))
			nb.Notes, nb.Price, nb.TimeResourceID, nb.StatusID = &notes, &price, &resource, StatusReserved
			return nb
		}()},
		{"owner, explicit end", admin},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Create(ctx, d, storeNow, c.nb)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Get(ctx, d.R, got.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Create answered\n%+v\nbut the booking reads\n%+v", got, want)
			}
		})
	}
}

// TestBusyVersionMovesWithEveryProvider: each part of the busy-time version of a schedule moves
// with a raise of its counter of each of its providers — bookings with the bookings' changes,
// rest with sessions_provider — and the other part stays, whether it is read over the
// providers' ids (spread out) or over the range of ids (close together: then others' raises
// may move it too).
func TestBusyVersionMovesWithEveryProvider(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	for _, c := range []struct {
		name    string
		ids     []int64
		outside int64 // a provider outside the list
		moves   bool  // whether its raise moves the version
	}{
		{"close together", []int64{3, 4, 6}, 5, true},
		{"spread out", []int64{3, 400, 900}, 500, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &scheduleBase{ids: c.ids}
			read := func() busyVersion {
				t.Helper()
				v, err := b.busyVersion(ctx, d.R)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			// A booking's change raises its provider's booking_counts changes (00690); class
			// sessions and time off raise sessions_provider.
			raise := func(kind string, id int64) {
				t.Helper()
				stmt := `INSERT INTO etag_versions (kind, ref_id, n) VALUES (?, ?, 1)
					ON CONFLICT (kind, ref_id) DO UPDATE SET n = n + 1`
				if counts, ok := strings.CutPrefix(kind, "bookings_"); ok {
					kind = counts
					stmt = `INSERT INTO booking_counts (kind, ref_id, status_id, n, changes) VALUES (?, ?, 1, 0, 1)
						ON CONFLICT (kind, ref_id, status_id) DO UPDATE SET changes = changes + 1`
				}
				if _, err := d.Write.Exec(stmt, kind, id); err != nil {
					t.Fatal(err)
				}
			}
			for _, id := range c.ids {
				before := read()
				raise("bookings_provider", id)
				if after := read(); after.bookings == before.bookings || after.rest != before.rest {
					t.Fatalf("bookings of provider %d raised: version %+v → %+v, want bookings moved and rest the same", id, before, after)
				}
				before = read()
				raise("sessions_provider", id)
				if after := read(); after.rest == before.rest || after.bookings != before.bookings {
					t.Fatalf("sessions_provider of provider %d raised: version %+v → %+v, want rest moved and bookings the same", id, before, after)
				}
			}
			before := read()
			raise("bookings_provider", c.outside)
			raise("bookings_location", c.ids[0]) // another kind never counts
			if moved := read() != before; moved != c.moves {
				t.Fatalf("provider %d's raise moved the version: %v, want %v", c.outside, moved, c.moves)
			}
		})
	}
}

// TestRestKeptOnAGrid: the rest of a busy time is read for whole spans of restSpan and kept
// there (busy.go), so searches about other days of the same span read only the bookings, and
// each still gets just the blocks that overlap its own range: what an uncached load of that
// range reads, summaries included.
func TestRestKeptOnAGrid(t *testing.T) {
	d := classStore(t, 5, 1) // providers 1 and 2; service 3 is a class
	at := func(s string) int64 { return db.Millis(santiago(t, s)) }
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, ?, ?)`, at("2026-11-24 09:00"), at("2026-11-24 10:00"))
	exec(`INSERT INTO calendar_connections (id, provider_id, kind, url, created_at, updated_at, reveal_summary)
		VALUES (1, 2, 'ics', 'https://calendar.example/p2.ics', 0, 0, 1)`)
	exec(`INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (1, 2, ?, ?, 'Dentist'), (1, 2, ?, ?, '')`,
		at("2026-11-26 11:00"), at("2026-11-26 12:00"), at("2026-11-24 16:00"), at("2026-11-24 17:00"))
	exec(`INSERT INTO class_sessions (location_id, service_id, provider_id, local_date, start_at, end_at,
		block_start_at, block_end_at, status, created_at, updated_at) VALUES (1, 3, 2, '2026-11-27', ?, ?, ?, ?, 'scheduled', 0, 0)`,
		at("2026-11-27 10:00"), at("2026-11-27 11:00"), at("2026-11-27 10:00"), at("2026-11-27 11:00"))

	first, last := Date{2026, time.November, 24}, Date{2026, time.November, 28}
	zone, err := LoadZone("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := restWindow(db.Millis(DayStart(zone, first).Add(-time.Hour)), db.Millis(DayStart(zone, last).Add(48*time.Hour)))
	if hi-lo != restSpan {
		t.Fatalf("the test's days do not lie in one span of the grid (%d–%d): move them", lo, hi)
	}
	for i, day := 0, first; !last.Before(day); i, day = i+1, day.AddDays(1) {
		t.Run(day.String(), func(t *testing.T) {
			names := countedCachedLoad(t, d, ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true})
			wantNames := []string{"ScheduleBookingsPacked"}
			if i == 0 {
				wantNames = append(wantNames, "ScheduleTimeOffPacked", "ScheduleCalendarBusy")
			}
			if !slices.Equal(names, wantNames) {
				t.Fatalf("statements of the load: got %v, want %v", names, wantNames)
			}
		})
	}
	t.Run("a day asked again", func(t *testing.T) {
		if names := countedCachedLoad(t, d, ScheduleQuery{LocationID: 1, ServiceID: 1, First: first, Last: first, OnlineOnly: true}); len(names) != 0 {
			t.Fatalf("statements of the load: got %v, want none", names)
		}
	})
}

// TestRestWindow: the window covers the range, lies on the grid and is no wider than it must be.
func TestRestWindow(t *testing.T) {
	for _, r := range [][2]int64{
		{0, 1}, {1, restSpan}, {restSpan - 1, restSpan + 1}, {restSpan, 2 * restSpan}, {-1, 0}, {-restSpan - 1, -5},
		{1796428800000, 1796428800000 + 3*86400000}, {-5, 7},
	} {
		since, until := r[0], r[1]
		lo, hi := restWindow(since, until)
		if lo%restSpan != 0 || hi%restSpan != 0 || lo > since || hi < until || since-lo >= restSpan || hi-until >= restSpan {
			t.Errorf("restWindow(%d, %d) = %d, %d", since, until, lo, hi)
		}
	}
}

// countedCachedLoad is LoadScheduleCached for sq with the statements after the versions' read
// counted: it fails unless the load answers what an uncached load reads, and returns the names
// of the statements it ran.
func countedCachedLoad(t *testing.T, d *db.DB, sq ScheduleQuery) []string {
	t.Helper()
	ctx := context.Background()
	v, err := CurrentSchedule(ctx, d, sq)
	if err != nil {
		t.Fatal(err)
	}
	c := &countingDB{DBTX: d.Read}
	got, err := v.base.schedule(ctx, db.New(c), d.Counted(), v.busy, sq, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := LoadSchedule(ctx, d.R, sq)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached load differs from a fresh one:\ngot  %+v\nwant %+v", got, want)
	}
	return c.names
}
