package site

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/app/managelink"
	"frontdesk/app/payments"
	"frontdesk/app/reserve"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// A visit of several services (docs/visits.md, docs/booking-site.md "Several services in one
// visit"): the visitor chooses up to visitSteps services in order, each with the add-ons the
// business declares for it, and a provider who gives them all or anyone; the times are those
// of booking.VisitSlots and the booking is booking.BookVisit (through reserve.BookVisit) — the
// functions GET /v3/available_slots?service_ids=… and POST /v3/visits call.

// visitSteps is how many services the visit form offers (their add-on fields, a1…a4, are the
// site's multi-valued fields: middleware.go).
const visitSteps = 4

// visitAsk is a visit as the form asks it.
type visitAsk struct {
	loc      *location
	segments []booking.VisitSegment
	provider int64
	names    map[int64]service // the services and add-ons chosen, by id
}

// query is the ask as the URL carries it: s1…, a1… (add-ons), provider.
func (v visitAsk) query() url.Values {
	q := url.Values{"provider": {strconv.FormatInt(v.provider, 10)}}
	for i, g := range v.segments {
		q.Set(visitField("s", i+1), strconv.FormatInt(g.ServiceID, 10))
		for _, a := range g.AddOns {
			q.Add(visitField("a", i+1), strconv.FormatInt(a, 10))
		}
	}
	return q
}

func visitField(prefix string, i int) string { return prefix + strconv.Itoa(i) }

func visitPath(loc int64) string { return locationPath(loc) + "/visit" }

// visitServices are the services a visit may include at loc: not classes (booked as seats),
// not those paid online (a visit has no payment request of its own).
func (s *Site) visitServices(r *http.Request, loc *location) ([]service, error) {
	all, err := s.services(r.Context(), loc.id)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(slices.Clone(all), func(svc service) bool {
		return svc.class() || payments.MustPayOnline(svc.mode)
	}), nil
}

// readVisit reads the services, add-ons and provider a visit form names. A service the site
// does not offer in a visit, an add-on not declared for its service or a provider who does
// not give every service is a 404, as for the one-service steps.
func (s *Site) readVisit(r *http.Request, loc *location, vals url.Values) (visitAsk, []service, error) {
	offered, err := s.visitServices(r, loc)
	if err != nil {
		return visitAsk{}, nil, err
	}
	byID := map[int64]service{}
	for _, svc := range offered {
		byID[svc.id] = svc
	}
	ask := visitAsk{loc: loc, names: map[int64]service{}}
	for i := 1; i <= visitSteps; i++ {
		raw := vals.Get(visitField("s", i))
		if raw == "" {
			continue
		}
		id, err := strconv.ParseInt(raw, 10, 64)
		svc, ok := byID[id]
		if err != nil || !ok {
			return visitAsk{}, nil, errNotFound
		}
		g := booking.VisitSegment{ServiceID: id}
		declared, err := s.db.R.ServiceAddonIDs(r.Context(), id)
		if err != nil {
			return visitAsk{}, nil, err
		}
		for _, rawAddOn := range vals[visitField("a", i)] {
			a, err := strconv.ParseInt(rawAddOn, 10, 64)
			addOn, ok := byID[a]
			if err != nil || !ok || !slices.Contains(declared, a) {
				return visitAsk{}, nil, errNotFound
			}
			g.AddOns = append(g.AddOns, a)
			ask.names[a] = addOn
		}
		ask.names[id] = svc
		ask.segments = append(ask.segments, g)
	}
	if raw := vals.Get("provider"); raw != "" && raw != "0" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id < 1 {
			return visitAsk{}, nil, errNotFound
		}
		for _, g := range ask.segments {
			if _, err := s.providerName(r.Context(), loc, g.ServiceID, id); err != nil {
				return visitAsk{}, nil, err
			}
		}
		ask.provider = id
		for i := range ask.segments {
			ask.segments[i].ProviderID = id
		}
	}
	return ask, offered, nil
}

