package db

import (
	"context"
	"database/sql"
)

// addProviderMessages lets the messages table hold emails to providers (docs/messages.md,
// "Messages to providers"): the kinds provider_booked, provider_moved, provider_cancelled and
// provider_agenda, the recipient 'provider', and a message about a provider (the daily agenda)
// rather than a booking or a payment request. Every CHECK only widens, so, as for migration
// 130, the stored schema text is edited instead of rebuilding the table.
func addProviderMessages(ctx context.Context, tx *sql.Tx) error {
	return editTablesSQL(ctx, tx,
		tableEdit{"messages",
			`OR kind = 'test' OR kind = 'waitlist_seat')`,
			`OR kind = 'test' OR kind = 'waitlist_seat'
        OR kind = 'provider_booked' OR kind = 'provider_moved' OR kind = 'provider_cancelled' OR kind = 'provider_agenda')`},
		tableEdit{"messages",
			`recipient = 'client' OR recipient = 'owner' OR recipient = 'address')`,
			`recipient = 'client' OR recipient = 'owner' OR recipient = 'address' OR recipient = 'provider')`},
		tableEdit{"messages",
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL)`,
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL)`})
}
