package resource

import (
	"database/sql"

	"frontdesk/db"
)

// GiftCard is a gift card as /v3 and MCP read it by its code (an addition): its value, what is
// left, and whether it can pay. status is pending (sold, not paid), active, expired or void.
// The buyer's and the recipient's details are not part of it: the code alone is no proof of
// who is asking.
type GiftCard struct {
	ID        int64   `json:"id"`
	Code      string  `json:"code"`
	Status    string  `json:"status"`
	Value     string  `json:"value"`
	Balance   string  `json:"balance"`
	ExpiresAt *string `json:"expires_at"`
	IssuedAt  *string `json:"issued_at"`
	CreatedAt string  `json:"created_at"`
}

// NewGiftCard is card in state (the status as of now: expired once past its expiry), its code
// written as shown.
func NewGiftCard(card db.GiftCard, state, code string) GiftCard {
	return GiftCard{
		ID: card.ID, Code: code, Status: state, Value: Money(card.ValueCents), Balance: Money(card.BalanceCents),
		ExpiresAt: NullTimestamp(card.ExpiresAt), IssuedAt: NullTimestamp(card.IssuedAt), CreatedAt: Timestamp(card.CreatedAt),
	}
}

// Membership is a client's membership (an addition): its plan, its status (pending, active,
// paused, cancelled), who paused it, and the end of the period paid.
type Membership struct {
	ID               int64          `json:"id"`
	ClientID         int64          `json:"client_id"`
	Plan             MembershipPlan `json:"plan"`
	Status           string         `json:"status"`
	PausedBy         *string        `json:"paused_by"`
	CurrentPeriodEnd *string        `json:"current_period_end"`
	CreatedAt        string         `json:"created_at"`
	UpdatedAt        string         `json:"updated_at"`
}

// MembershipPlan is a membership's plan: its monthly price and its discount in percent.
type MembershipPlan struct {
	ID              int64  `json:"id"`
	Name            string `json:"name"`
	Price           string `json:"price"`
	DiscountPercent int64  `json:"discount_percent"`
}

// NewMembership is row as /v3 and MCP show it.
func NewMembership(row db.APIMembershipsRow) Membership {
	return Membership{
		ID: row.ID, ClientID: row.ClientID, Status: row.Status, PausedBy: nullString(row.PausedBy),
		Plan:             MembershipPlan{ID: row.PlanID, Name: row.PlanName, Price: Money(row.PriceCents), DiscountPercent: row.DiscountBp / 100},
		CurrentPeriodEnd: NullTimestamp(row.CurrentPeriodEnd), CreatedAt: Timestamp(row.CreatedAt), UpdatedAt: Timestamp(row.UpdatedAt),
	}
}

func nullString(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}
