package site

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/app/managelink"
	"frontdesk/app/payments"
	"frontdesk/app/reserve"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// A booking that repeats (docs/booking-site.md, docs/visits.md "Series"): once a time is
// chosen, the visitor may ask for it weekly, every few weeks or monthly on the same weekday,
// for up to booking.MaxOccurrences dates. booking.CheckSeries shows which dates are free;
// the details form then asks "book the free ones" or "all or nothing", and reserve.BookSeries
// books through booking.BookSeries — the functions POST /v3/booking_series/check and
// /v3/booking_series call. Offered only while the owner allows it (Settings → Booking site).

// repeatFields are the series' rule as the URL and the details form carry it.
var repeatFields = []string{"repeat", "interval", "count"}

// repeatOffered reports whether the site offers st's service to repeat: the owner allows it,
// and the service is neither a class nor paid online (a series has no payment request).
func repeatOffered(r *http.Request, st step) bool {
	c := configFrom(r.Context())
	return c != nil && c.settings.RepeatOnline && !st.svc.class() && !payments.MustPayOnline(st.svc.mode)
}

func repeatPath(st step, start time.Time, extra url.Values) string {
	q := url.Values{"provider": {strconv.FormatInt(st.provider, 10)}, "start": {start.Format(time.RFC3339)}}
	for k, v := range extra {
		q[k] = v
	}
	return servicePath(st.loc.id, st.svc.id) + "/repeat?" + q.Encode()
}

// readRepeat reads the series' rule from form, marking what is wrong on it.
func readRepeat(p *i18n.Printer, form *ui.Form) booking.Repeat {
	rep := booking.Repeat{Freq: form.Get("repeat"), IntervalWeeks: 1}
	if rep.Freq != booking.RepeatWeekly && rep.Freq != booking.RepeatMonthly {
		form.SetError("repeat", p.T("site.repeat.freq.error"))
	}
	if raw := form.Get("interval"); raw != "" && rep.Freq == booking.RepeatWeekly {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 52 {
			form.SetError("interval", p.T("site.repeat.interval.error"))
		}
		rep.IntervalWeeks = n
	}
	n, err := strconv.Atoi(form.Get("count"))
	if err != nil || n < 2 || n > booking.MaxOccurrences {
		form.SetError("count", p.T("site.repeat.count.error", "max", booking.MaxOccurrences))
	}
	rep.Count = n
	return rep
}

// seriesRequest is st at start repeating as rep, for the customer flow.
func seriesRequest(st step, start time.Time, rep booking.Repeat, clientID int64) booking.SeriesRequest {
	return booking.SeriesRequest{Repeat: rep, NewBooking: booking.NewBooking{
		LocationID: st.loc.id, ServiceID: st.svc.id, ProviderID: st.provider, ClientID: clientID,
		StatusID: booking.StatusConfirmed, Start: start, Source: booking.SourceOnline,
	}}
}

// occurrenceViews are a series' dates in words, each free or why not.
func occurrenceViews(p *i18n.Printer, st step, occ []booking.Occurrence) []ui.SiteOccurrence {
	out := make([]ui.SiteOccurrence, 0, len(occ))
	for _, o := range occ {
		v := ui.SiteOccurrence{Free: o.Free, When: p.DateLong(noon(o.Date))}
		if !o.Start.IsZero() {
			v.When = when(p, o.Start.In(st.loc.zone))
		}
		if !o.Free {
			v.Why = p.T("site.repeat.unavailable")
			if o.Reason == booking.ReasonTaken {
				v.Why = p.T("site.repeat.taken")
			}
		}
		out = append(out, v)
	}
	return out
}

