package admin

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"frontdesk/app/booking"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → "Why is this time not offered?": the owner names a provider and a start time and
// gets the first rule of the slot engine that removes it, exactly as GET /v3/available_slots
// applies them (booking.ExplainAt). It only reads, so the form is a GET and an answer can be
// linked to.

// reasonTitles say the engine's reason codes in words, for titles an owner reads (never the
// code itself).
var reasonTitles = map[booking.ReasonCode]i18n.Msg{
	booking.ReasonOK:                i18n.M("explain.title.ok"),
	booking.ReasonClosed:            i18n.M("explain.title.closed"),
	booking.ReasonOutsideHours:      i18n.M("explain.title.outside_hours"),
	booking.ReasonNotWorking:        i18n.M("explain.title.not_working"),
	booking.ReasonBreak:             i18n.M("explain.title.break"),
	booking.ReasonOffGrid:           i18n.M("explain.title.off_grid"),
	booking.ReasonTimeOff:           i18n.M("explain.title.time_off"),
	booking.ReasonCalendar:          i18n.M("explain.title.calendar"),
	booking.ReasonBooked:            i18n.M("explain.title.booked"),
	booking.ReasonBuffer:            i18n.M("explain.title.buffer"),
	booking.ReasonNotice:            i18n.M("explain.title.notice"),
	booking.ReasonBeyondAdvance:     i18n.M("explain.title.beyond_advance"),
	booking.ReasonServiceNotOffered: i18n.M("explain.title.service_not_offered"),
	booking.ReasonUnknownProvider:   i18n.M("explain.title.unknown_provider"),
	booking.ReasonInvalidSchedule:   i18n.M("explain.title.invalid_schedule"),
	booking.ReasonLocationInactive:  i18n.M("explain.title.location_inactive"),
	booking.ReasonServiceInactive:   i18n.M("explain.title.service_inactive"),
	booking.ReasonProviderInactive:  i18n.M("explain.title.provider_inactive"),
	booking.ReasonNotOnline:         i18n.M("explain.title.not_online"),
}

// explainFields are the question's fields.
var explainFields = []string{"location", "service", "provider", "date", "time", "offset"}

func (a *Admin) explainSlot(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range explainFields {
		f.Set(name, q.Get(name))
	}
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := a.db.R.AdminBookingServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	loc, haveLocation := pickLocation(locs, queryID(q, "location"))
	if haveLocation {
		f.Set("location", idText(loc.ID))
	}
	providers, err := a.bookingProviders(ctx, loc.ID, queryID(q, "provider"))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ExplainView{
		Form:      f,
		Locations: locationOptions(r, locs, ""),
		Services:  serviceOptions(r, services, translate(r, "explain.no_service")),
		Providers: providerOptions(r, providers, translate(r, "bookings.choose_provider"), queryID(q, "provider"), true),
	}
	zone, zoneErr := booking.LoadZone(loc.Timezone)
	if f.Get("date") == "" && zoneErr == nil {
		f.Set("date", booking.DateOf(a.now().In(zone)).String())
	}
	if q.Get("provider") != "" || q.Get("time") != "" { // a question was asked
		status := http.StatusOK
		if v.Result, v.Offsets, err = a.explain(r, f, haveLocation, zoneErr == nil); err != nil {
			a.renderError(w, r, err)
			return
		}
		if !f.OK() {
			status = http.StatusUnprocessableEntity
		}
		a.render(w, r, status, ui.ExplainPage(a.page(r, translate(r, "bookings.tab.explain")), v))
		return
	}
	a.render(w, r, http.StatusOK, ui.ExplainPage(a.page(r, translate(r, "bookings.tab.explain")), v))
}

// explain answers the question on f, or records on f why it cannot be asked.
func (a *Admin) explain(r *http.Request, f *ui.Form, haveLocation, zoneKnown bool) (*ui.ExplainResult, []ui.Option, error) {
	ctx := r.Context()
	locationID, serviceID, providerID := formID(f, "location"), formID(f, "service"), formID(f, "provider")
	switch {
	case !haveLocation:
		f.SetError("location", translate(r, "bookings.choose_location.error"))
	case !zoneKnown:
		f.SetError("location", translate(r, "bookings.unknown_zone"))
	}
	if providerID == 0 {
		f.SetError("provider", translate(r, "bookings.choose_provider.error"))
	}
	if !f.OK() {
		return nil, nil, nil
	}
	loc, err := a.db.R.ScheduleLocation(ctx, locationID)
	if err != nil {
		return nil, nil, err
	}
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		return nil, nil, err
	}
	start, offsets, ok := bookingStart(ctx, f, zone)
	if !ok {
		return nil, offsets, nil
	}
	if err := a.needPolicies(ctx, f); err != nil || !f.OK() {
		return nil, offsets, err
	}
	reason, err := booking.ExplainAt(ctx, a.db, locationID, serviceID, providerID, start, a.now())
	var nf *booking.NotFoundError
	if errors.As(err, &nf) {
		f.SetError(nf.Resource, notFoundText(ctx, nf.Resource))
		return nil, offsets, nil
	} else if err != nil {
		return nil, nil, err
	}
	p := i18n.From(ctx)
	res := &ui.ExplainResult{Code: string(reason.Code), Title: reasonTitle(ctx, reason.Code), Message: p.Msg(reason.Msg), Offered: reason.Code == booking.ReasonOK}
	if res.Offered && serviceID != 0 {
		res.BookURL = "/bookings/new?" + url.Values{
			"location": {idText(locationID)}, "service": {idText(serviceID)}, "provider": {idText(providerID)},
			"date": {f.Get("date")}, "time": {f.Get("time")}, "offset": {start.Format("-07:00")},
		}.Encode()
	}
	return res, offsets, nil
}

// reasonTitle is the title of a reason code in the request's language.
func reasonTitle(ctx context.Context, code booking.ReasonCode) string {
	if title := classReasonTitle(ctx, code); title != "" {
		return title
	}
	if m, ok := reasonTitles[code]; ok {
		return i18n.From(ctx).Msg(m)
	}
	return i18n.T(ctx, "explain.title.other")
}

// classReasonTitle says the reasons only classes give (docs/classes.md) in the owner's language.
func classReasonTitle(ctx context.Context, code booking.ReasonCode) string {
	switch code {
	case booking.ReasonNotSessionTime:
		return i18n.T(ctx, "classes.explain.not_session_time")
	case booking.ReasonClassFull:
		return i18n.T(ctx, "classes.explain.class_full")
	case booking.ReasonSessionCancelled:
		return i18n.T(ctx, "classes.explain.session_cancelled")
	case booking.ReasonTeaching:
		return i18n.T(ctx, "classes.explain.class_session")
	}
	return ""
}
