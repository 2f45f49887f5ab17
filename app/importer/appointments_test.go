package importer

import (
	"context"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// freshaAppointments is an appointments export as Fresha's columns are read, against the
// business of docs/import.md's example (Haircut: 30 min and 10 after; Ben gives haircuts at
// Centro; Ana has Colour on 2026-11-30 10:00): a new client, an overlap with the row before, an
// overlap with a stored booking, an unknown service and provider, a past appointment, a
// cancelled one, and a stored client written in other case, at a 12-hour time with a duration.
const freshaAppointments = "\uFEFFScheduled Date;Time;Duration;Service;Team Member;Client;Email;Mobile Number;Status;Notes;Ref #\n" +
	"2026-12-10;10:00;30;Haircut;Ben;Nora Díaz;nora@example.com;+56933334444;Confirmed;first visit;A1\n" +
	"2026-12-10;10:15;;Haircut;Ben;Otto Paz;otto@example.com;;Booked;;A2\n" +
	"2026-11-30;10:00;;Colour;Ana;María López;maria.lopez@example.com;;Confirmed;;A3\n" +
	"2026-12-11;11:00;;Massage;Ana;Nora Díaz;nora@example.com;;Confirmed;;A4\n" +
	"2026-12-11;11:00;;Haircut;Zoe;Nora Díaz;nora@example.com;;Confirmed;;A5\n" +
	"2026-11-02;10:00;;Haircut;Ben;Nora Díaz;nora@example.com;;Completed;;A6\n" +
	"2026-12-12;09:00;;Haircut;Ben;Nora Díaz;nora@example.com;;Cancelled;;A7\n" +
	"Dec 14, 2026;3:30 PM;45 min;colour;ana;maria lopez;Maria.Lopez@example.com;;Confirmed;;A8\n" +
	"2026-12-15;10:00;;Haircut;Ben;Otto Paz;otto@example.com;;Booked;;A9\n" +
	"2026-12-16;10:00;;Colour;Ben;Otto Paz;otto@example.com;;Booked;;A10\n"

func TestLoadAppointmentsCSV(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"line 2: create 2026-12-10 10:00 Haircut Ben Nora Díaz (new client)",
		"line 3: skip: Ben already has a booking then (not double-booked)",
		"line 4: skip: Ana already has a booking then (not double-booked)",
		`line 5: skip: no service named "Massage" here (add it under Catalog → Services, then import the file again)`,
		`line 6: skip: no provider named "Zoe" here (add them under Catalog → Providers, then import the file again)`,
		"line 7: skip: in the past (choose to import the history to bring it as a past booking)",
		"line 8: skip: cancelled in fresha",
		"line 9: create 2026-12-14 15:30 colour ana maria lopez",
		"line 10: create 2026-12-15 10:00 Haircut Ben Otto Paz (new client)", // the client of line 3, whose booking is skipped
		"line 11: skip: the provider does not offer this service",            // the engine's own rule
	}
	before := tableCounts(t, d)
	dry, err := LoadVendorCSV(ctx, d, "fresha", []byte(freshaAppointments), testNow, SwitchOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSameCounts(t, tableCounts(t, d), before) // a dry run writes nothing
	if got := outcomes(dry); got != strings.Join(want, "\n") {
		t.Errorf("dry run:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if !dry.Appointments || dry.Created != 3 || dry.Clients != 2 || dry.Skipped != 7 || strings.Join(dry.Ignored, ",") != "Ref #" {
		t.Errorf("dry run: appointments %v, created %d, clients %d, skipped %d, ignored %q", dry.Appointments, dry.Created, dry.Clients, dry.Skipped, dry.Ignored)
	}
	done, err := LoadVendorCSV(ctx, d, "fresha", []byte(freshaAppointments), testNow, SwitchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if outcomes(done) != outcomes(dry) {
		t.Errorf("the import did\n%s\nthe dry run said\n%s", outcomes(done), outcomes(dry))
	}
	after := tableCounts(t, d)
	if after["bookings"] != before["bookings"]+3 || after["clients"] != before["clients"]+2 {
		t.Errorf("bookings %d → %d, clients %d → %d; want 3 and 2 more", before["bookings"], after["bookings"], before["clients"], after["clients"])
	}
	// Times are read in the location's zone (Santiago, UTC−3 in December); the booking is the
	// engine's, with its source, the service's length or the file's, and the file's notes.
	rows, err := d.Read.Query(`SELECT b.start_at, b.end_at, b.source, b.status_id, coalesce(b.notes, ''), c.email
	FROM bookings b JOIN clients c ON c.id = b.client_id WHERE b.start_at >= ? ORDER BY b.start_at`, time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var start, end, status int64
		var source, notes, email string
		if err := rows.Scan(&start, &end, &source, &status, &notes, &email); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{time.UnixMilli(start).UTC().Format(time.RFC3339), time.UnixMilli(end).UTC().Format("15:04"),
			source, itoa(status), notes, email}, " "))
	}
	rows.Close()
	wantRows := "2026-12-10T13:00:00Z 13:30 import 1 first visit nora@example.com\n" +
		"2026-12-14T18:30:00Z 19:15 import 1  maria.lopez@example.com\n" +
		"2026-12-15T13:00:00Z 13:30 import 1  otto@example.com"
	if strings.Join(got, "\n") != wantRows {
		t.Errorf("imported bookings:\n%s\nwant\n%s", strings.Join(got, "\n"), wantRows)
	}
	// The same file again books nothing twice: each row now overlaps its own booking.
	again, err := LoadVendorCSV(ctx, d, "fresha", []byte(freshaAppointments), testNow, SwitchOptions{})
	if err != nil || again.Created != 0 {
		t.Errorf("the same file again: created %d, %v", again.Created, err)
	}
	// With the history, a past appointment is brought as attended.
	past := "Scheduled Date;Time;Service;Team Member;Client;Email;Status\n2026-11-02;10:00;Haircut;Ben;Nora Díaz;nora@example.com;Completed\n" +
		"2026-11-03;10:00;Haircut;Ben;Nora Díaz;nora@example.com;No-show\n"
	h, err := LoadVendorCSV(ctx, d, "fresha", []byte(past), testNow, SwitchOptions{History: true})
	if err != nil || h.Created != 2 || !h.Rows[0].History || h.Clients != 0 {
		t.Fatalf("history: %+v, %v", h, err)
	}
	var statuses string
	if err := d.Read.QueryRow(`SELECT group_concat(status_id, ',') FROM (SELECT status_id FROM bookings WHERE start_at BETWEEN ? AND ? ORDER BY start_at)`,
		time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC).UnixMilli()).Scan(&statuses); err != nil || statuses != "3,4" {
		t.Errorf("past bookings' statuses %q (%v), want attended then no-show", statuses, err)
	}
}

