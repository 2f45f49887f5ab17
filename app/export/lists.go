package export

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// Kinds are the lists that can be exported, in the order docs/data.md describes them.
var Kinds = []string{"bookings", "clients", "sales", "payments", "messages", "deliveries"}

// Filter narrows a list. Bookings take the bookings list's own filter (their From and To are
// local dates of each booking's location); the other lists take From and To as dates in the
// business's zone, of when the row was created. ClientStatus is the clients list's "active",
// "inactive" or "all" ("" is active, as on the page) and ClientSearch its search text (a
// client whose name, email, phone, identification or record number holds it); PaymentStatus is the payments list's
// status ("" any).
type Filter struct {
	Bookings      booking.Filter
	From, To      *booking.Date
	ClientStatus  string
	ClientSearch  string
	PaymentStatus string
	// The message log's state, kind and search (part of an address, or a Message-ID's left part).
	MessageState, MessageKind, MessageSearch string
	// The webhook delivery log's endpoint (0: every endpoint), state, event type and event id.
	WebhookID                                  int64
	DeliveryState, DeliveryType, DeliveryEvent string
}

// list is one export: its header (given the zone's name) and its rows.
type list struct {
	header func(zone string) []string
	query  func(ctx context.Context, d *db.DB, f Filter, zone *time.Location) (string, []any, error)
	// row turns one row's values into cells.
	row func(w *Writer, zone *time.Location, v []sql.NullString) []string
	// columns is how many values a row scans.
	columns int
}

// Write writes the list named kind to w, header first, reading it row by row in one read
// transaction: the file is one snapshot of the database, and memory does not grow with it.
func Write(ctx context.Context, d *db.DB, kind string, f Filter, w *Writer) error {
	l, ok := lists[kind]
	if !ok {
		return fmt.Errorf("unknown list %q (want one of %v)", kind, Kinds)
	}
	zone, err := BusinessZone(ctx, d)
	if err != nil {
		return err
	}
	tx, err := d.Read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback() // nothing to commit: the export only reads
	return writeList(ctx, d, tx, kind, l, f, zone, w)
}

// writeList writes one list from tx.
func writeList(ctx context.Context, d *db.DB, tx *sql.Tx, kind string, l list, f Filter, zone *time.Location, w *Writer) error {
	text, args, err := l.query(ctx, d, f, zone)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, text, args...)
	if err != nil {
		return fmt.Errorf("read %s: %w", kind, err)
	}
	defer rows.Close()
	if err := w.Write(l.header(zone.String())); err != nil {
		return err
	}
	values := make([]sql.NullString, l.columns)
	scan := make([]any, l.columns)
	for i := range values {
		scan[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(scan...); err != nil {
			return fmt.Errorf("read %s: %w", kind, err)
		}
		if err := w.Write(l.row(w, zone, values)); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %s: %w", kind, err)
	}
	return w.Flush()
}

// BusinessZone is the zone of the business's times: its first active location's, as on the
// admin pages; UTC before there is one.
func BusinessZone(ctx context.Context, d *db.DB) (*time.Location, error) {
	locs, err := d.R.AdminBookingLocations(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range locs {
		if z, err := booking.LoadZone(l.Timezone); err == nil && l.Active {
			return z, nil
		}
	}
	return time.UTC, nil
}
