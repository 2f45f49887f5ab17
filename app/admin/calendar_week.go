package admin

import (
	"net/http"
	"net/url"

	"frontdesk/app/booking"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → Week: a location's seven days from Monday, a row per provider and a column per
// day; with a provider chosen, that provider's seven days alone.

func (a *Admin) showWeek(w http.ResponseWriter, r *http.Request) {
	a.rememberView(r, "week")
	a.renderWeek(w, r, scopedProvider(r.Context()))
}

// renderWeek answers a week view; only, when not 0, is the one provider it may show (a
// provider's own schedule), whatever the query says.
func (a *Admin) renderWeek(w http.ResponseWriter, r *http.Request, only int64) {
	title := translate(r, "calendar.week.title")
	v := ui.WeekView{Nav: ui.CalendarNav{Action: r.URL.Path}}
	cq, ok, err := a.readCalendarQuery(r, &v.Nav, only)
	if err != nil {
		a.renderError(w, r, err)
		return
	} else if !ok {
		a.render(w, r, http.StatusOK, ui.WeekPage(a.page(r, title), v))
		return
	}
	v, err = a.weekView(r, v, cq)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.WeekPage(a.page(r, title), v))
}

// weekStart is the Monday of d's week.
func weekStart(d booking.Date) booking.Date {
	return d.AddDays(-((int(d.Weekday()) + 6) % 7))
}

// weekView fills v with the week of cq's date.
func (a *Admin) weekView(r *http.Request, v ui.WeekView, cq calendarQuery) (ui.WeekView, error) {
	p := i18n.From(r.Context())
	first := weekStart(cq.date)
	c, err := a.loadCalendar(r, cq.loc.ID, cq.zone, first, 7, cq.provider)
	if err != nil {
		return v, err
	}
	here := func(d booking.Date) string { return calendarHere(r, cq, d) }
	last := first.AddDays(6)
	v.Nav.Title = cq.loc.Name + " · " + p.Date(booking.DayStart(cq.zone, first)) + " – " + p.Date(booking.DayStart(cq.zone, last))
	v.Nav.PrevURL, v.Nav.NextURL, v.Nav.TodayURL = here(first.AddDays(-7)), here(first.AddDays(7)), here(c.today)
	v.Nav.PrevLabel, v.Nav.NextLabel = translate(r, "calendar.week.prev"), translate(r, "calendar.week.next")
	for _, d := range c.days {
		t := booking.DayStart(cq.zone, d)
		v.Days = append(v.Days, ui.CalDay{Label: p.DayShort(t), URL: calendarURL("day", cq.loc.ID, d, 0), Today: d == c.today})
	}
	for i, pr := range c.providers {
		row := ui.WeekRow{Provider: pr, URL: here(cq.date), Cells: make([]ui.WeekCell, len(c.days))}
		if cq.provider == 0 {
			q := url.Values{"location": {idText(cq.loc.ID)}, "date": {cq.date.String()}, "provider": {idText(pr.ID)}}
			row.URL = r.URL.Path + "?" + q.Encode()
		}
		for d, date := range c.days {
			cell := ui.WeekCell{Hours: c.hours(r, i, d), Items: c.items(r, i, d), Date: date.String()}
			cell.Off = cell.Hours == ""
			if !cell.Off && !pr.Inactive && can(r.Context(), staff.Book) {
				cell.NewURL = newBookingURL(cq.loc.ID, pr.ID, date)
				cell.Label = translate(r, "calendar.book_on", "provider", pr.Name, "date", p.DateLong(booking.DayStart(cq.zone, date)))
			}
			row.Cells[d] = cell
		}
		v.Rows = append(v.Rows, row)
	}
	return v, nil
}
