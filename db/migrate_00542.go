package db

import (
	"context"
	"database/sql"
)

// addOfferMessages lets the messages table hold the claim link the waitlist for appointments
// sends (docs/visits.md): kind 'waitlist_offer', about an offer (offer_id, added by 00541)
// rather than a booking. Both CHECKs only widen, so, as for migration 130, the stored schema
// text is edited instead of rebuilding the table.
func addOfferMessages(ctx context.Context, tx *sql.Tx) error {
	return editTablesSQL(ctx, tx,
		tableEdit{"messages",
			`OR kind = 'provider_booked' OR kind = 'provider_moved' OR kind = 'provider_cancelled' OR kind = 'provider_agenda')`,
			`OR kind = 'provider_booked' OR kind = 'provider_moved' OR kind = 'provider_cancelled' OR kind = 'provider_agenda'
        OR kind = 'waitlist_offer')`},
		tableEdit{"messages",
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL)`,
			`CHECK (kind = 'test' OR booking_id IS NOT NULL OR payment_request_id IS NOT NULL OR provider_id IS NOT NULL OR offer_id IS NOT NULL)`})
}
