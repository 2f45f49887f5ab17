package messages

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"frontdesk/db"
)

// The gift card email and the membership messages (docs/payments.md "Gift cards",
// "Memberships"). They are about a gift card or a membership rather than a booking
// (messages.gift_card_id, messages.membership_id), go by email, and are always sent — the buyer
// asked for the card to be emailed; a member is told what happened to what they pay for — so
// they are not among the types the owner switches (Kinds). Each is written inside the
// transaction of the change it reports, so it is written exactly as often as the change
// happens: once.
const (
	// GiftCard sends a gift card, when it is issued (paid), to its buyer or to the person it is
	// for, with its code and its printable page.
	GiftCard Kind = "gift_card"
	// A membership's steps: started (the first payment), renewed (a period paid, its sessions
	// credited), failed (a renewal's payment failed: paused), paused, resumed, cancelled.
	MembershipStarted   Kind = "membership_started"
	MembershipRenewed   Kind = "membership_renewed"
	MembershipFailed    Kind = "membership_failed"
	MembershipPaused    Kind = "membership_paused"
	MembershipResumed   Kind = "membership_resumed"
	MembershipCancelled Kind = "membership_cancelled"
)

// MoneyKinds are the gift card and membership messages, in the order the log's filter lists
// them.
var MoneyKinds = []Kind{GiftCard, MembershipStarted, MembershipRenewed, MembershipFailed, MembershipPaused, MembershipResumed, MembershipCancelled}

// GiftCardPath is the printable page of the gift card whose code is code.
func GiftCardPath(code string) string { return "/gift/" + code }

// MembershipPath is a membership's page, where its client manages or cancels it.
func MembershipPath(uuid string) string { return "/membership/" + uuid }

// GiftCardIssued writes the email of gift card cardID, inside the transaction that issued it.
func GiftCardIssued(ctx context.Context, q *db.Queries, now time.Time, cardID int64) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	return q.InsertGiftCardMessage(ctx, db.InsertGiftCardMessageParams{
		MessageKey: key, SendAt: ms, NextAttemptAt: sql.NullInt64{Int64: ms, Valid: true}, CreatedAt: ms, UpdatedAt: ms,
		GiftCardID: sql.NullInt64{Int64: cardID, Valid: true},
	})
}

// MembershipChanged writes membership membershipID's message of kind, inside the transaction of
// the step it reports. periodEnd is the end of the period a start or a renewal paid (zero when
// not known yet: the message then says the membership's current one).
func MembershipChanged(ctx context.Context, q *db.Queries, now time.Time, membershipID int64, kind Kind, periodEnd time.Time) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	var d detail
	if !periodEnd.IsZero() {
		d.PeriodEnd = db.Millis(periodEnd)
	}
	dj, err := json.Marshal(d)
	if err != nil {
		return err
	}
	ms := db.Millis(now)
	return q.InsertMembershipMessage(ctx, db.InsertMembershipMessageParams{
		MessageKey: key, Kind: string(kind), DetailJson: string(dj), SendAt: ms,
		NextAttemptAt: sql.NullInt64{Int64: ms, Valid: true}, CreatedAt: ms, UpdatedAt: ms,
		MembershipID: sql.NullInt64{Int64: membershipID, Valid: true},
	})
}

// giftCardFacts reads what the gift card email says, and to whom it goes: the person it is for,
// or its buyer, as chosen when it was bought. A card voided before the email went is not sent.
func (s *Service) giftCardFacts(ctx context.Context, q *db.Queries, m db.Message) (f facts, to mail.Address, skip string, err error) {
	c, err := q.MessageGiftCard(ctx, m.GiftCardID.Int64)
	if db.IsNotFound(err) {
		return f, to, "gift card deleted", nil
	} else if err != nil {
		return f, to, "", fmt.Errorf("message gift card %d: %w", m.GiftCardID.Int64, err)
	}
	if c.Status != "active" {
		return f, to, "the gift card is " + c.Status, nil
	}
	name, email := c.BuyerName, c.BuyerEmail
	if c.SendTo == "recipient" {
		name, email = c.RecipientName, c.RecipientEmail
	}
	first, last, _ := strings.Cut(strings.TrimSpace(name), " ")
	f.ClientFirst, f.ClientLast = first, last
	f.HasPayment, f.AmountCents = true, c.ValueCents
	if c.ExpiresAt.Valid {
		f.ExpiresAt = db.Time(c.ExpiresAt.Int64)
	}
	f.GiftCode, f.GiftFrom, f.GiftMessage = formatGiftCode(c.Code), c.BuyerName, c.Message
	if s.links != nil {
		f.GiftLink = s.links.URL(GiftCardPath(c.Code), nil)
	}
	if f.Zone, err = businessZone(ctx, q); err != nil {
		return f, to, "", err
	}
	f.preferred = ChannelEmail
	return f, mail.Address{Name: OneLine(name), Address: email}, "", nil
}

// membershipFacts reads what a membership message says: the plan, the period paid, the link to
// the membership's page (where the client manages or cancels it, through the provider's page).
func (s *Service) membershipFacts(ctx context.Context, q *db.Queries, m db.Message) (f facts, to mail.Address, skip string, err error) {
	r, err := q.MessageMembership(ctx, m.MembershipID.Int64)
	if db.IsNotFound(err) {
		return f, to, "membership deleted", nil
	} else if err != nil {
		return f, to, "", fmt.Errorf("message membership %d: %w", m.MembershipID.Int64, err)
	}
	f.ClientFirst, f.ClientLast, f.clientID = r.FirstName, r.LastName, r.ClientID
	f.HasPayment, f.AmountCents = true, r.PriceCents
	f.Plan = r.PlanName
	if d := detailOf(m.DetailJson); d.PeriodEnd != 0 {
		f.PeriodEnd = db.Time(d.PeriodEnd)
	} else if r.CurrentPeriodEnd.Valid {
		f.PeriodEnd = db.Time(r.CurrentPeriodEnd.Int64)
	}
	if s.links != nil {
		f.MembershipLink = s.links.URL(MembershipPath(r.UUID), nil)
	}
	if f.Zone, err = businessZone(ctx, q); err != nil {
		return f, to, "", err
	}
	f.preferred = ChannelEmail
	return f, mail.Address{Name: OneLine(r.FirstName + " " + r.LastName), Address: r.Email}, "", nil
}

// businessZone is the business's zone, in which a card's expiry and a period's end are written.
func businessZone(ctx context.Context, q *db.Queries) (*time.Location, error) {
	tz, err := q.BusinessTimezone(ctx)
	if db.IsNotFound(err) {
		return time.UTC, nil
	} else if err != nil {
		return nil, err
	}
	if z, err := time.LoadLocation(tz); err == nil {
		return z, nil
	}
	return time.UTC, nil
}

// formatGiftCode writes a stored gift card code in groups of four, as the card shows it.
func formatGiftCode(code string) string {
	var b strings.Builder
	for i, r := range code {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return b.String()
}
