package admin_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/staff"
	"frontdesk/ui"
)

// Settings → Payments refused (Stripe without its webhook secret) leaves no entry, a save is
// one settings.payments entry by the account that saved it with neither key in the table; a
// flagged payment resolved by hand is one payment_flag.resolved entry by the owner about the
// flag, resolving it again records nothing, and a provider (who may not) leaves none.
func TestPaymentSettingsAndFlagsInTrail(t *testing.T) {
	ts, fake := onlineServer(t)
	owner := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	d := w.d
	me := ownerID(t, d, ownerEmail)
	since := lastEntryID(t, d)

	wantStatus(t, owner.post(t, "/settings/payments", url.Values{"provider": {"stripe"}, "stripe_secret_key": {stripeKey}}), http.StatusUnprocessableEntity)
	if n := len(entriesOf(t, d, since, "settings.updated")); n != 0 {
		t.Fatalf("refused payment settings left %d entries", n)
	}
	enableStripe(t, owner)
	e := wantEntry(t, d, since, "settings.updated", me, ownerEmail, "settings.payments", `"stripe.secret_key":[null,"[hidden]"]`)
	if all := allTrail(t, d); strings.Contains(all, stripeKey) || strings.Contains(all, stripeSecret) || strings.Contains(all, "sk_test_") {
		t.Errorf("the trail holds a payment secret: %s", e.Changes)
	}

	pr := w.request(t, "10:00")
	customer := ts.newClient(t)
	customer.post(t, "/pay/"+pr.UUID+"/checkout", nil)
	var sessionID string
	d.Read.QueryRow(`SELECT session_id FROM online_checkouts WHERE payment_request_id = ?`, pr.ID).Scan(&sessionID)
	fake.Update(sessionID, func(s map[string]any) { s["status"], s["payment_status"], s["amount_total"] = "complete", "paid", 100 })
	event := stripetest.Event("", "checkout.session.completed", fake.Session(sessionID))
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/stripe/webhook", bytes.NewReader(event))
	req.Header.Set("Stripe-Signature", stripetest.Sign(stripeSecret, event))
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %v %v", r, err)
	}
	var flagID int64
	if err := d.Read.QueryRow(`SELECT id FROM payment_flags`).Scan(&flagID); err != nil {
		t.Fatalf("no flag: %v", err)
	}
	resolve := "/payments/flags/" + strconv.FormatInt(flagID, 10) + "/resolve"

	ana := addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, w.anaID)
	wantStatus(t, ana.post(t, resolve, nil), http.StatusForbidden)
	if n := len(entriesOf(t, d, since, "payment_flag.resolved")); n != 0 {
		t.Fatalf("a refused resolve left %d entries", n)
	}
	wantRedirect(t, owner.post(t, resolve, nil), ui.PaymentURL(pr.ID))
	wantRedirect(t, owner.post(t, resolve, nil), ui.PaymentURL(pr.ID)) // already dealt with: nothing recorded
	e = wantEntry(t, d, since, "payment_flag.resolved", me, ownerEmail, "payment_flag",
		`"resolved_at":[null,"`, `"payment_request_id":[null,`+strconv.FormatInt(pr.ID, 10)+`]`, `"kind":[null,"`)
	if e.EntityID != flagID {
		t.Errorf("payment_flag.resolved is about %d, want flag %d", e.EntityID, flagID)
	}
}
