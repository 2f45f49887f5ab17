package db

import (
	"context"
	"database/sql"
)

// addSeatMessageKind lets the message tables hold the "you got a seat" email a waitlist
// promotion sends (docs/classes.md, docs/messages.md): kind 'waitlist_seat'. Both CHECKs only
// widen, so, as for migration 130, the stored schema text is edited instead of rebuilding
// message_kinds (referenced by message_templates) and messages. 00361 then adds the kind's row
// and lets the cancel trigger skip it too.
func addSeatMessageKind(ctx context.Context, tx *sql.Tx) error {
	if err := editTableSQL(ctx, tx, "message_kinds",
		`'payment_request', 'receipt'))`,
		`'payment_request', 'receipt', 'waitlist_seat'))`); err != nil {
		return err
	}
	return editTableSQL(ctx, tx, "messages",
		`OR kind = 'receipt' OR kind = 'test')`,
		`OR kind = 'receipt' OR kind = 'test' OR kind = 'waitlist_seat')`)
}