// An appointments file with a row that cannot be read (a date in an ambiguous form, a formula)
// is refused whole, each problem at its line, and writes nothing.
func TestLoadAppointmentsCSVRefuses(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
		t.Fatal(err)
	}
	file := "Date,Start Time,Service,Service Provider,Client Name,Client Email\n" +
		"2026-12-10,10:00,Haircut,Ben,Nora Díaz,nora@example.com\n" +
		"10/12/2026,10:00,Haircut,Ben,Otto Paz,otto@example.com\n" +
		"2026-12-11,10:00,Haircut,Ben,\"=HYPERLINK(\"\"http://x.example\"\",\"\"x\"\")\",x@example.com\n" +
		"2026-12-12,10:00,Haircut,Ben,Bad Mail,not-an-email\n"
	before := tableCounts(t, d)
	_, err := LoadVendorCSV(ctx, d, "simplybook", []byte(file), testNow, SwitchOptions{})
	got := problemsOf(t, err)
	for _, w := range []string{
		`line 3: cannot read the start "10/12/2026 10:00"`,
		`line 4 (Client Name): the cell =HYPERLINK(`,
	} {
		if !hasProblem(got, w) {
			t.Errorf("got\n  %s\nwant one starting with\n  %s", strings.Join(got, "\n  "), w)
		}
	}
	wantSameCounts(t, tableCounts(t, d), before)
	_, err = LoadVendorCSV(ctx, d, "simplybook", []byte(strings.Join(strings.Split(file, "\n")[:2], "\n")+"\n"+strings.Split(file, "\n")[4]), testNow, SwitchOptions{})
	if got := problemsOf(t, err); !hasProblem(got, `line 3 (email): "not-an-email" is not an email address`) {
		t.Errorf("a new client with a bad email: got %q", got)
	}
	wantSameCounts(t, tableCounts(t, d), before)
}

