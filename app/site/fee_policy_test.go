package site_test

import (
	"strings"
	"testing"
	"time"
)

// The cancellation policy with fees is stated before the client agrees: on the details step
// (before booking) and on the manage page (before cancelling), with the fees for the service's
// price in the business's currency; without fees, nothing is said.
func TestFeePolicyStatedBeforeAgreeing(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	if strings.Contains(f.get(detailsPath(haircut, f.ana, at)).body, `data-testid="fee-policy"`) {
		t.Error("the details step states a policy without fees")
	}
	f.exec(`INSERT INTO card_policy (id, notice_min, late_fee_kind, late_fee_value, no_show_fee_kind, no_show_fee_value, no_show_fee_cap_cents, updated_at)
		VALUES (1, 2880, 'amount', 500000, 'percent', 10000, 1000000, 0)`)
	want := []string{`data-testid="fee-policy"`, "Cancelling less than 48 hours before the appointment costs $5,000.",
		"Not coming without cancelling costs $10,000."}
	wantBody(t, f.get(detailsPath(haircut, f.ana, at)), want...)
	wantBody(t, f.get(f.bookAt(at)), want...)
}
