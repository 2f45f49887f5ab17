package payments

import (
	"context"
	"time"

	"frontdesk/app/fail"
	"frontdesk/db"
)

// Deposit overrides of a client, mirrored by the CHECK on client_deposit_overrides.mode.
const (
	DepositByRule = ""       // the rules decide
	DepositAlways = "always" // every booking of theirs on the site asks a deposit
	DepositNever  = "never"  // none ever does
)

// ClientHistory is what the deposit rules know of a client: their earlier bookings (not
// cancelled) and how many of them were no-shows.
type ClientHistory struct {
	Bookings, NoShows int64
}

// DepositFor is the deposit the rules ask of a booking priced price, in hundredths (0: none):
// the client's override first (always, never), then a new client, a client with too many
// no-shows, a service priced above the threshold — any one of them suffices.
func DepositFor(r DepositRules, override string, h ClientHistory, price int64) int64 {
	switch override {
	case DepositNever:
		return 0
	case DepositAlways:
		return r.Amount.For(price)
	}
	if r.NewClients && h.Bookings == 0 ||
		r.NoShows > 0 && h.NoShows >= r.NoShows ||
		r.AboveCents >= 0 && price > r.AboveCents {
		return r.Amount.For(price)
	}
	return 0
}

// RuleDeposit is the deposit the business's rules ask of client's booking of a service priced
// price, inside transaction q: 0 when online payments are off (no deposit can be taken).
func RuleDeposit(ctx context.Context, q *db.Queries, clientID int64, price int64) (int64, error) {
	settings, err := q.CartPaymentSettings(ctx)
	if db.IsNotFound(err) || err == nil && !settings.OnlinePayments {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	if s, err := q.GetPaymentProviderSettings(ctx); db.IsNotFound(err) || err == nil && s.Provider == ProviderNone {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	pol, err := LoadPolicy(ctx, q)
	if err != nil {
		return 0, err
	}
	override, err := DepositOverride(ctx, q, clientID)
	if err != nil {
		return 0, err
	}
	h, err := q.ClientBookingHistory(ctx, db.ClientBookingHistoryParams{ClientID: clientID, BookingID: 0})
	if err != nil {
		return 0, err
	}
	return DepositFor(pol.Deposit, override, ClientHistory{Bookings: h.Bookings, NoShows: toInt64(h.NoShows)}, price), nil
}

// DepositOverride is client's override (DepositByRule when none).
func DepositOverride(ctx context.Context, q *db.Queries, clientID int64) (string, error) {
	rows, err := q.ClientDepositOverride(ctx, clientID)
	if err != nil || len(rows) == 0 {
		return DepositByRule, err
	}
	return rows[0], nil
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

// ErrDepositMode: a deposit override that is none of DepositByRule, DepositAlways, DepositNever.
var ErrDepositMode = fail.Invalid("deposit_mode", "must be empty (the rules decide), %s or %s", DepositAlways, DepositNever)

// SetDepositOverride sets client id's override of the deposit rules: DepositAlways,
// DepositNever, or DepositByRule (the override removed).
//
// Errors: ErrDepositMode; fail not_found (client).
func SetDepositOverride(ctx context.Context, d *db.DB, now time.Time, clientID int64, mode string) error {
	if mode != DepositByRule && mode != DepositAlways && mode != DepositNever {
		return ErrDepositMode
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetClient(ctx, clientID); db.IsNotFound(err) {
			return fail.NotFound("client")
		} else if err != nil {
			return err
		}
		if mode == DepositByRule {
			return q.DeleteClientDepositOverride(ctx, clientID)
		}
		return q.SetClientDepositOverride(ctx, db.SetClientDepositOverrideParams{ClientID: clientID, Mode: mode, UpdatedAt: db.Millis(now)})
	})
}
