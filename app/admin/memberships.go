package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/fail"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Payments → Memberships (docs/payments.md "Memberships"): the plans and the form for a new
// one, the memberships with the owner's pause, resume and cancel (at the provider first), and
// signing a client up — which makes the provider's checkout link to give them. Every change
// goes through app/payments.

const membershipsPerPage = 50

func (a *Admin) listMemberships(w http.ResponseWriter, r *http.Request) {
	a.renderMemberships(w, r, http.StatusOK, ui.NewForm(nil), ui.NewForm(nil), "")
}

func (a *Admin) renderMemberships(w http.ResponseWriter, r *http.Request, status int, planForm, signup *ui.Form, checkoutURL string) {
	ctx := r.Context()
	p := i18n.From(ctx)
	plans, err := a.db.R.ListMembershipPlans(ctx, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.MembershipsView{PlanForm: planForm, SignupForm: signup, CheckoutURL: checkoutURL}
	for _, pl := range plans {
		svcs, err := a.db.R.MembershipPlanServices(ctx, pl.ID)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		var inc []string
		for _, s := range svcs {
			inc = append(inc, translate(r, "memberships.includes_line", "count", s.Sessions, "service", s.ServiceName))
		}
		if pl.DiscountBp > 0 {
			inc = append(inc, translate(r, "memberships.discount_line", "percent", pl.DiscountBp/100))
		}
		v.Plans = append(v.Plans, ui.MembershipPlanRow{ID: pl.ID, Name: pl.Name, Price: p.Money(pl.PriceCents),
			Includes: strings.Join(inc, "; "), Rollover: pl.Rollover, Active: pl.Active})
		if pl.Active {
			v.PlanOptions = append(v.PlanOptions, ui.Option{Value: strconv.FormatInt(pl.ID, 10), Label: pl.Name})
		}
	}
	services, err := a.db.R.ListMembershipServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, s := range services {
		v.Services = append(v.Services, ui.Option{Value: strconv.FormatInt(s.ID, 10), Label: s.Name})
	}
	rows, err := a.db.R.ListMemberships(ctx, db.ListMembershipsParams{Limit: membershipsPerPage, Offset: 0})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, m := range rows {
		row := ui.MembershipRow{ID: m.ID, Client: strings.TrimSpace(m.FirstName + " " + m.LastName.String), ClientID: m.ClientID,
			Plan: m.PlanName, Status: m.Status, PausedBy: m.PausedBy.String, Page: "/membership/" + m.UUID}
		if m.CurrentPeriodEnd.Valid {
			row.PeriodEnd = p.Date(time.UnixMilli(m.CurrentPeriodEnd.Int64).UTC())
		}
		v.Rows = append(v.Rows, row)
	}
	if a.online != nil {
		name, err := a.online.ActiveProvider(ctx, a.db.R)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Online = name != payments.ProviderNone
		v.JoinURL = a.links.URL("/membership/join", nil)
	}
	a.render(w, r, status, ui.MembershipsPage(a.page(r, translate(r, "memberships.title")), v))
}

func (a *Admin) createMembershipPlan(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := payments.PlanInput{Name: f.Get("name"), Price: f.Get("price"), Rollover: f.Get("rollover") != "", Active: true,
		Sessions: map[int64]int64{}}
	if s := strings.TrimSpace(f.Get("discount_percent")); s != "" {
		if in.DiscountPercent, err = strconv.ParseInt(s, 10, 64); err != nil {
			f.SetError("discount_percent", translate(r, "form.whole_number", "min", 0, "max", 100))
		}
	}
	for key, vals := range f.Values {
		if idText, ok := strings.CutPrefix(key, "discount_on_"); ok && len(vals) > 0 && vals[0] != "" {
			if id, err := strconv.ParseInt(idText, 10, 64); err == nil {
				in.DiscountServices = append(in.DiscountServices, id)
			}
			continue
		}
		idText, ok := strings.CutPrefix(key, "sessions_")
		if !ok || len(vals) == 0 || strings.TrimSpace(vals[0]) == "" {
			continue
		}
		id, err1 := strconv.ParseInt(idText, 10, 64)
		n, err2 := strconv.ParseInt(strings.TrimSpace(vals[0]), 10, 64)
		if err1 != nil || err2 != nil {
			f.SetError(key, translate(r, "form.whole_number", "min", 0, "max", 1000))
			continue
		}
		in.Sessions[id] = n
	}
	if f.OK() {
		_, err = payments.SavePlan(r.Context(), a.db, a.now(), 0, in)
		var refusal *payments.RefusedError
		if errors.As(err, &refusal) {
			field, _, _ := strings.Cut(refusal.Detail, ":")
			f.Message = planError(r, field)
		} else if err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	if !f.OK() {
		a.renderMemberships(w, r, http.StatusUnprocessableEntity, f, ui.NewForm(nil), "")
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "memberships.plan.saved"))
	seeOther(w, r, "/payments/memberships")
}

// signUpMember makes a client's membership and its checkout link, POST
// /payments/memberships/signup: the page shows the link to give the client.
func (a *Admin) signUpMember(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if a.online == nil {
		a.renderError(w, r, fail.NotFound("page"))
		return
	}
	clientID, err1 := strconv.ParseInt(strings.TrimSpace(f.Get("client_id")), 10, 64)
	planID, err2 := strconv.ParseInt(f.Get("plan_id"), 10, 64)
	if err1 != nil || clientID < 1 {
		f.SetError("client_id", translate(r, "memberships.error.client"))
	}
	if err2 != nil {
		f.SetError("plan_id", translate(r, "memberships.error.plan"))
	}
	var url string
	if f.OK() {
		_, url, err = a.online.StartMembership(r.Context(), planID, clientID, business(r.Context()).Language)
		var fe *fail.Error
		switch {
		case errors.Is(err, payments.ErrPlanNotFound):
			f.SetError("plan_id", translate(r, "memberships.error.plan"))
		case errors.As(err, &fe) && fe.Reason == "client":
			f.SetError("client_id", translate(r, "memberships.error.client"))
		case err != nil:
			a.log.WarnContext(r.Context(), "start membership", "err", err)
			f.Message = translate(r, "memberships.error.provider")
		}
	}
	status := http.StatusOK
	if !f.OK() {
		status = http.StatusUnprocessableEntity
	}
	a.renderMemberships(w, r, status, ui.NewForm(nil), f, url)
}

func (a *Admin) changeMembership(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	act := chi.URLParam(r, "act")
	if a.online == nil || act != payments.ActPause && act != payments.ActResume && act != payments.ActCancel {
		a.renderError(w, r, fail.NotFound("page"))
		return
	}
	err = a.online.ChangeMembership(r.Context(), id, act)
	var refusal *payments.RefusedError
	var pe *payments.ProviderError
	switch {
	case errors.As(err, &refusal):
		a.flash(r.Context(), ui.FlashError, translate(r, "memberships.refused.status"))
	case errors.As(err, &pe):
		a.flash(r.Context(), ui.FlashError, translate(r, "memberships.error.provider"))
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, changedMessage(r, act))
	}
	seeOther(w, r, "/payments/memberships")
}

// planError says what is wrong with the plan form's field.
func planError(r *http.Request, field string) string {
	switch field {
	case "name":
		return translate(r, "memberships.error.name")
	case "price":
		return translate(r, "memberships.error.price")
	case "discount_percent":
		return translate(r, "memberships.error.discount_percent")
	case "discount_services":
		return translate(r, "memberships.error.discount_services")
	}
	return translate(r, "memberships.error.sessions")
}

// changedMessage confirms the owner's action act.
func changedMessage(r *http.Request, act string) string {
	switch act {
	case payments.ActPause:
		return translate(r, "memberships.changed.pause")
	case payments.ActResume:
		return translate(r, "memberships.changed.resume")
	}
	return translate(r, "memberships.changed.cancel")
}
