package importer

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"frontdesk/db"
)

// The demo loads on any day — including days around daylight-saving changes in both of its
// zones — and its bookings then never overlap and always fall inside working time. Every day
// is validated; a few, chosen for their week boundaries and clock changes, are also written
// and checked against the stored schedule (a load takes seconds under the race detector).
func TestDemoLoadsOnAnyDay(t *testing.T) {
	days := []struct {
		now   time.Time
		write bool
	}{
		{testNow, true},
		{time.Date(2026, 9, 5, 23, 30, 0, 0, time.UTC), true},  // the night Santiago springs forward
		{time.Date(2027, 4, 3, 3, 30, 0, 0, time.UTC), true},   // … and falls back
		{time.Date(2026, 11, 30, 4, 30, 0, 0, time.UTC), true}, // Sunday night in New York, Monday in Santiago
		{time.Date(2027, 3, 14, 6, 30, 0, 0, time.UTC), false}, // New York springs forward
		{time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), false}, // … and falls back
	}
	for i := 1; i < 7; i++ {
		days = append(days, struct {
			now   time.Time
			write bool
		}{testNow.AddDate(0, 0, i), false})
	}
	for _, day := range days {
		t.Run(day.now.Format(time.RFC3339), func(t *testing.T) {
			f, err := Decode(Demo())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := validate(f, day.now, &problems{}); err != nil {
				t.Fatal(err)
			}
			if !day.write {
				return
			}
			d := openDB(t)
			if _, err := Load(context.Background(), d, Demo(), day.now); err != nil {
				t.Fatal(err)
			}
			checkBookingsInWorkingTime(t, d)
			checkClassSeats(t, d)
		})
	}
}