// showRepeat asks how the chosen time repeats and, once asked, lists which dates are free with
// the way on to the details form.
func (s *Site) showRepeat(w http.ResponseWriter, r *http.Request) {
	st, err := s.detailsStep(r)
	if err == nil && !repeatOffered(r, st) {
		err = errNotFound
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	q := r.URL.Query()
	start, err := time.Parse(time.RFC3339, q.Get("start"))
	if err != nil {
		s.renderError(w, r, errNotFound)
		return
	}
	p := i18n.From(r.Context())
	form := ui.NewForm(q)
	if form.Get("repeat") == "" {
		form.Set("repeat", booking.RepeatWeekly)
	}
	v := ui.SiteRepeatView{
		Summary: s.summary(p, st.loc, st.svc, st.name), Action: servicePath(st.loc.id, st.svc.id) + "/repeat", Form: form,
		Hidden: []ui.SiteHidden{{Name: "provider", Value: strconv.FormatInt(st.provider, 10)}, {Name: "start", Value: start.Format(time.RFC3339)}},
		Freqs: []ui.Option{
			{Value: booking.RepeatWeekly, Label: p.T("site.repeat.weekly")},
			{Value: booking.RepeatMonthly, Label: p.T("site.repeat.monthly", "weekday", p.Weekday(start.In(st.loc.zone).Weekday()))},
		},
		Max: strconv.Itoa(booking.MaxOccurrences),
	}
	v.Summary.When = when(p, start.In(st.loc.zone))
	page := s.page(r, p.T("site.repeat.title"))
	page.Back = detailsPath(st, start, nil)
	status := http.StatusOK
	if form.Get("count") != "" {
		rep := readRepeat(p, form)
		if form.OK() {
			occ, err := booking.CheckSeries(r.Context(), s.db, s.now(), seriesRequest(st, start, rep, 0))
			var inv *booking.InvalidError
			switch {
			case errors.As(err, &inv):
				form.Message = p.T("site.repeat.refused")
			case err != nil:
				s.renderError(w, r, err)
				return
			default:
				v.Occurrences = occurrenceViews(p, st, occ)
				for _, o := range occ {
					if o.Free {
						v.ContinueURL = detailsPath(st, start, repeatQuery(form))
						break
					}
				}
			}
		}
		if !form.OK() {
			status = http.StatusUnprocessableEntity
		}
	}
	s.render(w, r, status, ui.SiteRepeat(page, v))
}

// repeatQuery is the series' rule of form as query values.
func repeatQuery(form *ui.Form) url.Values {
	q := url.Values{}
	for _, name := range repeatFields {
		if v := form.Get(name); v != "" {
			q.Set(name, v)
		}
	}
	return q
}

// detailsPath is the details step of st at start, with extra query.
func detailsPath(st step, start time.Time, extra url.Values) string {
	q := url.Values{"provider": {strconv.FormatInt(st.provider, 10)}, "start": {start.Format(time.RFC3339)}}
	for k, v := range extra {
		q[k] = v
	}
	return servicePath(st.loc.id, st.svc.id) + "/details?" + q.Encode()
}

// seriesDetails adds a series to the details form: its rule carried along, the choice of what
// to do with dates not free, and the dates themselves.
func (s *Site) seriesDetails(r *http.Request, st step, form *ui.Form, v *ui.SiteDetailsView, start time.Time) {
	p := i18n.From(r.Context())
	if form.Get("repeat_mode") == "" {
		form.Set("repeat_mode", booking.SeriesFreeOnes)
	}
	for _, name := range repeatFields {
		v.Hidden = append(v.Hidden, ui.SiteHidden{Name: name, Value: form.Get(name)})
	}
	v.Modes = []ui.Option{
		{Value: booking.SeriesFreeOnes, Label: p.T("site.repeat.free_ones")},
		{Value: booking.SeriesAllOrNothing, Label: p.T("site.repeat.all_or_nothing")},
	}
	v.RepeatURL = ""
	rep := readRepeat(p, ui.NewForm(form.Values)) // its problems are the POST's to report
	if start.IsZero() {
		return
	}
	if occ, err := booking.CheckSeries(r.Context(), s.db, s.now(), seriesRequest(st, start, rep, 0)); err == nil {
		v.Summary.Dates = occurrenceViews(p, st, occ)
	}
}

// bookSeries is the POST of a details form that repeats: the rule and mode checked, then
// reserve.BookSeries. All or nothing with a date taken refuses (409) naming the dates; the
// free ones books the rest. The visitor lands on the first date's manage page.
func (s *Site) bookSeries(w http.ResponseWriter, r *http.Request, st step, form *ui.Form, in clients.Input, start time.Time, nonce string) {
	p := i18n.From(r.Context())
	again := func(status int) {
		v := s.detailsView(r, st, form)
		v.Start = start.Format(time.RFC3339)
		v.Summary.When = when(p, start.In(st.loc.zone))
		s.seriesDetails(r, st, form, &v, start)
		s.render(w, r, status, ui.SiteDetails(s.detailsPage(r, st), v))
	}
	if !repeatOffered(r, st) {
		s.renderError(w, r, errNotFound)
		return
	}
	rep := readRepeat(p, form)
	mode := form.Get("repeat_mode")
	if mode != booking.SeriesFreeOnes && mode != booking.SeriesAllOrNothing {
		form.SetError("repeat_mode", p.T("site.repeat.mode.error"))
	}
	if !form.OK() {
		again(http.StatusUnprocessableEntity)
		return
	}
	res, _, err := reserve.BookSeries(r.Context(), s.db, s.now(), reserve.SeriesRequest{
		Customer: reserve.Customer{Client: in, Channel: channelOf(form)}, LocationID: st.loc.id, ServiceID: st.svc.id,
		ProviderID: st.provider, Start: start, Repeat: rep, Mode: mode, Nonce: nonce,
	})
	var fields clients.Errors
	var unavailable *booking.SeriesUnavailableError
	var inv *booking.InvalidError
	switch {
	case errors.As(err, &unavailable):
		dates := make([]string, len(unavailable.Dates))
		for i, d := range unavailable.Dates {
			dates[i] = p.DateLong(noon(d))
		}
		form.SetError("repeat_mode", p.T("site.repeat.refused_dates", "dates", strings.Join(dates, "; ")))
		again(http.StatusConflict)
		return
	case errors.As(err, &fields):
		s.clientErrors(p, form, fields)
		again(http.StatusUnprocessableEntity)
		return
	case errors.Is(err, reserve.ErrHoldRequired):
		form.Message = p.T("site.repeat.hold")
		again(http.StatusUnprocessableEntity)
		return
	case errors.As(err, &inv):
		form.Message = p.T("site.repeat.refused")
		again(http.StatusUnprocessableEntity)
		return
	case fail.CodeOf(err) == fail.CodeConflict:
		s.renderTaken(w, r, st, form, start)
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, managelink.Path(res.Token)+"?done=booked")
}
