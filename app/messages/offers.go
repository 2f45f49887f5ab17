package messages

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/mail"
	"time"

	"frontdesk/db"
)

// WaitlistOffer tells a client on the waitlist for appointments that a time they asked for has
// opened, with their personal claim link (docs/visits.md). It is about an offer, not a booking:
// there is none until the client claims it. It is always sent (the client asked to be told),
// so it is not among the types the owner switches.
const WaitlistOffer Kind = "waitlist_offer"

// ClaimPath is the booking site's page for a claim link's token.
func ClaimPath(token string) string { return "/book/claim/" + token }

// OfferMade writes the claim-link message of offer offerID to its client, inside the
// transaction that made the offer (app/booking, when a cancel or a move freed a time). The
// token is the link's secret: the offer keeps only its digest, the message keeps the token to
// write the link when it is sent.
func OfferMade(ctx context.Context, q *db.Queries, now time.Time, offerID, clientID int64, token string) error {
	p, err := loadPlan(ctx, q)
	if err != nil {
		return err
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, clientID: clientID}
	channel, err := w.clientChannel()
	if err != nil {
		return err
	}
	key, err := newKey()
	if err != nil {
		return err
	}
	dj, err := json.Marshal(detail{Token: token})
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	return q.InsertOfferMessage(ctx, db.InsertOfferMessageParams{
		MessageKey: key, Channel: channel, DetailJson: string(dj), SendAt: ms,
		NextAttemptAt: sql.NullInt64{Int64: ms, Valid: true}, CreatedAt: ms, UpdatedAt: ms,
		OfferID: sql.NullInt64{Int64: offerID, Valid: true},
	})
}

// offerFacts reads what a claim-link message says, or why it must not go: the offer was
// claimed, is gone or expired.
func (s *Service) offerFacts(ctx context.Context, q *db.Queries, m db.Message, now time.Time) (f facts, to mail.Address, skip string, err error) {
	o, err := q.MessageOffer(ctx, m.OfferID.Int64)
	if db.IsNotFound(err) {
		return f, to, "offer deleted", nil
	}
	if err != nil {
		return f, to, "", fmt.Errorf("message offer %d: %w", m.OfferID.Int64, err)
	}
	switch {
	case o.Status != "open":
		return f, to, "the time offered is no longer free", nil
	case o.ExpiresAt <= db.Millis(now):
		return f, to, "the offer expired", nil
	}
	zone, zerr := time.LoadLocation(o.Timezone)
	if zerr != nil {
		zone = time.UTC
	}
	f.appointment = appointment{
		ClientFirst: o.FirstName, ClientLast: o.LastName, Service: o.ServiceName, Provider: o.ProviderName,
		Location: o.LocationName, Zone: zone, Start: db.Time(o.StartAt), End: db.Time(o.EndAt), HasAppointment: true,
	}
	if token := detailOf(m.DetailJson).Token; token != "" && s.links != nil {
		f.ClaimLink = s.links.URL(ClaimPath(token), nil)
	}
	f.clientID, f.phone, f.preferred = o.ClientID, o.Phone, o.Channel
	to = mail.Address{Name: OneLine(o.FirstName + " " + o.LastName), Address: o.Email}
	return f, to, "", nil
}
