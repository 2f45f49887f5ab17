package customer

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/clients"
	"frontdesk/app/errpage"
	"frontdesk/app/middleware"
	"frontdesk/app/payments"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The membership sign-up page, /membership/join (docs/payments.md "Memberships"): the active
// plans, and the client's name and email. Signing up finds the client by their email (or makes
// them, as the booking site does), opens the provider's checkout in subscription mode and sends
// them there; the provider brings them back to the membership's page. Without a provider that
// sells subscriptions, or without an active plan, the page is not found.

// joinOffer is what the page offers: the active plans as options, and the origins the form may
// be redirected to. ok is false when there is nothing to sign up for.
func (c *Customer) joinOffer(r *http.Request) (plans []ui.Option, origins []string, ok bool, err error) {
	ctx := r.Context()
	if offers, err := c.online.OffersMemberships(ctx, c.db.R); err != nil || !offers {
		return nil, nil, false, err
	}
	name, err := c.online.ActiveProvider(ctx, c.db.R)
	if err != nil {
		return nil, nil, false, err
	}
	reg, _ := c.online.Registration(name)
	rows, err := c.db.R.ListMembershipPlans(ctx, 1)
	if err != nil || len(rows) == 0 {
		return nil, nil, false, err
	}
	p := i18n.From(ctx)
	for _, pl := range rows {
		label := pl.Name + " · " + p.T("memberships.per_month", "price", p.Money(pl.PriceCents))
		svcs, err := c.db.R.MembershipPlanServices(ctx, pl.ID)
		if err != nil {
			return nil, nil, false, err
		}
		for _, s := range svcs {
			label += " · " + p.T("memberships.includes_line", "count", s.Sessions, "service", s.ServiceName)
		}
		if pl.DiscountBp > 0 {
			label += " · " + p.T("memberships.discount_line", "percent", pl.DiscountBp/100)
		}
		plans = append(plans, ui.Option{Value: strconv.FormatInt(pl.ID, 10), Label: label})
	}
	return plans, reg.CheckoutOrigins, true, nil
}

func (c *Customer) showMembershipJoin(w http.ResponseWriter, r *http.Request) {
	plans, origins, ok, err := c.joinOffer(r)
	if err != nil || !ok {
		c.renderError(w, r, cmpErr(err, errpage.NotFound))
		return
	}
	f := ui.NewForm(nil)
	if len(plans) == 1 {
		f.Set("plan_id", plans[0].Value)
	}
	c.renderJoin(w, r, http.StatusOK, f, plans, origins)
}

func (c *Customer) renderJoin(w http.ResponseWriter, r *http.Request, status int, f *ui.Form, plans []ui.Option, origins []string) {
	// The form is answered with a redirect to the provider's checkout: the policy's form-action
	// must allow it there (browsers check redirects of form posts).
	w.Header().Set("Content-Security-Policy", strings.Replace(middleware.PagePolicy,
		"form-action 'self'", "form-action 'self' "+strings.Join(origins, " "), 1))
	w.Header().Set("Cache-Control", "no-store")
	c.render(w, r, status, ui.MembershipJoinPage(ui.Page{Title: i18n.T(r.Context(), "memberships.join.title"), Path: "/membership/join"},
		ui.MembershipJoin{Business: c.businessName(r), Form: f, Plans: plans}))
}

func (c *Customer) joinMembership(w http.ResponseWriter, r *http.Request) {
	plans, origins, ok, err := c.joinOffer(r)
	if err != nil || !ok {
		c.renderError(w, r, cmpErr(err, errpage.NotFound))
		return
	}
	form, err := parseForm(r)
	if err != nil {
		c.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	f := ui.NewForm(form.Values)
	planID, perr := strconv.ParseInt(f.Get("plan_id"), 10, 64)
	if perr != nil || !hasPlan(plans, f.Get("plan_id")) {
		f.SetError("plan_id", i18n.T(ctx, "memberships.join.error.plan"))
	}
	first := strings.TrimSpace(f.Get("first_name"))
	if first == "" {
		f.SetError("first_name", i18n.T(ctx, "memberships.join.error.first_name"))
	}
	email, eerr := clients.NormalizeEmail(f.Get("email"))
	if eerr != nil || email == "" {
		f.SetError("email", i18n.T(ctx, "memberships.join.error.email"))
	}
	if !f.OK() {
		c.renderJoin(w, r, http.StatusUnprocessableEntity, f, plans, origins)
		return
	}
	in := clients.Input{FirstName: clients.Field[string]{Set: true, V: first}, Email: clients.Field[string]{Set: true, V: email}}
	if last := strings.TrimSpace(f.Get("last_name")); last != "" {
		in.LastName = clients.Field[string]{Set: true, V: last}
	}
	clientID, err := clients.FindOrCreate(ctx, c.db, c.now(), in)
	var cerr clients.Errors
	if errors.As(err, &cerr) {
		f.SetError(cerr[0].Field, i18n.T(ctx, "memberships.join.error.details"))
		c.renderJoin(w, r, http.StatusUnprocessableEntity, f, plans, origins)
		return
	} else if err != nil {
		c.renderError(w, r, err)
		return
	}
	_, to, err := c.online.StartMembership(ctx, planID, clientID, business(ctx).Language)
	switch {
	case errors.Is(err, payments.ErrPlanNotFound):
		f.SetError("plan_id", i18n.T(ctx, "memberships.join.error.plan"))
		c.renderJoin(w, r, http.StatusUnprocessableEntity, f, plans, origins)
	case err != nil:
		c.log.WarnContext(ctx, "membership sign-up", "plan", planID, "err", err)
		f.Message = i18n.T(ctx, "checkout.notice.unavailable")
		c.renderJoin(w, r, http.StatusServiceUnavailable, f, plans, origins)
	default:
		seeOther(w, r, to)
	}
}

func hasPlan(plans []ui.Option, v string) bool {
	for _, p := range plans {
		if p.Value == v {
			return true
		}
	}
	return false
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}
