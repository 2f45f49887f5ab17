package booking

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestBookingCountsStayExact: the trigger-maintained counts that answer total_records agree with
// counting the table, in all and per status, after creates, reschedules to another provider and
// location, client changes, cancels, and raw inserts, updates and deletes that bypass the Go
// code (migration 00368 writes every kind's counter in one statement per trigger).
func TestBookingCountsStayExact(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (2, 'Juan', 0, 0)`)
	exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (2, 2)`)
	exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (2, 2, 2, 540, 1080)`)
	var ids []int64
	for i, hm := range []string{"09:00", "10:00", "11:00", "14:00"} {
		v, err := Create(ctx, d, storeNow, haircut(int64(1+i%3), santiago(t, "2026-11-24 "+hm)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.Booking.ID)
	}
	ny, _ := LoadZone("America/New_York")
	two, loc2, client2 := int64(2), int64(2), int64(2)
	moved := time.Date(2026, 11, 24, 10, 0, 0, 0, ny)
	if _, err := Update(ctx, d, storeNow, ids[0], Change{ProviderID: &two, LocationID: &loc2, Start: &moved}, SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(ctx, d, storeNow, ids[1], Change{ClientID: &client2}, SourceConnect); err != nil {
		t.Fatal(err)
	}
	if err := Cancel(ctx, d, storeNow, ids[2], SourceConnect); err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
		SELECT location_id, 2, provider_id, client_id, 1, start_at + 86400000, end_at + 86400000, block_start_at + 86400000, block_end_at + 86400000, 0, 0, 0, 0 FROM bookings`)
	exec(`DELETE FROM bookings WHERE id = ?`, ids[3])
	// A status change alone, a service change alone, and a status change together with a
	// provider and a client change.
	exec(`UPDATE bookings SET status_id = 2 WHERE id = ?`, ids[1])
	exec(`UPDATE bookings SET service_id = 2 WHERE id = ?`, ids[0])
	exec(`UPDATE bookings SET status_id = 3, provider_id = 3, client_id = 1 WHERE id = (SELECT max(id) FROM bookings)`)

	for _, kind := range []string{"location", "client", "service", "provider"} {
		rows, err := d.Read.Query(`SELECT ` + kind + `_id, status_id, count(*) FROM bookings GROUP BY 1, 2`)
		if err != nil {
			t.Fatal(err)
		}
		want := map[[2]int64]int64{} // [id, status] → count; status 0: all
		for rows.Next() {
			var id, status, n int64
			rows.Scan(&id, &status, &n)
			want[[2]int64{id, status}] = n
			want[[2]int64{id, 0}] += n
		}
		rows.Close()
		for id := int64(1); id <= 3; id++ {
			for status := int64(0); status <= StatusCancelled; status++ {
				f := Filter{StatusID: status}
				switch kind {
				case "location":
					f.LocationID = id
				case "client":
					f.ClientID = id
				case "service":
					f.ServiceID = id
				case "provider":
					f.ProviderID = id
				}
				_, got, err := List(ctx, d, f, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				if w := want[[2]int64{id, status}]; got != w {
					t.Fatalf("%s %d, status %d: got %d bookings, want %d", kind, id, status, got, w)
				}
			}
		}
	}
}

// TestListQueriesReadTheIndexes: every list and count GET /v3/bookings runs — each entity
// filter, with no dates, one bound, a month, or every date there is, in a business whose
// locations keep two time zones — is a search of that entity's (entity, start) index, in start
// order, never a scan of the table or a sort: a range has no length limit, so its cost must be
// that of the index entries it covers.
func TestListQueriesReadTheIndexes(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 3) // locations in America/Santiago and America/New_York
	month := [2]Date{{2026, time.March, 1}, {2026, time.March, 31}}
	always := [2]Date{{1, time.January, 1}, {9999, time.December, 31}}
	yes := true
	for _, kind := range []string{"location", "client", "service", "provider"} {
		for _, dates := range []struct {
			name     string
			from, to *Date
		}{
			{"no dates", nil, nil},
			{"from", &month[0], nil},
			{"until", nil, &month[1]},
			{"month", &month[0], &month[1]},
			{"every date", &always[0], &always[1]},
		} {
			f := Filter{From: dates.from, To: dates.to, StatusID: StatusConfirmed, Scheduled: &yes}
			switch kind {
			case "location":
				f.LocationID = 1
			case "client":
				f.ClientID = 1
			case "service":
				f.ServiceID = 1
			case "provider":
				f.ProviderID = 1
			}
			where, args, err := listWhere(ctx, d.R, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []struct {
				name, sql string
				args      []any
			}{{"page", pageSQL(where), append(args, 30, 0)}, {"count", countSQL(where), args}} {
				rows, err := d.Read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q.sql, q.args...)
				if err != nil {
					t.Fatalf("%s %s %s: %v", kind, dates.name, q.name, err)
				}
				var plan []string
				for rows.Next() {
					var id, parent, unused int
					var detail string
					if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
						t.Fatal(err)
					}
					plan = append(plan, detail)
				}
				rows.Close()
				text := strings.Join(plan, "\n")
				index := "INDEX bookings_" + kind + "_list (" + kind + "_id=?"
				if dates.from != nil || dates.to != nil { // an open end is the widest instant
					index += " AND start_at>? AND start_at<?"
				}
				if len(plan) != 1 || !strings.HasPrefix(plan[0], "SEARCH b USING ") || !strings.Contains(plan[0], index) {
					t.Errorf("%s filter, %s, %s: planned as\n%s\nwant one search of %s…)", kind, dates.name, q.name, text, index)
				}
			}
		}
	}
}