// visitProviders are anyone and the people who give every service asked at loc online.
func (s *Site) visitProviders(r *http.Request, ask visitAsk) ([]ui.Option, error) {
	out := []ui.Option{{Value: "0", Label: i18n.T(r.Context(), "site.providers.any")}}
	if len(ask.segments) == 0 {
		return out, nil
	}
	var common []db.SiteServiceProvidersRow
	for i, g := range ask.segments {
		provs, err := s.db.R.SiteServiceProviders(r.Context(), db.SiteServiceProvidersParams{LocationID: ask.loc.id, ServiceID: g.ServiceID})
		if err != nil {
			return nil, err
		}
		if i == 0 {
			common = provs
			continue
		}
		common = slices.DeleteFunc(common, func(p db.SiteServiceProvidersRow) bool {
			return !slices.ContainsFunc(provs, func(x db.SiteServiceProvidersRow) bool { return x.ID == p.ID })
		})
	}
	for _, p := range common {
		out = append(out, ui.Option{Value: strconv.FormatInt(p.ID, 10), Label: p.PublicName})
	}
	return out, nil
}

// visitSlots are the starts of the visit on local dates first…last (booking.VisitSlots, the
// customer flow's rules).
func (s *Site) visitSlots(r *http.Request, ask visitAsk, first, last booking.Date) ([]booking.VisitSlot, error) {
	return booking.VisitSlots(r.Context(), s.db, s.now(), ask.loc.id, ask.segments, first, last, booking.SourceOnline)
}

// showVisit is the visit step: the services, then the times the whole visit is offered.
func (s *Site) showVisit(w http.ResponseWriter, r *http.Request) {
	loc, err := s.locationParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	q := r.URL.Query()
	ask, offered, err := s.readVisit(r, loc, q)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteVisitView{Location: loc.name, Action: visitPath(loc.id), Form: ui.NewForm(q)}
	v.Services = []ui.Option{{Value: "", Label: p.T("site.visit.none")}}
	for _, svc := range offered {
		v.Services = append(v.Services, ui.Option{Value: strconv.FormatInt(svc.id, 10),
			Label: svc.name + " · " + duration(p, svc.durationMin) + " · " + price(p, svc.priceCents)})
	}
	for i := 1; i <= visitSteps; i++ {
		step := ui.SiteVisitStep{Field: visitField("s", i), Label: p.T("site.visit.service_n", "n", i), AddOnField: visitField("a", i)}
		if id, err := strconv.ParseInt(q.Get(step.Field), 10, 64); err == nil {
			declared, err := s.db.R.ServiceAddonIDs(r.Context(), id)
			if err != nil {
				s.renderError(w, r, err)
				return
			}
			for _, svc := range offered {
				if slices.Contains(declared, svc.id) {
					step.AddOns = append(step.AddOns, ui.Option{Value: strconv.FormatInt(svc.id, 10),
						Label: svc.name + " · " + duration(p, svc.durationMin) + " · " + price(p, svc.priceCents)})
				}
			}
		}
		v.Steps = append(v.Steps, step)
	}
	if v.Providers, err = s.visitProviders(r, ask); err != nil {
		s.renderError(w, r, err)
		return
	}
	page := s.page(r, p.T("site.visit.title"))
	page.Back = locationPath(loc.id)
	if len(ask.segments) == 0 {
		s.render(w, r, http.StatusOK, ui.SiteVisit(page, v))
		return
	}
	picker, total, err := s.visitPicker(r, ask)
	var inv *booking.InvalidError
	switch {
	case errors.As(err, &inv) || fail.CodeOf(err) == fail.CodeInvalid:
		v.Message = p.T("site.visit.not_offered")
	case err != nil:
		s.renderError(w, r, err)
		return
	default:
		v.Picker, v.Total = &picker, total
		if q.Get("gone") == "1" {
			v.Picker.Notice = p.T("site.times.gone")
		}
	}
	s.render(w, r, http.StatusOK, ui.SiteVisit(page, v))
}

