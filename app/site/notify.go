package site

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/reserve"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// "Tell me when a time opens" (docs/booking-site.md): when no time suits, the visitor joins
// the waitlist for appointments (docs/visits.md) for the service, the provider or anyone, and
// a range of days, with the details form of a booking. It is booking.JoinAppointmentWaitlist
// through reserve.JoinWaitlist — what POST /v3/appointment_waitlist calls — so a cancel or a
// move that frees a time in the range sends a claim link (claim.go).

// notifyDays is the range the form proposes, from the day the visitor was looking at.
const notifyDays = 14

func notifyPath(loc, svc, provider int64, extra url.Values) string {
	q := url.Values{"provider": {strconv.FormatInt(provider, 10)}}
	for k, v := range extra {
		q[k] = v
	}
	return servicePath(loc, svc) + "/notify?" + q.Encode()
}

// notifyStep is the step of a waitlist form; a class has its own waitlist per session.
func (s *Site) notifyStep(r *http.Request) (step, error) {
	st, err := s.detailsStep(r)
	if err == nil && st.svc.class() {
		err = errNotFound
	}
	return st, err
}

func (s *Site) notifyView(r *http.Request, st step, form *ui.Form) ui.SiteDetailsView {
	p := i18n.From(r.Context())
	v := s.detailsView(r, st, form)
	v.Action = servicePath(st.loc.id, st.svc.id) + "/notify"
	v.AskDays, v.Waitlist = true, true
	v.WaitNote = p.T("site.notify.note")
	v.PayNote, v.TopTarget, v.FeePolicy, v.PackNote = "", false, nil, ""
	v.Zone = zoneLabel(p, st.loc.zone, booking.DateOf(s.now().In(st.loc.zone)))
	return v
}

func (s *Site) notifyPage(r *http.Request, st step) ui.SitePage {
	page := s.page(r, i18n.T(r.Context(), "site.notify.title"))
	page.Back = timesPath(st.loc.id, st.svc.id, st.provider, nil)
	return page
}

// showNotify is the waitlist form, its days starting on the day the visitor was looking at;
// after joining, the same address says what happens next.
func (s *Site) showNotify(w http.ResponseWriter, r *http.Request) {
	st, err := s.notifyStep(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	q := r.URL.Query()
	if q.Get("done") == "1" {
		first, ferr := booking.ParseDate(q.Get("first"))
		last, lerr := booking.ParseDate(q.Get("last"))
		if ferr != nil || lerr != nil {
			s.renderError(w, r, errNotFound)
			return
		}
		msg := p.T("site.notify.joined", "service", st.svc.name, "first", p.DateLong(noon(first)), "last", p.DateLong(noon(last)))
		s.render(w, r, http.StatusOK, ui.SiteMessage(s.page(r, p.T("site.notify.title")), ui.SiteMessageView{
			Message: msg, Link: locationPath(st.loc.id), LinkText: p.T("site.notify.other_services"),
		}))
		return
	}
	today := booking.DateOf(s.now().In(st.loc.zone))
	first, err := booking.ParseDate(q.Get("date"))
	if err != nil || first.Before(today) {
		first = today
	}
	form := ui.NewForm(nil)
	form.Set("first_day", first.String())
	form.Set("last_day", first.AddDays(notifyDays-1).String())
	v := s.notifyView(r, st, form)
	v.Summary = s.summary(p, st.loc, st.svc, st.name)
	s.render(w, r, http.StatusOK, ui.SiteDetails(s.notifyPage(r, st), v))
}

// notify is the POST of the waitlist form: the details checked as for a booking, then the
// wait recorded with the client found or created in one transaction. Refusals — days out of
// range, the same details already waiting for this — come back on the form (422).
func (s *Site) notify(w http.ResponseWriter, r *http.Request) {
	st, err := s.notifyStep(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	_, form, ok := s.postedDetails(w, r, "no wait recorded")
	if !ok {
		return
	}
	p := i18n.From(r.Context())
	in := s.readDetails(r, st, form)
	days := map[string]booking.Date{}
	for _, name := range []string{"first_day", "last_day"} {
		d, err := booking.ParseDate(form.Get(name))
		if err != nil {
			form.SetError(name, p.T("site.notify.day.error"))
		}
		days[name] = d
	}
	again := func(status int) {
		v := s.notifyView(r, st, form)
		v.Summary = s.summary(p, st.loc, st.svc, st.name)
		s.render(w, r, status, ui.SiteDetails(s.notifyPage(r, st), v))
	}
	if !form.OK() {
		again(http.StatusUnprocessableEntity)
		return
	}
	_, err = reserve.JoinWaitlist(r.Context(), s.db, s.now(), reserve.WaitRequest{
		Customer: reserve.Customer{Client: in, Channel: channelOf(form)}, LocationID: st.loc.id,
		ServiceID: st.svc.id, ProviderID: st.provider, First: days["first_day"], Last: days["last_day"],
	})
	var fields clients.Errors
	var inv *booking.InvalidError
	switch {
	case errors.As(err, &fields):
		s.clientErrors(p, form, fields)
		again(http.StatusUnprocessableEntity)
		return
	case errors.As(err, &inv) && inv.Field == "client_id":
		form.Message = p.T("site.notify.already")
		again(http.StatusUnprocessableEntity)
		return
	case errors.As(err, &inv) && (inv.Field == "first_date" || inv.Field == "last_date"):
		form.SetError("last_day", p.T("site.notify.range.error"))
		again(http.StatusUnprocessableEntity)
		return
	case errors.As(err, &inv):
		form.Message = p.T("site.notify.not_offered")
		again(http.StatusUnprocessableEntity)
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, notifyPath(st.loc.id, st.svc.id, st.provider, url.Values{
		"done": {"1"}, "first": {days["first_day"].String()}, "last": {days["last_day"].String()},
	}))
}
