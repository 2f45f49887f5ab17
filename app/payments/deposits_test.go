package payments

import (
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// The deposit rules: the client's override first, then any one rule — a new client, too many
// no-shows, a service above the price — asks the deposit; an amount is at most the price, a
// percentage is rounded half up.
func TestDepositRules(t *testing.T) {
	pct := Charge{Kind: AmountPercent, Value: 2500} // 25 %
	fixed := Charge{Kind: AmountFixed, Value: 1000000}
	off := DepositRules{AboveCents: -1, Amount: pct}
	newClients := DepositRules{NewClients: true, AboveCents: -1, Amount: pct}
	noShows := DepositRules{NoShows: 2, AboveCents: -1, Amount: pct}
	above := DepositRules{AboveCents: 3000000, Amount: fixed}
	all := DepositRules{NewClients: true, NoShows: 1, AboveCents: 3000000, Amount: pct}
	regular := ClientHistory{Bookings: 5}
	tests := []struct {
		name     string
		rules    DepositRules
		override string
		history  ClientHistory
		price    int64
		want     int64
	}{
		{"no rule", off, DepositByRule, ClientHistory{}, 1500000, 0},
		{"new client", newClients, DepositByRule, ClientHistory{}, 1500000, 375000},
		{"returning client", newClients, DepositByRule, regular, 1500000, 0},
		{"no-shows below the threshold", noShows, DepositByRule, ClientHistory{Bookings: 5, NoShows: 1}, 1500000, 0},
		{"no-shows at the threshold", noShows, DepositByRule, ClientHistory{Bookings: 5, NoShows: 2}, 1500000, 375000},
		{"no-shows rule off (0)", DepositRules{AboveCents: -1, Amount: pct}, DepositByRule, ClientHistory{Bookings: 9, NoShows: 9}, 1500000, 0},
		{"price at the threshold", above, DepositByRule, regular, 3000000, 0},
		{"price above the threshold", above, DepositByRule, regular, 4500000, 1000000},
		{"a fixed deposit is at most the price", DepositRules{AboveCents: 0, Amount: fixed}, DepositByRule, regular, 500000, 500000},
		{"threshold 0 asks of every priced service", DepositRules{AboveCents: 0, Amount: pct}, DepositByRule, regular, 1000, 250},
		{"any one rule", all, DepositByRule, ClientHistory{Bookings: 3, NoShows: 1}, 1000000, 250000},
		{"override never beats every rule", all, DepositNever, ClientHistory{}, 4500000, 0},
		{"override always without a rule", off, DepositAlways, regular, 1500000, 375000},
		{"percentage rounds half up", newClients, DepositByRule, ClientHistory{}, 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DepositFor(tc.rules, tc.override, tc.history, tc.price); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// A fee is an amount (at most the price) or a percentage of the price, either capped.
func TestChargeFor(t *testing.T) {
	tests := []struct {
		c     Charge
		price int64
		want  int64
	}{
		{Charge{Kind: AmountNone, Value: 500}, 1000, 0},
		{Charge{Kind: AmountFixed, Value: 500}, 1000, 500},
		{Charge{Kind: AmountFixed, Value: 5000}, 1000, 1000},
		{Charge{Kind: AmountPercent, Value: 5000}, 1500000, 750000},
		{Charge{Kind: AmountPercent, Value: 5000, CapCents: 500000}, 1500000, 500000},
		{Charge{Kind: AmountFixed, Value: 900, CapCents: 700}, 1000, 700},
	}
	for _, tc := range tests {
		if got := tc.c.For(tc.price); got != tc.want {
			t.Errorf("%+v of %d: got %d, want %d", tc.c, tc.price, got, tc.want)
		}
	}
}

// FeeDue: a no-show fee only for a no-show, a late-cancel fee only for a cancel by the client
// inside the notice, neither after the days to charge.
func TestFeeDue(t *testing.T) {
	start := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	p := Policy{Notice: 24 * time.Hour, ChargeDays: 14, Late: Charge{Kind: AmountFixed, Value: 300}, NoShow: Charge{Kind: AmountPercent, Value: 10000}}
	b := func(status int64, by string, cancelled time.Time) db.Booking {
		row := db.Booking{StatusID: status, StartAt: db.Millis(start), PriceCents: 1000}
		if by != "" {
			row.CancelledBy.String, row.CancelledBy.Valid = by, true
			row.CancelledAt.Int64, row.CancelledAt.Valid = db.Millis(cancelled), true
		}
		return row
	}
	after := start.Add(time.Hour)
	tests := []struct {
		name string
		b    db.Booking
		kind string
		now  time.Time
		want int64
		err  error
	}{
		{"no-show", b(booking.StatusNoShow, "", time.Time{}), FeeNoShow, after, 1000, nil},
		{"attended", b(booking.StatusAttended, "", time.Time{}), FeeNoShow, after, 0, ErrFeeNotDue},
		{"confirmed", b(booking.StatusConfirmed, "", time.Time{}), FeeNoShow, after, 0, ErrFeeNotDue},
		{"no-show after the days to charge", b(booking.StatusNoShow, "", time.Time{}), FeeNoShow, start.AddDate(0, 0, 15), 0, ErrFeeOutsidePolicy},
		{"late cancel by the client", b(booking.StatusCancelled, "client", start.Add(-2*time.Hour)), FeeLateCancel, after, 300, nil},
		{"cancel with the notice", b(booking.StatusCancelled, "client", start.Add(-24*time.Hour)), FeeLateCancel, after, 0, ErrFeeNotDue},
		{"late cancel by the business", b(booking.StatusCancelled, "business", start.Add(-time.Hour)), FeeLateCancel, after, 0, ErrFeeNotDue},
		{"no-show fee of a cancel", b(booking.StatusCancelled, "client", start.Add(-time.Hour)), FeeNoShow, after, 0, ErrFeeNotDue},
		{"no fee set", b(booking.StatusNoShow, "", time.Time{}), FeeLateCancel, after, 0, ErrFeeNotDue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FeeDue(p, tc.b, tc.kind, tc.now)
			if got != tc.want || err != tc.err {
				t.Errorf("got %d %v, want %d %v", got, err, tc.want, tc.err)
			}
		})
	}
	if _, err := FeeDue(Policy{ChargeDays: 14}, b(booking.StatusNoShow, "", time.Time{}), FeeNoShow, after); err != ErrFeeOutsidePolicy {
		t.Errorf("a policy without a no-show fee: got %v, want fee_outside_policy", err)
	}
}