// visitPicker is the fortnight of the visit's times from the query's `from`, the day asked
// (or the first with a time) selected, and the visit's total.
func (s *Site) visitPicker(r *http.Request, ask visitAsk) (ui.SiteTimesView, string, error) {
	p := i18n.From(r.Context())
	q := r.URL.Query()
	today := booking.DateOf(s.now().In(ask.loc.zone))
	from, err := booking.ParseDate(q.Get("from"))
	if err != nil || from.Before(today) {
		from = today
	}
	date, dateErr := booking.ParseDate(q.Get("date"))
	hasDate := dateErr == nil && !date.Before(today)
	if hasDate && (date.Before(from) || !date.Before(from.AddDays(pickerDays))) {
		from = date
	}
	last := from.AddDays(pickerDays - 1)
	slots, err := s.visitSlots(r, ask, from, last)
	if err != nil {
		return ui.SiteTimesView{}, "", err
	}
	byDay := map[booking.Date][]booking.VisitSlot{}
	for _, sl := range slots {
		d := booking.DateOf(sl.Start.In(ask.loc.zone))
		byDay[d] = append(byDay[d], sl)
	}
	if !hasDate {
		for d := from; !d.After(last); d = d.AddDays(1) {
			if len(byDay[d]) > 0 {
				date, hasDate = d, true
				break
			}
		}
	}
	link := func(from, date booking.Date) string {
		x := ask.query()
		x.Set("from", from.String())
		if date.IsValid() {
			x.Set("date", date.String())
		}
		return visitPath(ask.loc.id) + "?" + x.Encode()
	}
	v := ui.SiteTimesView{Range: p.Date(noon(from)) + " – " + p.Date(noon(last)), Zone: zoneLabel(p, ask.loc.zone, from)}
	for d := from; !d.After(last); d = d.AddDays(1) {
		n := len(byDay[d])
		day := ui.SiteDay{Weekday: p.WeekdayShort(d.Weekday()), Day: strconv.Itoa(d.Day), Count: n, Selected: hasDate && d == date}
		long := p.DateLong(noon(d))
		if n > 0 {
			day.URL = link(from, d)
			day.Spoken = p.T("site.times.day_free", "date", long, "count", n)
		} else {
			day.Spoken, day.Short = p.T("site.visit.day_none", "date", long), p.T("site.visit.none_short")
		}
		v.Days = append(v.Days, day)
	}
	if from.After(today) {
		prev := from.AddDays(-pickerDays)
		if prev.Before(today) {
			prev = today
		}
		v.PrevURL = link(prev, booking.Date{})
	}
	v.NextURL = link(last.AddDays(1), booking.Date{})
	total := ""
	if len(slots) > 0 {
		total = duration(p, int64(slots[0].End.Sub(slots[0].Start)/time.Minute)) + " · " + price(p, slots[0].PriceCents)
	}
	if !hasDate {
		v.Empty = true
		return v, total, nil
	}
	v.Zone = zoneLabel(p, ask.loc.zone, date)
	v.Date = p.DateLong(noon(date))
	var list []instant
	for _, sl := range byDay[date] {
		list = append(list, instant{start: sl.Start})
	}
	v.Times = timeViews(p, list, func(in instant) string {
		x := ask.query()
		x.Set("start", in.start.Format(time.RFC3339))
		return visitPath(ask.loc.id) + "/details?" + x.Encode()
	})
	return v, total, nil
}

// visitAt is the visit's slot starting at start, if the engine offers it.
func (s *Site) visitAt(r *http.Request, ask visitAsk, start time.Time) (booking.VisitSlot, bool, error) {
	day := booking.DateOf(start.In(ask.loc.zone))
	slots, err := s.visitSlots(r, ask, day, day)
	if err != nil {
		return booking.VisitSlot{}, false, err
	}
	for _, sl := range slots {
		if sl.Start.Equal(start) {
			return sl, true, nil
		}
	}
	return booking.VisitSlot{}, false, nil
}

