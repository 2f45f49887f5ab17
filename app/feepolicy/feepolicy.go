// Package feepolicy is the business's cancellation policy with fees and its deposit rules (the
// card_policy row; docs/payments.md "Cancellation policy and fees", "Deposits by rule"): how
// much a fee or a deposit is for a booking's price, and the policy as the client reads it before
// agreeing — on the booking site, in the confirmation message and on the manage page. Charging
// and saving are app/payments'.
package feepolicy

import (
	"context"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// How a fee or a deposit is set, mirrored by the CHECKs on card_policy.
const (
	AmountNone    = "none"
	AmountFixed   = "amount"  // Value is hundredths of the currency unit
	AmountPercent = "percent" // Value is basis points of the booking's price (10000 = 100 %)
)

// Charge is one fee or deposit as the owner set it: none, an amount, or a percentage of the
// price capped at CapCents (0: no cap).
type Charge struct {
	Kind     string
	Value    int64
	CapCents int64
}

// For is the charge on a booking priced price: an amount at most the price (a fee is never
// more than the appointment), a percentage rounded half up, either at most the cap.
func (c Charge) For(price int64) int64 {
	var out int64
	switch c.Kind {
	case AmountFixed:
		out = c.Value
	case AmountPercent:
		out = (price*c.Value + 5000) / 10000
	default:
		return 0
	}
	out = min(out, price)
	if c.CapCents > 0 {
		out = min(out, c.CapCents)
	}
	return max(out, 0)
}

// Policy is the business's card, fee and deposit settings.
type Policy struct {
	RequireCard bool
	// Notice is how long before the start a client may cancel without the late-cancel fee.
	Notice time.Duration
	Late   Charge
	NoShow Charge
	// ChargeDays is how long after the appointment a fee may still be charged.
	ChargeDays int64
	Deposit    DepositRules
}

// DepositRules ask a deposit of a booking whose service does not: for a new client, for a
// client with at least NoShows past no-shows (0: off), for a service priced above AboveCents
// (-1: off). Amount is how much (a fixed amount or a percentage of the price).
type DepositRules struct {
	NewClients bool
	NoShows    int64
	AboveCents int64
	Amount     Charge
}

// Default is the policy before the owner sets one: no card required, a day's notice, no
// fees, no deposit rules.
var Default = Policy{Notice: 24 * time.Hour, ChargeDays: 14, Late: Charge{Kind: AmountNone}, NoShow: Charge{Kind: AmountNone},
	Deposit: DepositRules{AboveCents: -1, Amount: Charge{Kind: AmountPercent}}}

// Load reads the business's policy (Default when none is set).
func Load(ctx context.Context, q *db.Queries) (Policy, error) {
	row, err := q.GetCardPolicy(ctx)
	if db.IsNotFound(err) {
		return Default, nil
	} else if err != nil {
		return Policy{}, err
	}
	p := Policy{
		RequireCard: row.RequireCard, Notice: time.Duration(row.NoticeMin) * time.Minute, ChargeDays: row.ChargeDays,
		Late:   Charge{Kind: row.LateFeeKind, Value: row.LateFeeValue, CapCents: row.LateFeeCapCents.Int64},
		NoShow: Charge{Kind: row.NoShowFeeKind, Value: row.NoShowFeeValue, CapCents: row.NoShowFeeCapCents.Int64},
		Deposit: DepositRules{NewClients: row.DepositNewClients, NoShows: row.DepositNoShows, AboveCents: -1,
			Amount: Charge{Kind: row.DepositKind, Value: row.DepositValue}},
	}
	if row.DepositAboveCents.Valid {
		p.Deposit.AboveCents = row.DepositAboveCents.Int64
	}
	return p, nil
}

// HasFees reports whether the policy charges any fee.
func (p Policy) HasFees() bool { return p.Late.Kind != AmountNone || p.NoShow.Kind != AmountNone }

// Statement is the policy as the client reads it before agreeing — on the booking site, in the
// confirmation and on the manage page — for a booking priced price, money printed by pr. It is
// empty when the policy charges no fee.
func (p Policy) Statement(pr *i18n.Printer, price int64) []string {
	if !p.HasFees() {
		return nil
	}
	var out []string
	hours := int64(p.Notice / time.Hour)
	if fee := p.Late.For(price); fee > 0 {
		out = append(out, pr.T("fees.statement.late", "hours", hours, "amount", pr.Money(fee)))
	} else {
		out = append(out, pr.T("fees.statement.free_cancel", "hours", hours))
	}
	if fee := p.NoShow.For(price); fee > 0 {
		out = append(out, pr.T("fees.statement.no_show", "amount", pr.Money(fee)))
	}
	out = append(out, pr.T("fees.statement.card", "days", p.ChargeDays))
	return out
}
