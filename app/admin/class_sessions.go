package admin

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → a class session (docs/classes.md): its seats, attendees and waitlist. The owner
// adds and removes attendees, marks them attended or no-show, keeps a waitlist, resizes,
// cancels or restores the session. Everything goes through app/booking with the admin source:
// the owner is held to the seats and the no-double-booking rule, not to the customer policies.

func (a *Admin) showClassSession(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.renderClassSession(w, r, http.StatusOK, id, nil, "")
}

// renderClassSession shows session id; seats keeps a refused capacity form, message a refused
// action.
func (a *Admin) renderClassSession(w http.ResponseWriter, r *http.Request, status int, id int64, seats *ui.Form, message string) {
	v, err := a.classSessionView(r, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Message = message
	if seats != nil {
		v.Seats = seats
	}
	v.Search = ui.NewForm(nil)
	if q := searchText(r.URL.Query().Get("q")); q != "" && !v.Cancelled && can(r.Context(), staff.Book) {
		v.Search.Set("q", q)
		found, total, err := a.findClients(r.Context(), q, sql.NullBool{Bool: true, Valid: true}, 20, 0)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		for _, c := range found {
			v.Found = append(v.Found, ui.Option{Value: idText(c.ID), Label: clientLabel(c)})
		}
		v.SearchNote = translate(r, "classes.session.found", "count", total)
	}
	a.render(w, r, status, ui.ClassSessionPage(a.page(r, v.Class), v))
}

func (a *Admin) classSessionView(r *http.Request, id int64) (ui.ClassSessionView, error) {
	ctx := r.Context()
	s, err := a.db.R.AdminSession(ctx, id)
	if db.IsNotFound(err) || err == nil && !ownsProviderID(ctx, s.ProviderID) {
		return ui.ClassSessionView{}, errpage.NotFound
	} else if err != nil {
		return ui.ClassSessionView{}, err
	}
	zone, err := booking.LoadZone(s.Timezone)
	if err != nil {
		zone = time.UTC
	}
	p := i18n.From(ctx)
	start, end := db.Time(s.StartAt).In(zone), db.Time(s.EndAt).In(zone)
	v := ui.ClassSessionView{
		ID: s.ID, Class: s.ServiceName, Provider: s.ProviderName, Location: s.LocationName, Room: s.Room,
		When:   p.DateLong(start) + " · " + p.Time(start) + "–" + p.Time(end) + " (" + p.Offset(start) + ")",
		Booked: s.Booked, Capacity: s.Capacity, Cancelled: s.Status == booking.SessionCancelled,
		DayURL: dayURL(s.LocationID, booking.DateOf(start), s.ServiceID),
		Seats:  ui.NewForm(nil),
	}
	if s.OwnCapacity.Valid {
		v.Seats.Set("capacity", strconv.FormatInt(s.OwnCapacity.Int64, 10))
	}
	v.Seats.Set("room", s.Room)
	attendees, err := a.db.R.AdminSessionAttendees(ctx, []sql.NullInt64{{Int64: id, Valid: true}})
	if err != nil {
		return v, err
	}
	for _, at := range attendees {
		v.Attendees = append(v.Attendees, attendee(r, at))
	}
	entries, err := a.db.R.SessionWaitlist(ctx, id)
	if err != nil {
		return v, err
	}
	position := int64(0)
	for _, e := range entries {
		row := ui.SessionWaiting{ID: e.ID, Client: clientName(e.ClientFirstName, e.ClientLastName), Status: waitlistStatus(r, e.Status)}
		if e.Status == booking.WaitlistWaiting {
			position++
			row.Position = position
			v.Waiting++
		}
		v.Waitlist = append(v.Waitlist, row)
	}
	return v, nil
}

func attendee(r *http.Request, at db.AdminSessionAttendeesRow) ui.SessionAttendee {
	return ui.SessionAttendee{
		BookingID: at.ID, ClientID: at.ClientID, Client: clientName(at.ClientFirstName, at.ClientLastName),
		Status: bookingStatusName(r.Context(), at.StatusID), StatusID: at.StatusID, Pack: at.PackID.Valid,
	}
}

func waitlistStatus(r *http.Request, s string) string {
	switch s {
	case booking.WaitlistWaiting:
		return translate(r, "classes.waitlist.waiting")
	case booking.WaitlistBooked:
		return translate(r, "classes.waitlist.booked")
	case booking.WaitlistLeft:
		return translate(r, "classes.waitlist.left")
	}
	return translate(r, "classes.waitlist.skipped")
}

// sessionAction reads the session id and the posted form of an action on it.
func (a *Admin) sessionAction(w http.ResponseWriter, r *http.Request) (db.ClassSession, *ui.Form, bool) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return db.ClassSession{}, nil, false
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return db.ClassSession{}, nil, false
	}
	s, err := a.db.R.GetClassSession(r.Context(), id)
	if err != nil || !ownsProviderID(r.Context(), s.ProviderID) {
		a.renderError(w, r, errpage.NotFound)
		return db.ClassSession{}, nil, false
	}
	return s, f, true
}