// visitSummary describes a visit: every service with its provider and local times, the
// total length and price.
func visitSummary(p *i18n.Printer, ask visitAsk, sl booking.VisitSlot) ui.SiteSummary {
	sum := ui.SiteSummary{Location: ask.loc.name, Address: ask.loc.address,
		When:     when(p, sl.Start.In(ask.loc.zone)),
		Duration: duration(p, int64(sl.End.Sub(sl.Start)/time.Minute)), Price: price(p, sl.PriceCents)}
	for _, x := range sl.Parts {
		sum.Segments = append(sum.Segments, ui.SiteSegment{Service: ask.names[x.ServiceID].name, Provider: x.ProviderName, AddOn: x.AddOn,
			Time: p.TimeOnce(x.Start.In(ask.loc.zone)) + "–" + p.TimeOnce(x.End.In(ask.loc.zone))})
	}
	return sum
}

// visitDetailsView is the details form of a visit: the form of one booking, posting to the
// visit and carrying its services, add-ons and provider.
func (s *Site) visitDetailsView(r *http.Request, ask visitAsk, form *ui.Form) ui.SiteDetailsView {
	st := step{loc: ask.loc}
	v := s.detailsView(r, st, form)
	v.Action = visitPath(ask.loc.id) + "/details"
	v.Provider = strconv.FormatInt(ask.provider, 10)
	v.TimesURL = visitPath(ask.loc.id) + "?" + ask.query().Encode()
	v.PayNote, v.TopTarget, v.FeePolicy = "", false, nil
	for name, vals := range ask.query() {
		if name == "provider" {
			continue
		}
		for _, x := range vals {
			v.Hidden = append(v.Hidden, ui.SiteHidden{Name: name, Value: x})
		}
	}
	slices.SortStableFunc(v.Hidden, func(a, b ui.SiteHidden) int { return cmp.Compare(a.Name, b.Name) })
	return v
}

func (s *Site) visitDetailsPage(r *http.Request, ask visitAsk) ui.SitePage {
	page := s.page(r, i18n.T(r.Context(), "site.details.title"))
	page.Back = visitPath(ask.loc.id) + "?" + ask.query().Encode()
	return page
}

// showVisitDetails is the details step of a visit at the time chosen; a time no longer
// offered sends the visitor back to the visit's times.
func (s *Site) showVisitDetails(w http.ResponseWriter, r *http.Request) {
	loc, err := s.locationParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	q := r.URL.Query()
	ask, _, err := s.readVisit(r, loc, q)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	start, err := time.Parse(time.RFC3339, q.Get("start"))
	if err != nil || len(ask.segments) == 0 {
		s.renderError(w, r, errNotFound)
		return
	}
	sl, ok, err := s.visitAt(r, ask, start)
	if err != nil && fail.CodeOf(err) != fail.CodeInvalid {
		s.renderError(w, r, err)
		return
	}
	if !ok {
		back := ask.query()
		back.Set("date", booking.DateOf(start.In(loc.zone)).String())
		back.Set("gone", "1")
		http.Redirect(w, r, visitPath(loc.id)+"?"+back.Encode(), http.StatusFound)
		return
	}
	v := s.visitDetailsView(r, ask, ui.NewForm(nil))
	v.Start = start.Format(time.RFC3339)
	v.Summary = visitSummary(i18n.From(r.Context()), ask, sl)
	s.render(w, r, http.StatusOK, ui.SiteDetails(s.visitDetailsPage(r, ask), v))
}

