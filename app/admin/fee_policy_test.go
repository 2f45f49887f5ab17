package admin_test

import (
	"net/http"
	"net/url"
	"testing"
)

// policyForm is a valid Settings → Cancellations and deposits form; tests change one field.
func policyForm(service string) url.Values {
	return url.Values{
		"notice_hours": {"48"}, "charge_days": {"14"},
		"late_fee_kind": {"percent"}, "late_fee_value": {"50"}, "late_fee_cap": {"20"},
		"no_show_fee_kind": {"amount"}, "no_show_fee_value": {"30.50"}, "no_show_fee_cap": {""},
		"card_services": {service}, "deposit_new_clients": {"1"}, "deposit_no_shows": {"2"}, "deposit_above": {"100"},
		"deposit_kind": {"percent"}, "deposit_value": {"25"},
	}
}

// The owner sets the cancellation policy, the services that need a card and the deposit rules
// in Settings → Cancellations and deposits: what is typed is stored (amounts in hundredths,
// percentages in basis points), shown back as typed and previewed as clients read it. A form
// with a problem is answered 422 with the field's message and writes nothing.
func TestFeePolicySettings(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	page := c.get(t, "/settings/cancellation")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="fee-policy-form"`, `name="late_fee_kind"`, `name="card_services"`)

	for name, tc := range map[string]struct {
		field, value, error string
	}{
		"percent over 100":      {"late_fee_value", "150", `data-testid="error-late_fee_value"`},
		"percent not a number":  {"late_fee_value", "half", `data-testid="error-late_fee_value"`},
		"amount unreadable":     {"no_show_fee_value", "3x", `data-testid="error-no_show_fee_value"`},
		"amount missing":        {"no_show_fee_value", "", `data-testid="error-no_show_fee_value"`},
		"unknown kind":          {"late_fee_kind", "double", `data-testid="error-late_fee_kind"`},
		"deposit kind none":     {"deposit_kind", "none", `data-testid="error-deposit_kind"`},
		"charge days over 90":   {"charge_days", "91", `data-testid="error-charge_days"`},
		"negative notice":       {"notice_hours", "-1", `data-testid="error-notice_hours"`},
		"no such service":       {"card_services", "999999", `data-testid="error-card_services"`},
		"zero cap":              {"late_fee_cap", "0", `data-testid="error-late_fee_cap"`},
		"deposit above unread":  {"deposit_above", "lots", `data-testid="error-deposit_above"`},
		"deposit value missing": {"deposit_value", "", `data-testid="error-deposit_value"`},
	} {
		t.Run(name, func(t *testing.T) {
			form := policyForm(w.Service)
			form.Set(tc.field, tc.value)
			res := c.post(t, "/settings/cancellation", form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.error)
		})
	}
	var rows int
	w.d.Read.QueryRow(`SELECT (SELECT count(*) FROM card_policy) + (SELECT count(*) FROM card_services)`).Scan(&rows)
	if rows != 0 {
		t.Fatalf("refused forms wrote %d rows", rows)
	}

	wantRedirect(t, c.post(t, "/settings/cancellation", policyForm(w.Service)), "/settings/cancellation")
	var notice, lateValue, lateCap, noShowValue, days, noShows, above, depositValue int64
	var lateKind, noShowKind, depositKind string
	var newClients, requireCard bool
	if err := w.d.Read.QueryRow(`SELECT notice_min, late_fee_kind, late_fee_value, late_fee_cap_cents, no_show_fee_kind, no_show_fee_value,
		charge_days, deposit_new_clients, deposit_no_shows, deposit_above_cents, deposit_kind, deposit_value, require_card FROM card_policy`).Scan(
		&notice, &lateKind, &lateValue, &lateCap, &noShowKind, &noShowValue, &days, &newClients, &noShows, &above, &depositKind, &depositValue, &requireCard); err != nil {
		t.Fatal(err)
	}
	if notice != 48*60 || lateKind != "percent" || lateValue != 5000 || lateCap != 2000 || noShowKind != "amount" || noShowValue != 3050 ||
		days != 14 || !newClients || noShows != 2 || above != 10000 || depositKind != "percent" || depositValue != 2500 || requireCard {
		t.Errorf("stored %d %s %d %d %s %d %d %v %d %d %s %d %v", notice, lateKind, lateValue, lateCap, noShowKind, noShowValue, days,
			newClients, noShows, above, depositKind, depositValue, requireCard)
	}
	var service string
	if err := w.d.Read.QueryRow(`SELECT group_concat(service_id) FROM card_services`).Scan(&service); err != nil || service != w.Service {
		t.Errorf("card services %q %v, want %s", service, err, w.Service)
	}
	page = c.get(t, "/settings/cancellation")
	wantBody(t, page, `name="late_fee_value" type="text" value="50"`, `name="no_show_fee_value" type="text" value="30.50"`,
		`name="late_fee_cap" type="text" value="20"`, `data-testid="fee-policy-preview"`, "costs $20.00", "costs $30.50")

	// Every booking needs a card; no service is listed, no deposit rule: its value may be empty.
	form := policyForm(w.Service)
	form.Set("require_card", "1")
	form.Del("card_services")
	form.Del("deposit_new_clients")
	form.Set("deposit_no_shows", "0")
	form.Set("deposit_above", "")
	form.Set("deposit_value", "")
	wantRedirect(t, c.post(t, "/settings/cancellation", form), "/settings/cancellation")
	var services int
	w.d.Read.QueryRow(`SELECT count(*) FROM card_services`).Scan(&services)
	w.d.Read.QueryRow(`SELECT require_card, deposit_above_cents IS NULL FROM card_policy`).Scan(&requireCard, &newClients)
	if services != 0 || !requireCard || !newClients {
		t.Errorf("got %d card services, require_card %v, no price rule %v; want none, true, true", services, requireCard, newClients)
	}
}

// A client's page sets their deposit override: always, never, or back to the rules; anything
// else is refused and changes nothing.
func TestClientDepositOverride(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedPayWorld(t, ts)
	path := "/clients/" + w.Maria
	wantBody(t, c.get(t, path), `data-testid="client-deposit-form"`, `name="deposit_mode"`)
	mode := func() string {
		var m string
		w.d.Read.QueryRow(`SELECT coalesce((SELECT mode FROM client_deposit_overrides WHERE client_id = ?), '')`, w.Maria).Scan(&m)
		return m
	}
	wantRedirect(t, c.post(t, path+"/deposit", url.Values{"deposit_mode": {"always"}}), path)
	if got := mode(); got != "always" {
		t.Fatalf("got override %q, want always", got)
	}
	wantBody(t, c.get(t, path), `<option value="always" selected>`)
	wantRedirect(t, c.post(t, path+"/deposit", url.Values{"deposit_mode": {"sometimes"}}), path)
	if got := mode(); got != "always" {
		t.Errorf("a refused mode changed the override to %q", got)
	}
	wantRedirect(t, c.post(t, path+"/deposit", url.Values{"deposit_mode": {"never"}}), path)
	if got := mode(); got != "never" {
		t.Errorf("got override %q, want never", got)
	}
	wantRedirect(t, c.post(t, path+"/deposit", url.Values{"deposit_mode": {""}}), path)
	if got := mode(); got != "" {
		t.Errorf("got override %q, want none (the rules decide)", got)
	}
	wantStatus(t, c.post(t, "/clients/999999/deposit", url.Values{"deposit_mode": {"always"}}), http.StatusNotFound)
}
