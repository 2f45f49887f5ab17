package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"frontdesk/app/export"
	"frontdesk/app/importer"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// roundTripTables are the tables the import format covers, with the columns the format does
// not carry (a fresh uuid, the time of the import, what import always sets): everything else
// must come back equal.
var roundTripTables = []struct {
	table  string
	ignore []string
}{
	{"company", []string{"created_at", "updated_at"}},
	{"countries", nil},
	{"locations", []string{"uuid", "created_at", "updated_at"}},
	{"location_hours", nil},
	{"location_closures", nil},
	{"categories", []string{"created_at", "updated_at"}},
	{"services", []string{"uuid", "created_at", "updated_at"}},
	{"resources", []string{"created_at", "updated_at"}},
	{"service_resources", nil},
	{"service_images", nil},
	{"providers", []string{"created_at", "updated_at"}},
	{"provider_images", nil},
	{"provider_locations", nil},
	{"service_providers", nil},
	{"provider_hours", nil},
	{"provider_breaks", nil},
	{"provider_time_off", []string{"created_at", "updated_at"}},
	{"attribute_groups", nil},
	{"custom_attributes", nil},
	{"attribute_options", nil},
	{"clients", []string{"updated_at"}},
	{"client_attribute_values", nil},
	{"client_message_prefs", []string{"updated_at"}},
	{"class_timetable", []string{"created_at", "updated_at"}},
	{"class_sessions", []string{"created_at", "updated_at"}},
	{"products", []string{"created_at", "updated_at"}},
	{"carts", []string{"uuid", "updated_at", "expires_at"}},
	{"cart_items", []string{"item_uuid"}},
	{"sales", []string{"updated_at"}},
	{"transactions", nil},
	{"client_packs", []string{"updated_at"}},
	{"booking_series", nil},
	{"visits", []string{"updated_at"}},
	{"bookings", []string{"updated_at", "source"}},
	{"visit_bookings", nil},
	{"appointment_waits", []string{"updated_at"}},
}