// The demo has what the rest of the project relies on (the README, the bench, the UI).
func TestDemoContents(t *testing.T) {
	d := openDB(t)
	if _, err := Load(context.Background(), d, Demo(), testNow); err != nil {
		t.Fatal(err)
	}
	nowMs := db.Millis(testNow)
	atLeast := []struct {
		what  string
		query string
		min   int64
	}{
		{"locations", `SELECT count(*) FROM locations`, 2},
		{"locations in America/Santiago", `SELECT count(*) FROM locations WHERE timezone = 'America/Santiago'`, 1},
		{"locations in another zone", `SELECT count(*) FROM locations WHERE timezone NOT IN ('America/Santiago', 'UTC')`, 1},
		{"providers at the Santiago location", `SELECT count(*) FROM provider_locations pl JOIN locations l ON l.id = pl.location_id WHERE l.timezone = 'America/Santiago'`, 10},
		{"providers at both locations", `SELECT count(*) FROM (SELECT provider_id FROM provider_locations GROUP BY provider_id HAVING count(*) > 1)`, 1},
		{"providers", `SELECT count(*) FROM providers`, 4},
		{"providers with weekly hours at every location they work at",
			`SELECT count(*) FROM provider_locations pl WHERE EXISTS (SELECT 1 FROM provider_hours h WHERE h.provider_id = pl.provider_id AND h.location_id = pl.location_id)`, 13},
		{"breaks", `SELECT count(*) FROM provider_breaks`, 10},
		{"time off", `SELECT count(*) FROM provider_time_off`, 1},
		{"services", `SELECT count(*) FROM services`, 8},
		{"categories with services", `SELECT count(DISTINCT category_id) FROM services`, 3},
		{"services with keywords", `SELECT count(*) FROM services WHERE keywords_json <> '[]'`, 8},
		{"services with a discount", `SELECT count(*) FROM services WHERE has_discount = 1`, 1},
		{"services booked online", `SELECT count(*) FROM services WHERE online_booking = 1`, 1},
		{"services not booked online", `SELECT count(*) FROM services WHERE online_booking = 0`, 1},
		{"outcall services", `SELECT count(*) FROM services WHERE outcall = 1`, 1},
		{"video services", `SELECT count(*) FROM services WHERE is_video = 1`, 1},
		{"service images", `SELECT count(*) FROM service_images`, 3},
		{"categoric options", `SELECT count(*) FROM attribute_options`, 2},
		{"clients", `SELECT count(*) FROM clients`, 20},
		{"clients with email", `SELECT count(*) FROM clients WHERE email LIKE '%_@_%.%'`, 20},
		{"future bookings", fmt.Sprintf(`SELECT count(*) FROM bookings WHERE start_at > %d AND status_id IN (1, 2)`, nowMs), 20},
		{"weeks with future bookings", fmt.Sprintf(`SELECT count(DISTINCT (start_at - %d) / 604800000) FROM bookings WHERE start_at > %d`, nowMs, nowMs), 3},
		{"bookings at the second location", `SELECT count(*) FROM bookings b JOIN locations l ON l.id = b.location_id WHERE l.timezone <> 'America/Santiago'`, 5},
		{"past bookings attended", fmt.Sprintf(`SELECT count(*) FROM bookings WHERE start_at < %d AND status_id = 3`, nowMs), 5},
		{"cancelled bookings", `SELECT count(*) FROM bookings WHERE status_id = 5`, 1},
		{"timetable entries", `SELECT count(*) FROM class_timetable`, 5},
		{"class sessions a year ahead", fmt.Sprintf(`SELECT count(*) FROM class_sessions WHERE start_at > %d + 300 * 86400000`, nowMs), 5},
		{"one-off class sessions", `SELECT count(*) FROM class_sessions WHERE timetable_id IS NULL`, 1},
		{"cancelled class dates", `SELECT count(*) FROM class_sessions WHERE status = 'cancelled'`, 1},
		{"full class sessions", `SELECT count(*) FROM class_sessions s JOIN services v ON v.id = s.service_id
			WHERE (SELECT count(*) FROM bookings b WHERE b.session_id = s.id AND b.status_id <> 5) = coalesce(s.capacity, v.capacity)`, 1},
		{"class sessions with several attendees", `SELECT count(*) FROM (SELECT session_id FROM bookings WHERE session_id IS NOT NULL GROUP BY session_id HAVING count(*) >= 3)`, 4},
	}
	for _, c := range atLeast {
		var n int64
		if err := d.Read.QueryRow(c.query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if n < c.min {
			t.Errorf("%s: got %d, want at least %d", c.what, n, c.min)
		}
	}

	rows, err := d.Read.Query(`SELECT DISTINCT datatype FROM custom_attributes`)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for rows.Next() {
		var dt string
		rows.Scan(&dt)
		types[dt] = true
	}
	rows.Close()
	for _, want := range []string{"text", "categoric", "boolean", "date", "integer"} {
		if !types[want] {
			t.Errorf("custom attributes: got datatypes %v, want one of type %s", types, want)
		}
	}

	e164 := regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)
	phones, err := d.Read.Query(`SELECT first_name, phone FROM clients`)
	if err != nil {
		t.Fatal(err)
	}
	defer phones.Close()
	for phones.Next() {
		var name, phone string
		if err := phones.Scan(&name, &phone); err != nil {
			t.Fatalf("a client without a phone: %v", err)
		}
		if !e164.MatchString(phone) {
			t.Errorf("client %s: got phone %q, want E.164", name, phone)
		}
	}
}

