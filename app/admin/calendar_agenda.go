package admin

import (
	"net/http"

	"frontdesk/app/booking"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → Agenda: a location's day as a list per provider, made for phones; with a
// provider chosen, that provider's day alone, which is also what a provider's own schedule
// shows (renderAgenda's only).

func (a *Admin) showAgenda(w http.ResponseWriter, r *http.Request) {
	a.rememberView(r, "agenda")
	a.renderAgenda(w, r, scopedProvider(r.Context()))
}

// renderAgenda answers an agenda view; only, when not 0, is the one provider it may show (a
// provider's own schedule), whatever the query says.
func (a *Admin) renderAgenda(w http.ResponseWriter, r *http.Request, only int64) {
	title := translate(r, "calendar.agenda.title")
	v := ui.AgendaView{Nav: ui.CalendarNav{Action: r.URL.Path}}
	cq, ok, err := a.readCalendarQuery(r, &v.Nav, only)
	if err != nil {
		a.renderError(w, r, err)
		return
	} else if !ok {
		a.render(w, r, http.StatusOK, ui.AgendaPage(a.page(r, title), v))
		return
	}
	v, err = a.agendaView(r, v, cq)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.AgendaPage(a.page(r, title), v))
}

// agendaView fills v with cq's day.
func (a *Admin) agendaView(r *http.Request, v ui.AgendaView, cq calendarQuery) (ui.AgendaView, error) {
	p := i18n.From(r.Context())
	c, err := a.loadCalendar(r, cq.loc.ID, cq.zone, cq.date, 1, cq.provider)
	if err != nil {
		return v, err
	}
	here := func(d booking.Date) string { return calendarHere(r, cq, d) }
	v.Nav.Title = cq.loc.Name + " · " + p.DateLong(booking.DayStart(cq.zone, cq.date))
	v.Nav.PrevURL, v.Nav.NextURL, v.Nav.TodayURL = here(cq.date.AddDays(-1)), here(cq.date.AddDays(1)), here(c.today)
	v.Nav.PrevLabel, v.Nav.NextLabel = translate(r, "day.prev"), translate(r, "day.next")
	if n := dayLengthNote(p, cq.zone, cq.date); n != "" {
		v.Nav.Notes = append(v.Nav.Notes, n)
	}
	for i, pr := range c.providers {
		s := ui.AgendaSection{Provider: pr, Hours: c.hours(r, i, 0), Items: c.items(r, i, 0)}
		s.Off = s.Hours == ""
		if !s.Off && !pr.Inactive && can(r.Context(), staff.Book) {
			s.NewURL = newBookingURL(cq.loc.ID, pr.ID, cq.date)
		}
		v.Sections = append(v.Sections, s)
	}
	return v, nil
}