// tableRows reads every row of table (less the ignored columns) as text, in id order.
func tableRows(t *testing.T, d *db.DB, table string, ignore []string) [][]string {
	t.Helper()
	rows, err := d.Read.Query(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for rows.Next() {
		var c string
		rows.Scan(&c)
		if !strings.Contains(" "+strings.Join(ignore, " ")+" ", " "+c+" ") {
			cols = append(cols, c)
		}
	}
	rows.Close()
	if len(cols) == 0 {
		t.Fatalf("table %s has no columns", table)
	}
	q := fmt.Sprintf(`SELECT %s FROM %s ORDER BY %s`, strings.Join(cols, ", "), table, strings.Join(cols, ", "))
	rows, err = d.Read.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		v := make([]sql.NullString, len(cols))
		scan := make([]any, len(cols))
		for i := range v {
			scan[i] = &v[i]
		}
		if err := rows.Scan(scan...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, x := range v {
			row[i] = cols[i] + "=" + x.String
			if !x.Valid {
				row[i] = cols[i] + "=NULL"
			}
		}
		out = append(out, row)
	}
	return out
}

// moneyHistory adds what the demo lacks and a business has after a while: sales with product
// and service lines and payments (one of a product since deactivated, one of more than is now
// in stock), session packs with a booking that used one, a cancelled booking whose session went
// back to its pack, a booking made long ago at an older price, a client created last year who
// prefers texts.
// roomsAndEquipment gives the demo business resources at two locations and services that
// require them (enough of each that the demo's bookings fit when they are imported again), a
// series, a visit and a waitlist for appointments.
func roomsAndEquipment(t *testing.T, d *db.DB) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO resources (location_id, name, kind, quantity, created_at, updated_at) VALUES
			(1, 'Colour chair', 'equipment', 40, 1, 1), (2, 'Treatment room', 'room', 50, 1, 1), (1, 'Basin', 'equipment', 60, 1, 1)`,
		`INSERT INTO service_resources (service_id, resource_id) VALUES (1, 1), (1, 3), (2, 2)`,
		// A weekly series of the first two bookings, and three clients waiting: for anyone,
		// for a provider (left), and one whose wait booked the first booking.
		`INSERT INTO booking_series (freq, interval_weeks, week_of_month, count, first_local, created_at) VALUES
			('weekly', 2, NULL, 2, '2026-11-24T10:00', 1700000000000), ('monthly', 1, -1, 3, '2026-11-27T09:30', 1700000001000)`,
		`UPDATE bookings SET series_id = 1 WHERE id IN (1, 2)`,
		// A visit of two bookings back to back: no buffer between them, the second's resources
		// held ten minutes before it.
		`INSERT INTO visits (location_id, client_id, source, created_at, updated_at) SELECT location_id, client_id, 'online', 1700000007000, 1700000007000 FROM bookings WHERE id = 3`,
		`UPDATE bookings SET block_end_at = end_at WHERE id = 3`,
		`UPDATE bookings SET block_start_at = start_at WHERE id = 4`,
		`INSERT INTO visit_bookings (booking_id, visit_id, position, part, addon_of, hold_before_ms) VALUES (3, 1, 0, 0, NULL, 0), (4, 1, 1, 1, 0, 600000)`,
		`INSERT INTO appointment_waits (client_id, location_id, service_id, provider_id, first_day, last_day, status, booking_id, source, created_at, updated_at) VALUES
			(1, 1, 1, NULL, '2026-11-24', '2026-11-30', 'waiting', NULL, 'connect', 1700000002000, 1700000002000),
			(2, 1, 1, 1, '2026-11-25', '2026-11-25', 'left', NULL, 'online', 1700000003000, 1700000004000),
			(3, 1, 1, NULL, '2026-11-20', '2026-11-26', 'booked', 1, 'mcp', 1700000005000, 1700000006000)`,
	} {
		if _, err := d.Write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func moneyHistory(t *testing.T, d *db.DB, now time.Time) {
	t.Helper()
	ms := now.UnixMilli()
	day := int64(24 * 3600 * 1000)
	for _, q := range []string{
		`UPDATE clients SET created_at = :ms - 400 * :day WHERE id = 2`,
		`INSERT INTO client_message_prefs (client_id, channel, updated_at) VALUES (2, 'sms', :ms)`,
		`UPDATE services SET location_id = 2 WHERE id = 3`,
		`INSERT INTO carts (uuid, client_id, location_id, note, created_at, updated_at, expires_at) VALUES ('c1', 1, 1, 'Pagó "en efectivo"', :ms - 30 * :day, :ms - 30 * :day, :ms)`,
		`INSERT INTO cart_items (cart_id, item_id, item_type, item_name, quantity, unit_price_cents, unit_discount_cents, position, product_id)
			VALUES (1, 1, 'product', 'Argan oil', 2, 1500, 250, 0, 1), (1, 2, 'product', 'Comb', 3, 500, NULL, 1, 2)`,
		`UPDATE products SET active = 0 WHERE id = 1`,
		`UPDATE products SET stock = 0 WHERE id = 2`,
		`INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, pending_cents, paid_at, created_at, updated_at)
			VALUES (1, 1, 1, 'paid', 4000, 0, :ms - 30 * :day, :ms - 30 * :day, :ms - 30 * :day)`,
		`INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at) VALUES (1, 2500, 1, :ms - 30 * :day, :ms - 30 * :day),
			(1, 1500, 2, :ms - 30 * :day, :ms - 30 * :day)`,
		`INSERT INTO carts (uuid, client_id, location_id, created_at, updated_at, expires_at) VALUES ('c2', 3, 1, :ms - 20 * :day, :ms - 20 * :day, :ms)`,
		`INSERT INTO cart_items (cart_id, item_id, item_type, item_name, quantity, unit_price_cents, position)
			SELECT 2, b.service_id, 'service', 'Pack', 1, 9000, 0 FROM bookings b WHERE b.id = 1`,
		`INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, pending_cents, created_at, updated_at)
			VALUES (2, 3, 1, 'partially_paid', 5000, 4000, :ms - 20 * :day, :ms - 20 * :day)`,
		`INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at) VALUES (2, 5000, 3, NULL, :ms - 20 * :day)`,
		`INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, sale_id, expires_at, created_at, updated_at)
			SELECT b.client_id, b.service_id, 5, 9000, 2, :ms + 300 * :day, :ms - 20 * :day, :ms - 20 * :day FROM bookings b WHERE b.id = 1`,
		`INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, created_at, updated_at) VALUES (2, 1, 3, 0, :ms, :ms)`,
		`UPDATE bookings SET pack_id = 1, sale_id = 2, created_at = :ms - 19 * :day WHERE id = 1`,
		`UPDATE bookings SET list_price_cents = list_price_cents + 700, price_cents = 0, notes = 'line one
