package admin

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/fail"
	"frontdesk/app/money"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Cancellations and deposits (docs/payments.md "Cancellation policy and fees",
// "Deposits by rule"): the notice window, the late-cancel and no-show fees (none, an amount, or
// a percentage of the booking's price with a cap), how long a fee may be charged, whether a card
// on file is required (for every booking or some services), and when a deposit is asked. A
// client's override of the deposit rules is on the client's page (setClientDeposit).
//
// Amounts are typed in the owner's language and read by the one parser (readAmounts);
// percentages are decimals with at most two places, stored as basis points (money.Parse: the
// same scale).

// exampleCents is the price the page's preview of the policy is written for.
const exampleCents = 5000000

func (a *Admin) showFeePolicy(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	pol, err := payments.LoadPolicy(ctx, a.db.R)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := payments.CardServices(ctx, a.db.R)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	f := ui.NewForm(nil)
	f.Set("notice_hours", strconv.FormatInt(int64(pol.Notice/time.Hour), 10))
	f.Set("charge_days", strconv.FormatInt(pol.ChargeDays, 10))
	for name, c := range map[string]payments.Charge{"late_fee": pol.Late, "no_show_fee": pol.NoShow, "deposit": pol.Deposit.Amount} {
		f.Set(name+"_kind", c.Kind)
		f.Set(name+"_value", chargeInput(p, c))
		if c.CapCents > 0 {
			f.Set(name+"_cap", amountInput(p, c.CapCents))
		}
	}
	if pol.RequireCard {
		f.Set("require_card", "1")
	}
	for _, id := range services {
		f.Values.Add("card_services", strconv.FormatInt(id, 10))
	}
	if pol.Deposit.NewClients {
		f.Set("deposit_new_clients", "1")
	}
	f.Set("deposit_no_shows", strconv.FormatInt(pol.Deposit.NoShows, 10))
	if pol.Deposit.AboveCents >= 0 {
		f.Set("deposit_above", amountInput(p, pol.Deposit.AboveCents))
	}
	a.renderFeePolicy(w, r, http.StatusOK, f, &pol)
}

// chargeInput writes a charge's value as the owner types it: an amount in their language, a
// percentage as a decimal ("12.5").
func chargeInput(p *i18n.Printer, c payments.Charge) string {
	switch c.Kind {
	case payments.AmountFixed:
		return amountInput(p, c.Value)
	case payments.AmountPercent:
		return strings.TrimSuffix(money.Cents(c.Value).String(), ".0")
	}
	return ""
}

// renderFeePolicy shows the page with form f; pol, when known, is previewed as clients read it.
func (a *Admin) renderFeePolicy(w http.ResponseWriter, r *http.Request, status int, f *ui.Form, pol *payments.Policy) {
	ctx := r.Context()
	svcs, err := a.db.R.ListServices(ctx, db.ListServicesParams{Active: true, Limit: 1000})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(ctx)
	v := ui.FeePolicyView{Form: f, Currency: business(ctx).Prefs.Currency, Example: p.Money(exampleCents),
		Kinds: []ui.Option{
			{Value: payments.AmountNone, Label: translate(r, "fee_policy.kind.none")},
			{Value: payments.AmountFixed, Label: translate(r, "fee_policy.kind.amount")},
			{Value: payments.AmountPercent, Label: translate(r, "fee_policy.kind.percent")},
		},
		Deposits: []ui.Option{
			{Value: payments.AmountFixed, Label: translate(r, "fee_policy.kind.amount")},
			{Value: payments.AmountPercent, Label: translate(r, "fee_policy.kind.percent")},
		},
	}
	for _, s := range svcs {
		v.Services = append(v.Services, ui.Option{Value: strconv.FormatInt(s.Service.ID, 10), Label: s.Service.Name})
	}
	if pol != nil {
		v.Statement = pol.Statement(p, exampleCents)
	}
	a.render(w, r, status, ui.FeePolicyPage(a.page(r, translate(r, "fee_policy.title")), v))
}

func (a *Admin) updateFeePolicy(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	pol, services := readFeePolicy(r, f)
	if f.OK() {
		problems, err := payments.SavePolicySettings(r.Context(), a.db, a.now(), pol, services)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		p := i18n.From(r.Context())
		for field, msg := range problems {
			f.SetError(policyFormField[field], p.Msg(msg))
		}
	}
	if !f.OK() {
		a.renderFeePolicy(w, r, http.StatusUnprocessableEntity, f, nil)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "fee_policy.saved"))
	seeOther(w, r, "/settings/cancellation")
}

// policyFormField maps CheckPolicy's fields to the form's.
var policyFormField = map[string]string{
	"late_fee": "late_fee_value", "no_show_fee": "no_show_fee_value", "deposit": "deposit_value",
	"notice": "notice_hours", "charge_days": "charge_days", "deposit_no_shows": "deposit_no_shows",
	"card_services": "card_services",
}