// bookVisit is the POST of a visit's details: the form checked as for one booking, the time
// checked on the read side, then reserve.BookVisit (booking.BookVisit in the site's one
// transaction). A time taken meanwhile brings the form back (409) with the visit's times still
// free that day; a form submitted again books once.
func (s *Site) bookVisit(w http.ResponseWriter, r *http.Request) {
	loc, err := s.locationParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	ask, _, err := s.readVisit(r, loc, r.PostForm)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(ask.segments) == 0 {
		s.renderError(w, r, errNotFound)
		return
	}
	form := ui.NewForm(r.PostForm)
	if form.Raw("website") != "" {
		s.log.WarnContext(r.Context(), "booking site: honeypot filled, no visit booked")
		s.renderError(w, r, errRefused)
		return
	}
	nonce := form.Get("nonce")
	if !validNonce(nonce) {
		s.renderError(w, r, errUnreadable)
		return
	}
	p := i18n.From(r.Context())
	in := s.readDetails(r, step{loc: loc}, form)
	start, startErr := time.Parse(time.RFC3339, form.Get("start"))
	if startErr != nil {
		form.SetError("start", p.T("site.details.start.error"))
		s.renderVisitTaken(w, r, ask, form, s.now(), http.StatusUnprocessableEntity)
		return
	}
	sl, ok, err := s.visitAt(r, ask, start)
	if err != nil && fail.CodeOf(err) != fail.CodeInvalid {
		s.renderError(w, r, err)
		return
	}
	if !ok && !s.nonceUsed(r, nonce) {
		s.renderVisitTaken(w, r, ask, form, start, http.StatusConflict)
		return
	}
	if !form.OK() {
		v := s.visitDetailsView(r, ask, form)
		v.Start = start.Format(time.RFC3339)
		v.Summary = visitSummary(p, ask, sl)
		s.render(w, r, http.StatusUnprocessableEntity, ui.SiteDetails(s.visitDetailsPage(r, ask), v))
		return
	}
	res, err := reserve.BookVisit(r.Context(), s.db, s.now(), reserve.VisitRequest{
		Customer: reserve.Customer{Client: in, Channel: channelOf(form)}, LocationID: loc.id,
		Segments: ask.segments, Start: start, Nonce: nonce,
	})
	var fields clients.Errors
	switch code := fail.CodeOf(err); {
	case errors.As(err, &fields):
		s.clientErrors(p, form, fields)
		v := s.visitDetailsView(r, ask, form)
		v.Start = start.Format(time.RFC3339)
		v.Summary = visitSummary(p, ask, sl)
		s.render(w, r, http.StatusUnprocessableEntity, ui.SiteDetails(s.visitDetailsPage(r, ask), v))
		return
	case errors.Is(err, reserve.ErrHoldRequired):
		form.Message = p.T("site.visit.hold")
		v := s.visitDetailsView(r, ask, form)
		v.Start = start.Format(time.RFC3339)
		v.Summary = visitSummary(p, ask, sl)
		s.render(w, r, http.StatusUnprocessableEntity, ui.SiteDetails(s.visitDetailsPage(r, ask), v))
		return
	case code == fail.CodeConflict || code == fail.CodeInvalid:
		s.renderVisitTaken(w, r, ask, form, start, http.StatusConflict)
		return
	case err != nil:
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, managelink.Path(res.Token)+"?done=booked")
}

// renderVisitTaken brings a visit's form back with what was typed and the visit's times still
// free on the day of start to choose from.
func (s *Site) renderVisitTaken(w http.ResponseWriter, r *http.Request, ask visitAsk, form *ui.Form, start time.Time, status int) {
	p := i18n.From(r.Context())
	v := s.visitDetailsView(r, ask, form)
	v.Taken = true
	day := booking.DateOf(start.In(ask.loc.zone))
	v.Zone = zoneLabel(p, ask.loc.zone, day)
	v.Summary = ui.SiteSummary{Location: ask.loc.name, Address: ask.loc.address}
	for _, g := range ask.segments {
		v.Summary.Segments = append(v.Summary.Segments, ui.SiteSegment{Service: ask.names[g.ServiceID].name})
	}
	if slots, err := s.visitSlots(r, ask, day, day); err == nil {
		var list []instant
		for _, sl := range slots {
			list = append(list, instant{start: sl.Start})
		}
		v.Alternatives = timeViews(p, list, func(instant) string { return "" })
	}
	back := ask.query()
	back.Set("date", day.String())
	v.TimesURL = visitPath(ask.loc.id) + "?" + back.Encode()
	s.render(w, r, status, ui.SiteDetails(s.visitDetailsPage(r, ask), v))
}
