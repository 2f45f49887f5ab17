package booking

import (
	"context"
	"database/sql"
	"testing"

	"frontdesk/db"
)

// A new booking's trail entry is drafted before its write transaction; the writer uses the
// draft only for the very row it drafted, and writes the same entry either way.
func TestDraftedTrailOnlyForItsRow(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	v, err := Create(ctx, d, storeNow, haircut(1, santiago(t, "2026-11-24 10:00")))
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.R.GetBookingRow(ctx, v.Booking.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := d.Read.QueryRow(`SELECT changes FROM activity WHERE entity = 'booking' AND entity_id = ?`, b.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	row := b
	row.ID = 0
	draft, err := draftCreated(row)
	if err != nil {
		t.Fatal(err)
	}
	if string(draft.changes) != stored {
		t.Errorf("drafted changes\n %s\nstored\n %s", draft.changes, stored)
	}

	// written records b's entry under a made-up id and reads it back.
	written := func(b db.Booking, id int64, draft drafted) string {
		t.Helper()
		b.ID = id
		if err := d.InTx(ctx, func(q *db.Queries) error { return recordCreated(ctx, q, storeNow, b, draft) }); err != nil {
			t.Fatal(err)
		}
		var changes string
		if err := d.Read.QueryRow(`SELECT changes FROM activity WHERE entity = 'booking' AND entity_id = ?`, id).Scan(&changes); err != nil {
			t.Fatal(err)
		}
		return changes
	}
	marked := drafted{row: row, changes: []byte(`{"drafted":true}`)}
	if got := written(b, 9001, marked); got != `{"drafted":true}` {
		t.Errorf("the drafted row: wrote %s, want the draft", got)
	}
	withPack := b
	withPack.PackID = sql.NullInt64{Int64: 7, Valid: true}
	if got := written(withPack, 9002, marked); got == `{"drafted":true}` {
		t.Errorf("a row the draft does not describe (a pack chosen in the transaction) wrote the draft")
	}
}