// checkBookingsInWorkingTime fails for any live booking whose held time (buffers included) is
// not inside one of its provider's shifts at its location that day, or touches a break, the
// location's opening hours, a closure or the provider's time off. It reads the stored rows
// (not the import file), so it checks what the slot engine will see.
func checkBookingsInWorkingTime(t *testing.T, d *db.DB) {
	t.Helper()
	type shift struct {
		provider, location, day, open, close int64
		breaks                               [][2]int64
	}
	var shifts []*shift
	byID := map[int64]*shift{}
	query(t, d, `SELECT id, provider_id, location_id, day_id, open_min, close_min FROM provider_hours`, func(scan func(...any)) {
		var id int64
		s := &shift{}
		scan(&id, &s.provider, &s.location, &s.day, &s.open, &s.close)
		shifts = append(shifts, s)
		byID[id] = s
	})
	query(t, d, `SELECT hours_id, start_min, end_min FROM provider_breaks`, func(scan func(...any)) {
		var id, start, end int64
		scan(&id, &start, &end)
		byID[id].breaks = append(byID[id].breaks, [2]int64{start, end})
	})
	var opening []shift
	query(t, d, `SELECT location_id, day_id, open_min, close_min FROM location_hours`, func(scan func(...any)) {
		var h shift
		scan(&h.location, &h.day, &h.open, &h.close)
		opening = append(opening, h)
	})
	closed := map[string]bool{}
	query(t, d, `SELECT location_id || ' ' || date FROM location_closures`, func(scan func(...any)) {
		var k string
		scan(&k)
		closed[k] = true
	})
	type absence struct{ provider, from, to int64 }
	var off []absence
	query(t, d, `SELECT provider_id, starts_at, ends_at FROM provider_time_off`, func(scan func(...any)) {
		var a absence
		scan(&a.provider, &a.from, &a.to)
		off = append(off, a)
	})

	live := 0
	query(t, d, `
		SELECT b.id, p.public_name, b.provider_id, b.location_id, l.timezone, b.block_start_at, b.block_end_at
		FROM bookings b JOIN locations l ON l.id = b.location_id JOIN providers p ON p.id = b.provider_id
		WHERE b.status_id <> 5`, func(scan func(...any)) {
		var id, provider, location, fromMs, toMs int64
		var name, zoneName string
		scan(&id, &name, &provider, &location, &zoneName, &fromMs, &toMs)
		live++
		zone := mustZone(t, zoneName)
		from, to := db.Time(fromMs).In(zone), db.Time(toMs).In(zone)
		date := from.Format("2006-01-02")
		what := fmt.Sprintf("booking %d of %s held %s–%s", id, name, from.Format("Mon 2006-01-02 15:04"), to.Format("15:04 MST"))
		if to.Format("2006-01-02") != date {
			t.Errorf("%s: crosses midnight", what)
			return
		}
		day := int64(from.Weekday())
		lo, hi := int64(from.Hour()*60+from.Minute()), int64(to.Hour()*60+to.Minute())
		inShift, inBreak := false, false
		for _, s := range shifts {
			if s.provider == provider && s.location == location && s.day == day && s.open <= lo && hi <= s.close {
				inShift = true
				for _, b := range s.breaks {
					inBreak = inBreak || b[0] < hi && b[1] > lo
				}
			}
		}
		open := false
		for _, h := range opening {
			open = open || h.location == location && h.day == day && h.open <= lo && hi <= h.close
		}
		away := false
		for _, a := range off {
			away = away || a.provider == provider && a.from < toMs && a.to > fromMs
		}
		switch {
		case !inShift:
			t.Errorf("%s: not inside a shift", what)
		case inBreak:
			t.Errorf("%s: overlaps a break", what)
		case !open:
			t.Errorf("%s: the location is not open", what)
		case closed[fmt.Sprintf("%d %s", location, date)]:
			t.Errorf("%s: the location is closed that day", what)
		case away:
			t.Errorf("%s: the provider is off", what)
		}
	})
	if live < 50 {
		t.Fatalf("got %d live bookings, want the demo's", live)
	}
}

// checkClassSeats fails for a live booking of a class that is not a seat in a scheduled session
// of its class, provider and time, for a session with more live seats than its capacity, and
// for a client with two seats in one session.
func checkClassSeats(t *testing.T, d *db.DB) {
	t.Helper()
	seats := 0
	query(t, d, `SELECT b.id, coalesce(s.status, 'none'), b.session_id IS NOT NULL AND s.start_at = b.start_at AND s.end_at = b.end_at
			AND s.provider_id = b.provider_id AND s.service_id = b.service_id AND s.location_id = b.location_id
		FROM bookings b JOIN services v ON v.id = b.service_id LEFT JOIN class_sessions s ON s.id = b.session_id
		WHERE v.capacity > 1 AND b.status_id <> 5`, func(scan func(...any)) {
		var id int64
		var status string
		var matches bool
		scan(&id, &status, &matches)
		seats++
		if status != "scheduled" || !matches {
			t.Errorf("class booking %d: session %s, matching %v; want a seat in a scheduled session of its time", id, status, matches)
		}
	})
	if seats < 30 {
		t.Fatalf("got %d class seats, want the demo's", seats)
	}
	query(t, d, `SELECT s.id, count(b.id), coalesce(s.capacity, v.capacity), count(DISTINCT b.client_id)
		FROM class_sessions s JOIN services v ON v.id = s.service_id JOIN bookings b ON b.session_id = s.id AND b.status_id <> 5
		GROUP BY s.id`, func(scan func(...any)) {
		var id, n, capacity, clients int64
		scan(&id, &n, &capacity, &clients)
		if n > capacity || clients != n {
			t.Errorf("session %d: %d seats for %d clients, capacity %d", id, n, clients, capacity)
		}
	})
}

// query runs a query on the read pool and calls row for each row with its Scan.
func query(t *testing.T, d *db.DB, sql string, row func(scan func(...any))) {
	t.Helper()
	rows, err := d.Read.Query(sql)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		row(func(dest ...any) {
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
		})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
