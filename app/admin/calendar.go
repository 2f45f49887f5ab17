package admin

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The bookings calendar beyond the day grid (dayview*.go): a week (calendar_week.go) and an
// agenda (calendar_agenda.go). Both read a location's days through loadCalendar and draw each
// provider's day as the same list of items: bookings, class sessions as one block with their
// seats, breaks and time off. Working time is the engine's (booking.WorkingTime).

// keyCalendarView is the session key of the calendar view the person last looked at.
const keyCalendarView = "calendar_view"

// calendarViews are the calendar's views by name, as remembered and linked.
var calendarViews = map[string]string{"day": "/bookings/day", "week": "/bookings/week", "agenda": "/bookings/agenda"}

// showCalendar sends the person to the calendar view they last used (the day view at first),
// with the query they asked for.
func (a *Admin) showCalendar(w http.ResponseWriter, r *http.Request) {
	path, ok := calendarViews[a.sessions.GetString(r.Context(), keyCalendarView)]
	if !ok {
		path = calendarViews["day"]
	}
	if q := r.URL.RawQuery; q != "" {
		path += "?" + q
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

// rememberView keeps the view the person is looking at for the Calendar tab.
func (a *Admin) rememberView(r *http.Request, name string) {
	if a.sessions.GetString(r.Context(), keyCalendarView) != name {
		a.sessions.Put(r.Context(), keyCalendarView, name)
	}
}

// calendar is a location's run of days: per provider and day, what the views draw.
type calendar struct {
	zone      *time.Location
	days      []booking.Date
	today     booking.Date
	now       time.Time
	providers []ui.DayProvider
	// cells[p][d] is provider p's day d.
	cells [][]calendarDay
}

type calendarDay struct {
	entries []calendarEntry // bookings and class sessions in start order
	working []booking.Interval
	timeOff []calendarTimeOff
}

type calendarEntry struct {
	start, end time.Time
	booking    *db.AdminDayBookingsRow
	session    *ui.DaySession
}

type calendarTimeOff struct {
	start, end time.Time
	reason     string
}

// loadCalendar reads the location's days first … first+n-1: its providers (only that one when
// only is not 0), their non-cancelled bookings and class sessions, working time and time off.
func (a *Admin) loadCalendar(r *http.Request, locationID int64, zone *time.Location, first booking.Date, n int, only int64) (calendar, error) {
	ctx := r.Context()
	now := a.now()
	c := calendar{zone: zone, now: now, today: booking.DateOf(now.In(zone))}
	for i := range n {
		c.days = append(c.days, first.AddDays(i))
	}
	from, to := booking.DayStart(zone, first), booking.DayStart(zone, first.AddDays(n))
	rows, err := a.db.R.AdminDayBookings(ctx, db.AdminDayBookingsParams{LocationID: locationID, FromMs: db.Millis(from), ToMs: db.Millis(to)})
	if err != nil {
		return c, err
	}
	sessions, seated, err := a.daySessions(r, locationID, zone, from, to, "")
	if err != nil {
		return c, err
	}
	providers, err := a.db.R.AdminBookingProviders(ctx, locationID)
	if err != nil {
		return c, err
	}
	col := map[int64]int{}
	add := func(id int64, name string, active bool) {
		if _, ok := col[id]; !ok && (only == 0 || id == only) {
			col[id] = len(c.providers)
			c.providers = append(c.providers, ui.DayProvider{ID: id, Name: name, Inactive: !active})
		}
	}
	rows = slices.DeleteFunc(rows, func(b db.AdminDayBookingsRow) bool {
		return seated[b.ID] || b.StatusID == booking.StatusCancelled
	})
	booked := map[int64]bool{}
	for _, b := range rows {
		booked[b.ProviderID] = true
	}
	for _, p := range providers {
		if p.Active || booked[p.ID] || p.ID == only {
			add(p.ID, p.PublicName, p.Active)
		}
	}
	for _, b := range rows {
		add(b.ProviderID, b.ProviderName, b.ProviderActive)
	}
	for _, s := range sessions {
		if !s.session.Cancelled {
			add(s.provider, s.providerName, s.providerActive)
		}
	}
	c.cells = make([][]calendarDay, len(c.providers))
	for i := range c.cells {
		c.cells[i] = make([]calendarDay, n)
	}
	day := func(t time.Time) int { return c.dayIndex(booking.DateOf(t.In(zone))) }
	put := func(provider int64, e calendarEntry) {
		p, ok := col[provider]
		if d := day(e.start); ok && d >= 0 {
			c.cells[p][d].entries = append(c.cells[p][d].entries, e)
		}
	}
	for i := range rows {
		b := &rows[i]
		put(b.ProviderID, calendarEntry{start: db.Time(b.StartAt).In(zone), end: db.Time(b.EndAt).In(zone), booking: b})
	}
	for _, s := range sessions {
		if !s.session.Cancelled {
			put(s.provider, calendarEntry{start: s.start, end: s.end, session: s.session})
		}
	}
	for p := range c.cells {
		for d := range c.cells[p] {
			slices.SortStableFunc(c.cells[p][d].entries, func(x, y calendarEntry) int { return x.start.Compare(y.start) })
		}
	}
	if len(c.providers) == 0 {
		return c, nil
	}
	ids := make([]int64, len(c.providers))
	for i, p := range c.providers {
		ids[i] = p.ID
	}
	for d, date := range c.days {
		working, err := booking.WorkingTime(ctx, a.db.R, locationID, ids, date)
		if err != nil {
			return c, err
		}
		for p, id := range ids {
			c.cells[p][d].working = working[id]
		}
	}
	off, err := a.db.R.AdminCalendarTimeOff(ctx, db.AdminCalendarTimeOffParams{LocationID: locationID, FromMs: db.Millis(from), ToMs: db.Millis(to)})
	if err != nil {
		return c, err
	}
	for _, t := range off {
		p, ok := col[t.ProviderID]
		if !ok {
			continue
		}
		start, end := db.Time(t.StartsAt).In(zone), db.Time(t.EndsAt).In(zone)
		for d, date := range c.days { // time off of several days shows on each of them
			lo, hi := booking.DayStart(zone, date), booking.DayStart(zone, date.AddDays(1))
			if start.Before(hi) && end.After(lo) {
				c.cells[p][d].timeOff = append(c.cells[p][d].timeOff, calendarTimeOff{start: later(start, lo), end: earlier(end, hi), reason: t.Reason})
			}
		}
	}
	return c, nil
}

func (c *calendar) dayIndex(d booking.Date) int {
	return slices.Index(c.days, d)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// items are provider p's day d as the views list it, in time order: bookings, sessions,
// breaks (the gaps inside working time), time off, and "now" on today.
func (c *calendar) items(r *http.Request, p, d int) []ui.CalItem {
	ctx := r.Context()
	pr := i18n.From(ctx)
	span := func(s, e time.Time) string { return pr.TimeOnce(s) + "–" + pr.TimeOnce(e) }
	type timed struct {
		at   time.Time
		item ui.CalItem
	}
	var out []timed
	cell := c.cells[p][d]
	for _, e := range cell.entries {
		if s := e.session; s != nil {
			out = append(out, timed{e.start, ui.CalItem{Kind: "session", ID: s.ID, Time: s.Time, Title: s.Class,
				Detail: translate(r, "calendar.seats", "booked", s.Booked, "capacity", s.Capacity), URL: ui.ClassSessionURL(s.ID)}})
			continue
		}
		b := e.booking
		it := ui.CalItem{Kind: "booking", ID: b.ID, Time: span(e.start, e.end), Title: clientName(b.ClientFirstName, b.ClientLastName),
			Detail: b.ServiceName, URL: ui.BookingURL(b.ID)}
		if b.StatusID != booking.StatusConfirmed {
			it.Badge = bookingStatusName(ctx, b.StatusID)
		}
		out = append(out, timed{e.start, it})
	}
	for i := 1; i < len(cell.working); i++ {
		s, e := cell.working[i-1].End, cell.working[i].Start
		out = append(out, timed{s, ui.CalItem{Kind: "break", Time: span(s, e), Title: translate(r, "calendar.break")}})
	}
	for _, t := range cell.timeOff {
		out = append(out, timed{t.start, ui.CalItem{Kind: "timeoff", Time: span(t.start, t.end), Title: translate(r, "calendar.time_off"), Detail: t.reason}})
	}
	if c.days[d] == c.today {
		now := c.now.In(c.zone)
		out = append(out, timed{now, ui.CalItem{Kind: "now", Time: pr.TimeOnce(now), Title: translate(r, "calendar.now")}})
	}
	slices.SortStableFunc(out, func(x, y timed) int { return x.at.Compare(y.at) })
	items := make([]ui.CalItem, len(out))
	for i, t := range out {
		items[i] = t.item
	}
	return items
}

// hours is provider p's working time on day d in words ("09:00–12:00, 13:00–17:00"); "" when
// they do not work.
func (c *calendar) hours(r *http.Request, p, d int) string {
	pr := i18n.From(r.Context())
	var parts []string
	for _, w := range c.cells[p][d].working {
		parts = append(parts, pr.TimeOnce(w.Start)+"–"+pr.TimeOnce(w.End))
	}
	return strings.Join(parts, ", ")
}

// newBookingURL is the quick booking form filled in with the location, provider and date.
func newBookingURL(locationID, providerID int64, d booking.Date) string {
	q := url.Values{"location": {idText(locationID)}, "date": {d.String()}}
	if providerID != 0 {
		q.Set("provider", idText(providerID))
	}
	return "/bookings/quick?" + q.Encode()
}

// calendarURL is a calendar view's address for a location, date and provider (0: all).
func calendarURL(view string, locationID int64, d booking.Date, providerID int64) string {
	q := url.Values{"location": {idText(locationID)}, "date": {d.String()}}
	if providerID != 0 {
		q.Set("provider", idText(providerID))
	}
	return calendarViews[view] + "?" + q.Encode()
}

// calendarHere is the address of the view being shown (r's path) for another date, keeping
// its location, provider and — on a schedule — whether it shows a day or a week.
func calendarHere(r *http.Request, cq calendarQuery, d booking.Date) string {
	q := url.Values{"location": {idText(cq.loc.ID)}, "date": {d.String()}}
	if cq.provider != 0 {
		q.Set("provider", idText(cq.provider))
	}
	if v := r.URL.Query().Get("view"); v == "week" {
		q.Set("view", v)
	}
	return r.URL.Path + "?" + q.Encode()
}

// calendarQuery is what a week or agenda request asks for: the location (with its zone),
// a date and the provider (0: all). The nav's filter is filled in; ok is false when there is
// no location to show (the nav's Message says so).
type calendarQuery struct {
	loc      db.AdminBookingLocationsRow
	zone     *time.Location
	date     booking.Date
	provider int64
}

// readCalendarQuery reads the query of a week or agenda view. only, when not 0, fixes the
// provider: a provider's own schedule cannot show another's.
func (a *Admin) readCalendarQuery(r *http.Request, nav *ui.CalendarNav, only int64) (calendarQuery, bool, error) {
	ctx := r.Context()
	q := r.URL.Query()
	f := ui.NewForm(nil)
	nav.Filter = f
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		return calendarQuery{}, false, err
	}
	nav.Locations = locationOptions(r, locs, "")
	loc, ok := pickLocation(locs, queryID(q, "location"))
	if !ok {
		nav.Message = translate(r, "day.no_locations")
		return calendarQuery{}, false, nil
	}
	cq := calendarQuery{loc: loc, provider: only}
	f.Set("location", idText(loc.ID))
	if cq.zone, err = booking.LoadZone(loc.Timezone); err != nil {
		cq.zone = time.UTC
		nav.Notes = append(nav.Notes, translate(r, "day.unknown_zone", "zone", loc.Timezone))
	}
	cq.date = booking.DateOf(a.now().In(cq.zone))
	if s := q.Get("date"); s != "" {
		if d, err := booking.ParseDate(s); err == nil && d.Year >= 1970 && d.Year <= 9000 {
			cq.date = d
		} else {
			f.SetError("date", translate(r, "bookings.date.error"))
		}
	}
	f.Set("date", cq.date.String())
	providers, err := a.db.R.AdminBookingProviders(ctx, loc.ID)
	if err != nil {
		return calendarQuery{}, false, err
	}
	if only == 0 {
		if id := queryID(q, "provider"); slices.ContainsFunc(providers, func(p db.AdminBookingProvidersRow) bool { return p.ID == id }) {
			cq.provider = id
		}
		nav.Providers = providerOptions(r, providers, translate(r, "calendar.all_providers"), cq.provider, false)
	}
	nav.OnlyProvider = only != 0
	if cq.provider != 0 {
		f.Set("provider", idText(cq.provider))
	}
	nav.Zone = cq.zone.String()
	nav.DayURL = calendarURL("day", loc.ID, cq.date, 0)
	nav.WeekURL = calendarURL("week", loc.ID, cq.date, cq.provider)
	nav.AgendaURL = calendarURL("agenda", loc.ID, cq.date, cq.provider)
	if can(ctx, staff.Book) {
		nav.NewURL = newBookingURL(loc.ID, cq.provider, cq.date)
	}
	nav.ScheduleURL = scheduleURL(loc.ID, cq.date, cq.provider, false)
	return cq, true, nil
}