line two', created_at = :ms - 100 * :day WHERE id = 2`,
	} {
		if _, err := d.Write.Exec(q, sql.Named("ms", ms), sql.Named("day", day)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// A cancelled booking of the pack's client and service that gave its session back, cancelled
	// late by the client.
	var client, service int64
	if err := d.Read.QueryRow(`SELECT client_id, service_id FROM client_packs WHERE id = 1`).Scan(&client, &service); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at,
	block_end_at, price_cents, list_price_cents, source, pack_id, created_at, updated_at)
	SELECT location_id, service_id, provider_id, client_id, 5, start_at - 7 * ?, end_at - 7 * ?, block_start_at - 7 * ?, block_end_at - 7 * ?,
	price_cents, list_price_cents, 'admin', 1, created_at, updated_at FROM bookings WHERE id = 1`, day, day, day, day); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE bookings SET pack_returned = 1, cancelled_at = updated_at, cancelled_by = 'client', cancelled_late = 1
	WHERE id = (SELECT max(id) FROM bookings)`); err != nil {
		t.Fatal(err)
	}
	// A booking of three years ago by a provider who no longer gives that service.
	if res, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at,
	block_end_at, price_cents, list_price_cents, source, created_at, updated_at)
	SELECT p.location_id, s.id, p.id, 1, 3, :at, :at + 1800000, :at, :at + 1800000, 100, 100, 'admin', :at, :at
	FROM providers p, services s WHERE s.capacity = 1 AND NOT EXISTS (SELECT 1 FROM service_providers x WHERE x.provider_id = p.id AND x.service_id = s.id)
	ORDER BY p.id, s.id LIMIT 1`, sql.Named("at", now.AddDate(-3, 0, 0).Truncate(time.Hour).UnixMilli())); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("the old booking: %d rows", n)
	}
	if _, err := d.Write.Exec(`UPDATE site_settings SET logo = X'89504E470D0A1A0A', logo_type = 'image/png'`); err != nil {
		t.Fatal(err)
	}
}

func archiveEntries(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestArchiveRoundTrip: the demo business with a money history, exported and imported into an
// empty database, is the same business: every table the import format covers holds the same
// rows, column for column, except the columns the format leaves to the import (roundTripTables).
// The zip holds the CSVs and the logo too.
func TestArchiveRoundTrip(t *testing.T) {
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	src := dbtest.Open(t, filepath.Join(t.TempDir(), "src.db"))
	if _, err := importer.Load(ctx, src, importer.Demo(), now); err != nil {
		t.Fatal(err)
	}
	moneyHistory(t, src, now)
	roomsAndEquipment(t, src)

	var zipped bytes.Buffer
	if err := export.WriteArchive(ctx, src, &zipped, now); err != nil {
		t.Fatal(err)
	}
	entries := archiveEntries(t, zipped.Bytes())
	for _, name := range []string{"business.json", "csv/bookings.csv", "csv/clients.csv", "csv/sales.csv", "csv/payments.csv",
		"csv/messages.csv", "csv/deliveries.csv", "logo.png"} {
		if _, ok := entries[name]; !ok {
			t.Errorf("the zip lacks %s", name)
		}
	}
	if !bytes.Equal(entries["logo.png"], []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("logo.png %q", entries["logo.png"])
	}
	if !strings.HasPrefix(string(entries["csv/sales.csv"]), "sale id,created (America/Santiago),") {
		t.Errorf("sales.csv: %.200s", entries["csv/sales.csv"])
	}

	dst := dbtest.Open(t, filepath.Join(t.TempDir(), "dst.db"))
	sum, err := importer.Load(ctx, dst, entries["business.json"], now)
	if err != nil {
		t.Fatalf("import of the export: %v", err)
	}
	t.Log(sum)
	for _, tc := range roundTripTables {
		want, got := tableRows(t, src, tc.table, tc.ignore), tableRows(t, dst, tc.table, tc.ignore)
		if len(want) == 0 {
			t.Errorf("%s: the fixture has no rows, so the comparison proves nothing", tc.table)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: %d rows exported, %d imported; first difference:\n%s", tc.table, len(want), len(got), firstDiff(want, got))
		}
	}
}

func firstDiff(a, b [][]string) string {
	for i := range max(len(a), len(b)) {
		switch {
		case i >= len(a):
			return fmt.Sprintf("extra %q", b[i])
		case i >= len(b):
			return fmt.Sprintf("missing %q", a[i])
		case !reflect.DeepEqual(a[i], b[i]):
			return fmt.Sprintf("exported %q\nimported %q", a[i], b[i])
		}
	}
	return ""
}

// TestArchiveStreamsInFlatMemory: the zip of a business with 100 000 bookings holds no more
// heap than one with 10 000: business.json and the CSVs go out as they are read.
func TestArchiveStreamsInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 110 000 bookings")
	}
	if raceEnabled {
		t.Skip("writes 110 000 bookings: run without -race (.ci/run does)")
	}
	w := newWorld(t)
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	peak := func() (uint64, int64) {
		runtime.GC()
		s := &sampler{}
		if err := export.WriteArchive(context.Background(), w.d, s, start); err != nil {
			t.Fatal(err)
		}
		return s.peak, s.n
	}
	w.addBookings(t, start, 10_000)
	small, smallBytes := peak()
	w.addBookings(t, start.AddDate(2, 0, 0), 90_000)
	large, largeBytes := peak()
	t.Logf("10 000 bookings: %d bytes zipped, peak heap %d KiB; 100 000: %d bytes, peak heap %d KiB", smallBytes, small>>10, largeBytes, large>>10)
	if largeBytes < 5*smallBytes {
		t.Fatalf("the larger zip has %d bytes, the smaller %d: not the rows expected", largeBytes, smallBytes)
	}
	// business.json alone is ~40 MB before compression for 100 000 bookings: holding it would
	// show tens of MB more.
	if large > small+8<<20 {
		t.Errorf("peak heap %d KiB for 100 000 bookings against %d KiB for 10 000: memory grows with the business", large>>10, small>>10)
	}
}
