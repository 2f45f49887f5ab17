package db

import (
	"context"
	"database/sql"
)

// addMoneyMessages lets the messages table hold the gift card email and the membership
// messages (docs/payments.md): their kinds, about a gift card or a membership (the columns
// added by 00630) rather than a booking. Both CHECKs only widen, so, as for migration 130, the
// stored schema text is edited instead of rebuilding the table: its indexes and triggers stay
// as they are.
func addMoneyMessages(ctx context.Context, tx *sql.Tx) error {
	return editTablesSQL(ctx, tx,
		tableEdit{"messages",
			`
        OR kind = 'waitlist_offer' OR kind = 'reply')`,
			`
        OR kind = 'waitlist_offer' OR kind = 'reply' OR kind = 'gift_card' OR kind = 'membership_started' OR kind = 'membership_renewed'
        OR kind = 'membership_failed' OR kind = 'membership_paused' OR kind = 'membership_resumed' OR kind = 'membership_cancelled')`},
		tableEdit{"messages",
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL OR offer_id IS NOT NULL OR inbound_id IS NOT NULL)`,
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL OR offer_id IS NOT NULL OR inbound_id IS NOT NULL
        OR gift_card_id IS NOT NULL OR membership_id IS NOT NULL)`})
}
