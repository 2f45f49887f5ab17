package db

import (
	"context"
	"database/sql"
)

// addReplyMessages lets the messages table hold the answer to a client's reply (docs/messages.md,
// "Replies that act"): kind 'reply', about a received message (inbound_id, added by 00580)
// rather than a booking. Both CHECKs only widen, so, as for migration 130, the stored schema
// text is edited instead of rebuilding the table.
func addReplyMessages(ctx context.Context, tx *sql.Tx) error {
	return editTablesSQL(ctx, tx,
		tableEdit{"messages",
			`        OR kind = 'waitlist_offer')`,
			`        OR kind = 'waitlist_offer' OR kind = 'reply')`},
		tableEdit{"messages",
			`OR provider_id IS NOT NULL OR offer_id IS NOT NULL)`,
			`OR provider_id IS NOT NULL OR offer_id IS NOT NULL OR inbound_id IS NOT NULL)`})
}