// afterSessionAction redirects to where the action came from (the day view or the session page),
// with a flash saying what happened or why not.
func (a *Admin) afterSessionAction(w http.ResponseWriter, r *http.Request, s db.ClassSession, f *ui.Form, err error, done string) {
	switch msg, _, refused := classMessage(r, err); {
	case refused:
		a.flash(r.Context(), ui.FlashError, msg)
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, done)
	}
	seeOther(w, r, backTo(f, ui.ClassSessionURL(s.ID)))
}

// backTo is the local page an action returns to: the form's back, when it is the day view or
// a session page, else otherwise.
func backTo(f *ui.Form, otherwise string) string {
	back := f.Get("back")
	u, err := url.Parse(back)
	if err != nil || u.Host != "" || u.Scheme != "" || !(u.Path == "/bookings/day" || strings.HasPrefix(u.Path, "/bookings/sessions/")) {
		return otherwise
	}
	return u.RequestURI()
}

func (a *Admin) addAttendee(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	_, err := booking.Create(r.Context(), a.db, a.now(), booking.NewBooking{
		LocationID: s.LocationID, ServiceID: s.ServiceID, ProviderID: s.ProviderID, ClientID: formID(f, "client"),
		StatusID: booking.StatusConfirmed, Start: db.Time(s.StartAt), Source: booking.SourceAdmin,
	})
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.added"))
}

func (a *Admin) setAttendeeStatus(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	bookingID, err := a.attendeeOf(r, s)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	status := map[string]int64{"attended": booking.StatusAttended, "no_show": booking.StatusNoShow, "confirmed": booking.StatusConfirmed}[f.Get("status")]
	if status == 0 {
		a.renderError(w, r, errpage.FormUnreadable)
		return
	}
	_, err = booking.Update(r.Context(), a.db, a.now(), bookingID, booking.Change{StatusID: &status}, booking.SourceAdmin)
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.marked", "status", bookingStatusName(r.Context(), status)))
}

func (a *Admin) removeAttendee(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	bookingID, err := a.attendeeOf(r, s)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	err = booking.CancelWith(r.Context(), a.db, a.now(), bookingID, booking.CancelOptions{Source: booking.SourceAdmin})
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.removed"))
}

// attendeeOf is the {booking} of the URL, which must be a booking of session s.
func (a *Admin) attendeeOf(r *http.Request, s db.ClassSession) (int64, error) {
	id, err := pathID(r, "booking")
	if err != nil {
		return 0, err
	}
	b, err := a.db.R.GetBookingRow(r.Context(), id)
	if err != nil || !b.SessionID.Valid || b.SessionID.Int64 != s.ID {
		return 0, errpage.NotFound
	}
	return id, nil
}

func (a *Admin) addWaiting(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	_, err := booking.JoinWaitlist(r.Context(), a.db, a.now(), booking.JoinRequest{SessionID: s.ID, ClientID: formID(f, "client"), Source: booking.SourceAdmin})
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.waiting_added"))
}