// readFeePolicy reads the form into a policy, putting on f what cannot be read (a number that
// is not one, an amount the language cannot read, a value missing for a fee that has a kind).
func readFeePolicy(r *http.Request, f *ui.Form) (payments.Policy, []int64) {
	p := i18n.From(r.Context())
	var pol payments.Policy
	whole := func(name string, lo, hi int64) int64 {
		n, err := strconv.ParseInt(strings.TrimSpace(f.Get(name)), 10, 64)
		if err != nil || n < lo || n > hi {
			f.SetError(name, translate(r, "form.whole_number", "min", lo, "max", hi))
		}
		return n
	}
	amount := func(name string) (int64, bool) {
		s := strings.TrimSpace(f.Get(name))
		if s == "" {
			return 0, false
		}
		c, err := p.ParseMoney(s)
		if err != nil {
			f.SetError(name, translate(r, "form.amount", "example", amountExample(p)))
			return 0, false
		}
		return c, true
	}
	charge := func(name string, optional bool, kinds ...string) payments.Charge {
		c := payments.Charge{Kind: f.Get(name + "_kind")}
		valid := false
		for _, k := range kinds {
			valid = valid || c.Kind == k
		}
		if !valid {
			f.SetError(name+"_kind", translate(r, "fees.error.kind"))
			return c
		}
		value := strings.TrimSpace(f.Get(name + "_value"))
		if optional && value == "" {
			return c
		}
		switch c.Kind {
		case payments.AmountFixed:
			v, ok := amount(name + "_value")
			if !ok && f.Error(name+"_value") == "" {
				f.SetError(name+"_value", translate(r, "fee_policy.error.value_needed"))
			}
			c.Value = v
		case payments.AmountPercent:
			bp, err := money.Parse(strings.Replace(value, ",", ".", 1))
			switch {
			case value == "":
				f.SetError(name+"_value", translate(r, "fee_policy.error.value_needed"))
			case err != nil:
				f.SetError(name+"_value", translate(r, "fee_policy.error.percent"))
			case bp > 10000:
				f.SetError(name+"_value", translate(r, "fees.error.percent"))
			}
			c.Value = int64(bp)
		}
		if c.Kind != payments.AmountNone && c.Value == 0 && f.Error(name+"_value") == "" {
			f.SetError(name+"_value", translate(r, "fee_policy.error.value_needed"))
		}
		if capCents, ok := amount(name + "_cap"); ok {
			if capCents == 0 {
				f.SetError(name+"_cap", translate(r, "fee_policy.error.cap"))
			}
			c.CapCents = capCents
		}
		return c
	}
	pol.Notice = time.Duration(whole("notice_hours", 0, 8760)) * time.Hour
	pol.ChargeDays = whole("charge_days", 1, 90)
	pol.Late = charge("late_fee", false, payments.AmountNone, payments.AmountFixed, payments.AmountPercent)
	pol.NoShow = charge("no_show_fee", false, payments.AmountNone, payments.AmountFixed, payments.AmountPercent)
	pol.RequireCard = f.Checked("require_card", "1")
	pol.Deposit.NewClients = f.Checked("deposit_new_clients", "1")
	pol.Deposit.NoShows = whole("deposit_no_shows", 0, 1000)
	pol.Deposit.AboveCents = -1
	if above, ok := amount("deposit_above"); ok {
		pol.Deposit.AboveCents = above
	}
	// Without a rule that asks a deposit, its amount may stay empty.
	asked := pol.Deposit.NewClients || pol.Deposit.NoShows > 0 || pol.Deposit.AboveCents >= 0
	pol.Deposit.Amount = charge("deposit", !asked, payments.AmountFixed, payments.AmountPercent)
	var services []int64
	for _, s := range f.Values["card_services"] {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			f.SetError("card_services", translate(r, "fees.error.service"))
			continue
		}
		services = append(services, id)
	}
	return pol, services
}

// depositModes are the choices of a client's deposit override.
func depositModes(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: payments.DepositByRule, Label: translate(r, "fee_policy.client.by_rule")},
		{Value: payments.DepositAlways, Label: translate(r, "fee_policy.client.always")},
		{Value: payments.DepositNever, Label: translate(r, "fee_policy.client.never")},
	}
}

// clientDeposit is the client's page's deposit override section (f nil: as stored).
func (a *Admin) clientDeposit(r *http.Request, id int64, f *ui.Form) (*ui.ClientDeposit, error) {
	if f == nil {
		mode, err := payments.DepositOverride(r.Context(), a.db.R, id)
		if err != nil {
			return nil, err
		}
		f = ui.NewForm(nil)
		f.Set("deposit_mode", mode)
	}
	return &ui.ClientDeposit{ClientID: id, Form: f, Modes: depositModes(r)}, nil
}

// setClientDeposit is the client's page's deposit override, POST /clients/{id}/deposit.
func (a *Admin) setClientDeposit(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	err = payments.SetDepositOverride(r.Context(), a.db, a.now(), id, f.Get("deposit_mode"))
	if fe, ok := fail.As(err); ok && fe.Code == fail.CodeInvalid {
		a.flash(r.Context(), ui.FlashError, translate(r, "fee_policy.error.mode"))
		seeOther(w, r, ui.ClientURL(id))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "fee_policy.client.saved"))
	seeOther(w, r, ui.ClientURL(id))
}
