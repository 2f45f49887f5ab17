package payments

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"frontdesk/app/feepolicy"
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

// The policy's types are app/feepolicy's (which app/messages reads too, to state the policy in
// a confirmation); they are named here as well so callers speak of payments' policy.
type (
	Charge       = feepolicy.Charge
	Policy       = feepolicy.Policy
	DepositRules = feepolicy.DepositRules
)

// How a fee or a deposit is set (feepolicy's).
const (
	AmountNone    = feepolicy.AmountNone
	AmountFixed   = feepolicy.AmountFixed
	AmountPercent = feepolicy.AmountPercent
)

// DefaultPolicy is the policy before the owner sets one (feepolicy.Default).
var DefaultPolicy = feepolicy.Default

// LoadPolicy reads the business's policy (DefaultPolicy when none is set).
func LoadPolicy(ctx context.Context, q *db.Queries) (Policy, error) { return feepolicy.Load(ctx, q) }

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