func (a *Admin) removeWaiting(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	entry, err := pathID(r, "entry")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	e, err := a.db.R.GetWaitlistEntry(r.Context(), entry)
	if err != nil || e.SessionID != s.ID {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	err = booking.LeaveWaitlist(r.Context(), a.db, a.now(), entry)
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.waiting_removed"))
}

func (a *Admin) updateSessionSeats(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	capacity, room := formSeats(r, f)
	if f.OK() {
		err := booking.SetSessionSeats(r.Context(), a.db, a.now(), s.ID, capacity, room)
		if err == nil {
			a.flash(r.Context(), ui.FlashSuccess, translate(r, "classes.session.seats_saved"))
			seeOther(w, r, ui.ClassSessionURL(s.ID))
			return
		}
		if !classRefused(r, f, err) {
			a.renderError(w, r, err)
			return
		}
	}
	a.renderClassSession(w, r, http.StatusUnprocessableEntity, s.ID, f, "")
}

func (a *Admin) confirmCancelSession(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, err := a.classSessionView(r, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.CancelSessionPage(a.page(r, translate(r, "classes.session.cancel_title")), v))
}

func (a *Admin) cancelClassSession(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	n, err := booking.CancelSession(r.Context(), a.db, a.now(), s.ID)
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.cancelled_done", "count", n))
}

func (a *Admin) restoreClassSession(w http.ResponseWriter, r *http.Request) {
	s, f, ok := a.sessionAction(w, r)
	if !ok {
		return
	}
	err := booking.RestoreSession(r.Context(), a.db, a.now(), s.ID)
	a.afterSessionAction(w, r, s, f, err, translate(r, "classes.session.restored"))
}

// Packs on the client's page.

// clientPacks is the packs section of client id's page.
func (a *Admin) clientPacks(ctx context.Context, r *http.Request, id int64, f *ui.Form) (ui.ClientPacks, error) {
	v := ui.ClientPacks{ClientID: id, Form: f}
	if v.Form == nil {
		v.Form = ui.NewForm(nil)
	}
	rows, err := a.db.R.ClientPacks(ctx, db.ClientPacksParams{ClientID: id, Limit: 100, Offset: 0})
	if err != nil {
		return v, err
	}
	p := i18n.From(ctx)
	now := a.now()
	for _, row := range rows {
		pk := row.ClientPack
		pr := ui.PackRow{Service: row.ServiceName, Left: max(pk.SessionsTotal-row.Used, 0), Total: pk.SessionsTotal, Price: p.Money(pk.PriceCents)}
		if pk.ExpiresAt.Valid {
			pr.Expires = p.Date(db.Time(pk.ExpiresAt.Int64))
			pr.Expired = pk.ExpiresAt.Int64 <= db.Millis(now)
		}
		v.Rows = append(v.Rows, pr)
	}
	services, err := a.db.R.AdminPackServices(ctx)
	if err != nil {
		return v, err
	}
	for _, s := range services {
		if s.Active {
			label := translate(r, "classes.packs.option", "service", s.Name, "count", s.SessionCount, "price", p.Money(s.PriceCents))
			v.Services = append(v.Services, ui.Option{Value: idText(s.ID), Label: label})
		}
	}
	return v, nil
}

// recordPack credits a pack sold at the desk (at the service's price) to client id.
func (a *Admin) recordPack(w http.ResponseWriter, r *http.Request) {
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
	ctx := r.Context()
	svc, err := a.db.R.ScheduleService(ctx, formID(f, "pack_service"))
	if err != nil {
		a.flash(ctx, ui.FlashError, translate(r, "classes.packs.choose"))
		seeOther(w, r, "/clients/"+idText(id))
		return
	}
	_, err = booking.CreditPack(ctx, a.db, a.now(), booking.PackCredit{ClientID: id, ServiceID: svc.ID, PriceCents: svc.PriceCents})
	if msg, _, ok := classMessage(r, err); ok {
		a.flash(ctx, ui.FlashError, msg)
	} else if err != nil {
		a.renderError(w, r, err)
		return
	} else {
		a.flash(ctx, ui.FlashSuccess, translate(r, "classes.packs.recorded", "service", svc.Name))
	}
	seeOther(w, r, "/clients/"+idText(id))
}
