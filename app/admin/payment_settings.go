package admin

import (
	"errors"
	"net/http"
	"strings"

	"frontdesk/app/errpage"
	"frontdesk/app/payments"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Payments (docs/payments.md): which provider takes payments online, its secret key
// and webhook signing secret (write-only: typed, sealed, never shown again — only a hint of the
// last characters), "test connection", and reconciliation now.

// providerEvents are the notifications a provider's endpoint must send (shown to the owner).
var providerEvents = map[string]string{
	"stripe": "checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, " +
		"checkout.session.expired, refund.updated, " +
		// Memberships (docs/payments.md "Memberships").
		"invoice.paid, invoice.payment_failed, customer.subscription.updated, customer.subscription.deleted, " +
		// Fees charged off session (docs/payments.md "Fees").
		"payment_intent.succeeded, payment_intent.payment_failed, payment_intent.requires_action",
}

func (a *Admin) showPaymentSettings(w http.ResponseWriter, r *http.Request) {
	a.renderPaymentSettings(w, r, http.StatusOK, nil)
}

// renderPaymentSettings shows the page with form f (nil: as stored).
func (a *Admin) renderPaymentSettings(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	ctx := r.Context()
	s, err := a.online.Settings(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if f == nil {
		f = ui.NewForm(nil)
		f.Set("provider", s.Provider)
	}
	v := ui.PaymentSettingsView{
		Form:      f,
		Providers: []ui.Option{{Value: payments.ProviderNone, Label: translate(r, "pay_settings.provider.none")}},
		Currency:  business(ctx).Prefs.Currency,
		Active:    s.Provider != payments.ProviderNone,
	}
	for _, reg := range a.online.Registrations() {
		v.Providers = append(v.Providers, ui.Option{Value: reg.Name, Label: reg.Label})
		hints, stored := s.Credentials[reg.Name]
		v.Cards = append(v.Cards, ui.ProviderCard{
			Name: reg.Name, Label: reg.Label, KeyHint: hints.SecretKey, WebhookHint: hints.WebhookSecret,
			Unreadable: hints.Unreadable, NotifyURL: a.online.NotifyURL(reg.Name), Events: providerEvents[reg.Name], Stored: stored,
		})
	}
	at, res := payments.LastReconcile(s)
	v.ReconciledAt = at
	v.Reconciled = ui.ReconcileCounts{Checked: res.Checked, Settled: res.Settled, Expired: res.Expired, Flagged: res.Flagged, Errors: res.Errors}
	a.render(w, r, status, ui.PaymentSettingsPage(a.page(r, translate(r, "pay_settings.title")), v))
}

func (a *Admin) updatePaymentSettings(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := payments.SettingsInput{Provider: f.Get("provider"), Typed: map[string]payments.Credentials{}, Forget: map[string]bool{}}
	for _, reg := range a.online.Registrations() {
		// Secrets are taken as typed, but pasted text often brings spaces or a line break.
		c := payments.Credentials{SecretKey: strings.TrimSpace(f.Raw(reg.Name + "_secret_key")), WebhookSecret: strings.TrimSpace(f.Raw(reg.Name + "_webhook_secret"))}
		if c != (payments.Credentials{}) {
			in.Typed[reg.Name] = c
		}
		in.Forget[reg.Name] = f.Checked(reg.Name+"_forget", "1")
	}
	problems, err := a.online.SaveSettings(r.Context(), in)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if len(problems) > 0 {
		p := i18n.From(r.Context())
		for field, msg := range problems {
			f.SetError(strings.Replace(field, ".", "_", 1), p.Msg(msg))
		}
		a.renderPaymentSettings(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "pay_settings.saved"))
	seeOther(w, r, "/settings/payments")
}

// testPaymentProvider checks a provider's stored credentials with the provider and says what
// it found.
func (a *Admin) testPaymentProvider(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name := r.URL.Query().Get("provider")
	reg, ok := a.online.Registration(name)
	if !ok {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	res, err := a.online.TestConnection(ctx, name)
	var pe *payments.ProviderError
	switch {
	case errors.Is(err, payments.ErrNotConfigured):
		a.flash(ctx, ui.FlashError, translate(r, "pay_settings.test.not_configured", "provider", reg.Label))
	case errors.As(err, &pe) && pe.Temporary:
		a.flash(ctx, ui.FlashError, translate(r, "pay_settings.test.unreachable", "provider", reg.Label, "message", pe.Message))
	case errors.As(err, &pe):
		a.flash(ctx, ui.FlashError, translate(r, "pay_settings.test.refused", "provider", reg.Label, "message", pe.Message))
	case err != nil:
		a.renderError(w, r, err)
		return
	case res.Live:
		a.flash(ctx, ui.FlashSuccess, translate(r, "pay_settings.test.ok_live", "provider", reg.Label))
	default:
		a.flash(ctx, ui.FlashSuccess, translate(r, "pay_settings.test.ok_test", "provider", reg.Label))
	}
	p := i18n.From(ctx)
	for _, note := range res.Notes {
		a.flash(ctx, ui.FlashInfo, p.Msg(note))
	}
	seeOther(w, r, "/settings/payments")
}

// reconcilePayments is the "reconcile now" button: the daily job, at once.
func (a *Admin) reconcilePayments(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	back := "/settings/payments"
	if f, err := parseForm(r); err == nil && f.Get("back") == "/payments" {
		back = "/payments"
	}
	res, err := a.online.Reconcile(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	kind := ui.FlashSuccess
	if res.Errors > 0 || res.Flagged > 0 {
		kind = ui.FlashError
	}
	a.flash(ctx, kind, translate(r, "pay_settings.reconcile.done", "checked", res.Checked, "settled", res.Settled,
		"expired", res.Expired, "flagged", res.Flagged, "errors", res.Errors))
	seeOther(w, r, back)
}
