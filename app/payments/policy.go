package payments

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// The business's cancellation policy with fees, and its deposit rules (card_policy;
// docs/payments.md "Cancellation fees", "Deposits by rule").

// Fee kinds, mirrored by the CHECK on booking_fees.kind.
const (
	FeeNoShow     = "no_show"
	FeeLateCancel = "late_cancel"
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

// DefaultPolicy is the policy before the owner sets one: no card required, a day's notice, no
// fees, no deposit rules.
var DefaultPolicy = Policy{Notice: 24 * time.Hour, ChargeDays: 14, Late: Charge{Kind: AmountNone}, NoShow: Charge{Kind: AmountNone},
	Deposit: DepositRules{AboveCents: -1, Amount: Charge{Kind: AmountPercent}}}

// LoadPolicy reads the business's policy (DefaultPolicy when none is set).
func LoadPolicy(ctx context.Context, q *db.Queries) (Policy, error) {
	row, err := q.GetCardPolicy(ctx)
	if db.IsNotFound(err) {
		return DefaultPolicy, nil
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

// SavePolicy stores p (the caller has validated it: CheckPolicy).
func SavePolicy(ctx context.Context, q *db.Queries, now time.Time, p Policy) error {
	capOf := func(c int64) sql.NullInt64 { return sql.NullInt64{Int64: c, Valid: c > 0} }
	return q.SaveCardPolicy(ctx, db.SaveCardPolicyParams{
		RequireCard: p.RequireCard, NoticeMin: int64(p.Notice / time.Minute),
		LateFeeKind: p.Late.Kind, LateFeeValue: p.Late.Value, LateFeeCapCents: capOf(p.Late.CapCents),
		NoShowFeeKind: p.NoShow.Kind, NoShowFeeValue: p.NoShow.Value, NoShowFeeCapCents: capOf(p.NoShow.CapCents),
		ChargeDays: p.ChargeDays, DepositNewClients: p.Deposit.NewClients, DepositNoShows: p.Deposit.NoShows,
		DepositAboveCents: sql.NullInt64{Int64: p.Deposit.AboveCents, Valid: p.Deposit.AboveCents >= 0},
		DepositKind:       p.Deposit.Amount.Kind, DepositValue: p.Deposit.Amount.Value, UpdatedAt: db.Millis(now),
	})
}

// CheckPolicy says what is wrong with p, by field, as catalog messages.
func CheckPolicy(p Policy) map[string]i18n.Msg {
	out := map[string]i18n.Msg{}
	for field, c := range map[string]Charge{"late_fee": p.Late, "no_show_fee": p.NoShow, "deposit": p.Deposit.Amount} {
		switch {
		case c.Kind != AmountNone && c.Kind != AmountFixed && c.Kind != AmountPercent,
			field == "deposit" && c.Kind == AmountNone:
			out[field] = i18n.M("fees.error.kind")
		case c.Value < 0 || c.CapCents < 0:
			out[field] = i18n.M("fees.error.negative")
		case c.Kind == AmountPercent && c.Value > 10000:
			out[field] = i18n.M("fees.error.percent")
		}
	}
	if p.Notice < 0 {
		out["notice"] = i18n.M("fees.error.negative")
	}
	if p.ChargeDays < 1 || p.ChargeDays > 90 {
		out["charge_days"] = i18n.M("fees.error.charge_days")
	}
	if p.Deposit.NoShows < 0 {
		out["deposit_no_shows"] = i18n.M("fees.error.negative")
	}
	return out
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

// CardServices are the ids of the services that need a card on file to be booked online.
func CardServices(ctx context.Context, q *db.Queries) ([]int64, error) {
	return q.CardServiceIDs(ctx)
}

// SavePolicySettings stores policy p (validated first: CheckPolicy's problems are returned and
// nothing is written) and the services that need a card, in one transaction. A service id
// that names no service is refused as the field "card_services".
func SavePolicySettings(ctx context.Context, d *db.DB, now time.Time, p Policy, cardServices []int64) (map[string]i18n.Msg, error) {
	if problems := CheckPolicy(p); len(problems) > 0 {
		return problems, nil
	}
	var problems map[string]i18n.Msg
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := SavePolicy(ctx, q, now, p); err != nil {
			return err
		}
		if err := q.ClearCardServices(ctx); err != nil {
			return err
		}
		for _, id := range cardServices {
			if _, err := q.GetService(ctx, id); db.IsNotFound(err) {
				problems = map[string]i18n.Msg{"card_services": i18n.M("fees.error.service")}
				return errRollback
			} else if err != nil {
				return err
			}
			if err := q.SetServiceNeedsCard(ctx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errRollback) {
		return problems, nil
	}
	return nil, err
}
