package admin

import (
	"errors"
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/fail"
	"frontdesk/ui"
)

// Bookings → Waitlist: the clients waiting for a time to open (docs/visits.md, "Waitlist for
// appointments"), joined here for a client on the phone or at the desk and removed here, through
// booking.JoinAppointmentWaitlist and booking.LeaveAppointmentWaitlist — the functions
// /v3/appointment_waitlist and the booking site call. A cancel or a move that frees a suitable
// time sends each of the first waiting clients a claim link.

// apptWaitsShown bounds the list.
const apptWaitsShown = 200

// apptWaitDays is the range the form proposes.
const apptWaitDays = 14

func (a *Admin) showApptWaitlist(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ui.NewForm(nil)
	for _, name := range []string{"location", "service", "provider", "client", "client_q", "first_day", "last_day"} {
		f.Set(name, q.Get(name))
	}
	a.renderApptWaitlist(w, r, http.StatusOK, f)
}

func (a *Admin) renderApptWaitlist(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	ctx := r.Context()
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if f.Get("location") == "" {
		if loc, ok := pickLocation(locs, 0); ok {
			f.Set("location", idText(loc.ID))
		}
	}
	locationID := formID(f, "location")
	v := ui.ApptWaitlistView{Form: f, Locations: locationOptions(r, locs, "")}
	for _, l := range locs {
		if l.ID != locationID {
			continue
		}
		v.Zone = l.Timezone
		if zone, err := booking.LoadZone(l.Timezone); err == nil && f.Get("first_day") == "" {
			today := booking.DateOf(a.now().In(zone))
			f.Set("first_day", today.String())
			f.Set("last_day", today.AddDays(apptWaitDays-1).String())
		}
	}
	services, err := a.db.R.AdminBookingServices(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Services = append([]ui.Option{{Value: "", Label: translate(r, "bookings.choose_service")}}, serviceOptions(r, services, "")...)
	providers, err := a.bookingProviders(ctx, locationID, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Providers = providerOptions(r, providers, translate(r, "visits.anyone"), 0, false)
	if v.Clients, v.ClientNote, err = a.clientOptions(ctx, f); err != nil {
		a.renderError(w, r, err)
		return
	}
	rows, err := a.db.R.AdminAppointmentWaits(ctx, apptWaitsShown)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, x := range rows {
		e := ui.ApptWaitEntry{
			ID: x.ID, Client: x.FirstName + " " + x.LastName.String, ClientURL: "/clients/" + idText(x.ClientID),
			Service: x.ServiceName, Provider: x.ProviderName, Location: x.LocationName,
			Days: x.FirstDay + " – " + x.LastDay, RemoveURL: "/bookings/waitlist/" + idText(x.ID) + "/remove",
		}
		if e.Provider == "" {
			e.Provider = translate(r, "visits.anyone")
		}
		v.Entries = append(v.Entries, e)
	}
	a.render(w, r, status, ui.ApptWaitlistPage(a.page(r, translate(r, "apptwait.title")), v))
}

// joinApptWaitlist records the form's wait; what the rules refuse comes back on the form.
func (a *Admin) joinApptWaitlist(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	wr := booking.WaitRequest{Source: booking.SourceAdmin, ProviderID: formID(f, "provider")}
	for name, dst := range map[string]*int64{"location": &wr.LocationID, "service": &wr.ServiceID, "client": &wr.ClientID} {
		if *dst = formID(f, name); *dst == 0 {
			f.SetError(name, chooseText(r, name))
		}
	}
	for name, dst := range map[string]*booking.Date{"first_day": &wr.First, "last_day": &wr.Last} {
		d, err := booking.ParseDate(f.Get(name))
		if err != nil {
			f.SetError(name, translate(r, "apptwait.day.error"))
		}
		*dst = d
	}
	if !f.OK() {
		a.renderApptWaitlist(w, r, invalid, f)
		return
	}
	_, err = booking.JoinAppointmentWaitlist(r.Context(), a.db, a.now(), wr)
	var inv *booking.InvalidError
	fe, isFail := fail.As(err)
	switch {
	case errors.As(err, &inv) && inv.Field == "client_id":
		f.SetError("client", translate(r, "apptwait.already"))
	case errors.As(err, &inv) && (inv.Field == "first_date" || inv.Field == "last_date"):
		f.SetError("last_day", translate(r, "apptwait.range.error"))
	case errors.As(err, &inv):
		f.Message = translate(r, "apptwait.not_offered")
	case isFail && fe.Code == fail.CodeNotFound:
		f.Message = notFoundText(r.Context(), fe.Reason)
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "apptwait.joined"))
		seeOther(w, r, "/bookings/waitlist")
		return
	}
	a.renderApptWaitlist(w, r, invalid, f)
}

// leaveApptWaitlist takes a client off the waitlist.
func (a *Admin) leaveApptWaitlist(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if _, err := booking.LeaveAppointmentWaitlist(r.Context(), a.db, a.now(), id); fail.CodeOf(err) == fail.CodeNotFound {
		a.renderError(w, r, errpage.NotFound)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "apptwait.removed"))
	seeOther(w, r, "/bookings/waitlist")
}
