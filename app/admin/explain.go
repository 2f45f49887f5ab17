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

// reasonTitles say the engine's reason codes in words.
var reasonTitles = map[booking.ReasonCode]string{
	booking.ReasonOK:                "Offered: clients can book this time",
	booking.ReasonClosed:            "The location is closed that day",
	booking.ReasonOutsideHours:      "Outside the location's opening hours",
	booking.ReasonNotWorking:        "Outside the provider's working hours",
	booking.ReasonBreak:             "During the provider's break",
	booking.ReasonOffGrid:           "Not on the slot grid",
	booking.ReasonTimeOff:           "The provider is off",
	booking.ReasonBooked:            "Already booked",
	booking.ReasonBuffer:            "Blocked by a buffer",
	booking.ReasonNotice:            "Too soon: minimum notice",
	booking.ReasonBeyondAdvance:     "Too far ahead: beyond the booking window",
	booking.ReasonServiceNotOffered: "The provider does not offer this service",
	booking.ReasonUnknownProvider:   "The provider does not work at this location",
	booking.ReasonInvalidSchedule:   "The stored schedule is inconsistent",
	booking.ReasonLocationInactive:  "The location is inactive",
	booking.ReasonServiceInactive:   "The service is inactive",
	booking.ReasonProviderInactive:  "The provider is inactive",
	booking.ReasonNotOnline:         "Not bookable online",
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
		Locations: locationOptions(locs, ""),
		Services:  serviceOptions(services, "No particular service (a generic slot)"),
		Providers: providerOptions(providers, "Choose a provider", queryID(q, "provider"), true),
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
		a.render(w, r, status, ui.ExplainPage(a.page(r, "Why not offered?"), v))
		return
	}
	a.render(w, r, http.StatusOK, ui.ExplainPage(a.page(r, "Why not offered?"), v))
}

// explain answers the question on f, or records on f why it cannot be asked.
func (a *Admin) explain(r *http.Request, f *ui.Form, haveLocation, zoneKnown bool) (*ui.ExplainResult, []ui.Option, error) {
	ctx := r.Context()
	locationID, serviceID, providerID := formID(f, "location"), formID(f, "service"), formID(f, "provider")
	switch {
	case !haveLocation:
		f.SetError("location", "Choose a location.")
	case !zoneKnown:
		f.SetError("location", "This location's time zone is not known to this program.")
	}
	if providerID == 0 {
		f.SetError("provider", "Choose a provider.")
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
	start, offsets, ok := bookingStart(f, zone)
	if !ok {
		return nil, offsets, nil
	}
	if err := a.needPolicies(ctx, f); err != nil || !f.OK() {
		return nil, offsets, err
	}
	reason, err := booking.ExplainAt(ctx, a.db, locationID, serviceID, providerID, start, a.now())
	var nf *booking.NotFoundError
	if errors.As(err, &nf) {
		f.SetError(nf.Resource, "This "+nf.Resource+" does not exist (any more).")
		return nil, offsets, nil
	} else if err != nil {
		return nil, nil, err
	}
	res := &ui.ExplainResult{Code: string(reason.Code), Title: reasonTitles[reason.Code], Message: asSentence(reason.Message), Offered: reason.Code == booking.ReasonOK}
	if title := classReasonTitle(ctx, reason.Code); title != "" {
		res.Title = title
	}
	if res.Title == "" {
		res.Title = string(reason.Code)
	}
	if res.Offered && serviceID != 0 {
		res.BookURL = "/bookings/new?" + url.Values{
			"location": {idText(locationID)}, "service": {idText(serviceID)}, "provider": {idText(providerID)},
			"date": {f.Get("date")}, "time": {f.Get("time")}, "offset": {start.Format("-07:00")},
		}.Encode()
	}
	return res, offsets, nil
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