func outcomes(r SwitchReport) string {
	var got []string
	for _, row := range r.Rows {
		if !row.Create {
			got = append(got, "line "+itoa(int64(row.Line))+": skip: "+row.Reason)
			continue
		}
		s := "line " + itoa(int64(row.Line)) + ": create " + row.Start + " " + row.Service + " " + row.Provider + " " + row.Name
		if row.NewClient {
			s += " (new client)"
		}
		got = append(got, s)
	}
	return strings.Join(got, "\n")
}

// TestImportedAppointmentsMessages: the bookings an appointments file creates are announced to
// nobody — no confirmation to their clients, who had one from the other system, and no notice
// to their providers, though the providers asked for them — but get their reminders, and their
// booking.created events for the integrations. With Notify each client gets its confirmation
// too. A dry run, with or without it, writes nothing. The JSON import before it plans nothing.
func TestImportedAppointmentsMessages(t *testing.T) {
	tests := []struct {
		name   string
		notify bool
		want   string // the messages of the imported bookings, kind and recipient
	}{
		{"by default", false, "reminder to client ×6"},
		{"notify", true, "confirmation to client ×3, reminder to client ×6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			d := openDB(t)
			if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
				t.Fatal(err)
			}
			// A JSON import loads (or restores) a business and messages nobody, though its
			// file holds a booking still ahead (docs/import.md).
			var planned int64
			if err := d.Read.QueryRow(`SELECT count(*) FROM messages`).Scan(&planned); err != nil || planned != 0 {
				t.Errorf("the JSON import planned %d messages (%v), want none", planned, err)
			}
			if _, err := d.Write.Exec(`UPDATE providers SET notify_bookings = 1, email = lower(public_name) || '@studio.example'`); err != nil {
				t.Fatal(err)
			}
			before := tableCounts(t, d)
			if _, err := LoadVendorCSV(ctx, d, "fresha", []byte(freshaAppointments), testNow, SwitchOptions{DryRun: true, Notify: tc.notify}); err != nil {
				t.Fatal(err)
			}
			wantSameCounts(t, tableCounts(t, d), before)
			done, err := LoadVendorCSV(ctx, d, "fresha", []byte(freshaAppointments), testNow, SwitchOptions{Notify: tc.notify})
			if err != nil || done.Created != 3 {
				t.Fatalf("import: created %d, %v; want 3", done.Created, err)
			}
			// Reminders are written a day before they are due: run the horizon past the
			// bookings, a day at a time, as the message dispatcher's claim rounds would.
			for at := testNow; at.Before(time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC)); at = at.Add(24 * time.Hour) {
				if err := d.InTx(ctx, func(q *db.Queries) error { _, err := messages.PlanDueReminders(ctx, q, at); return err }); err != nil {
					t.Fatal(err)
				}
			}
			var got string
			if err := d.Read.QueryRow(`SELECT coalesce(group_concat(what, ', '), '') FROM (
				SELECT m.kind || ' to ' || m.recipient || ' ×' || count(*) AS what FROM messages m JOIN bookings b ON b.id = m.booking_id
				WHERE b.source = 'import' AND m.state = 'pending' GROUP BY m.kind, m.recipient ORDER BY m.kind, m.recipient)`).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("the imported bookings' messages: %q, want %q", got, tc.want)
			}
			var events int64
			if err := d.Read.QueryRow(`SELECT count(*) FROM events WHERE type = 'booking.created'`).Scan(&events); err != nil || events != 3 {
				t.Errorf("booking.created events: %d (%v), want 3", events, err)
			}
		})
	}
}
