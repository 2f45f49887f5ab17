package db

import (
	"context"
	"database/sql"
	"testing"
)

// A database from before migration 360 keeps its messages and the owner's templates, and
// afterwards holds "you got a seat" messages (on by default) while still refusing unknown
// kinds; cancelling a booking skips its planned seat message (the trigger of 361).
func TestSeatMessageKind(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 350)
	seedBookingFixtures(t, conn)
	if err := insertOverlap(ctx, conn); err != nil {
		t.Fatal(err)
	}
	message := func(c *sql.DB, kind string) error {
		_, err := c.ExecContext(ctx, `INSERT INTO messages (message_key, kind, recipient, booking_id, state, send_at, next_attempt_at, created_at, updated_at)
			VALUES ('fd.x', ?, 'client', 1, 'pending', 0, 0, 0, 0)`, kind)
		return err
	}
	if err := message(conn, "confirmation"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO message_templates (kind, language, subject, body, updated_at) VALUES ('confirmation', 'es', 'S', 'B', 0)`); err != nil {
		t.Fatal(err)
	}
	if err := message(conn, "waitlist_seat"); !IsConstraint(err, "CHECK constraint failed") {
		t.Fatalf("before 360, a seat message: got %v, want a CHECK failure", err)
	}
	d := openMigrated(t, conn, path)
	if err := message(d.Write, "waitlist_seat"); err != nil {
		t.Fatalf("after 360, a seat message: %v", err)
	}
	if err := message(d.Write, "newsletter"); !IsConstraint(err, "CHECK constraint failed") {
		t.Errorf("an unknown kind: got %v, want a CHECK failure", err)
	}
	var enabled, kept, templates int
	if err := d.Read.QueryRowContext(ctx, `SELECT (SELECT enabled FROM message_kinds WHERE kind = 'waitlist_seat'),
		(SELECT count(*) FROM messages WHERE kind = 'confirmation'), (SELECT count(*) FROM message_templates)`).Scan(&enabled, &kept, &templates); err != nil {
		t.Fatal(err)
	}
	if enabled != 1 || kept != 1 || templates != 1 {
		t.Errorf("seat kind enabled %d, messages kept %d, templates kept %d; want 1, 1, 1", enabled, kept, templates)
	}
	if _, err := d.Write.ExecContext(ctx, `INSERT INTO message_templates (kind, language, subject, body, updated_at) VALUES ('waitlist_seat', 'es', 'S', 'B', 0)`); err != nil {
		t.Errorf("a seat template: %v", err)
	}
	if _, err := d.Write.ExecContext(ctx, `UPDATE bookings SET status_id = 5, updated_at = 1 WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	var pending int
	if err := d.Read.QueryRowContext(ctx, `SELECT count(*) FROM messages WHERE state = 'pending'`).Scan(&pending); err != nil || pending != 0 {
		t.Errorf("%d messages still planned after the cancel (%v), want none", pending, err)
	}
}
