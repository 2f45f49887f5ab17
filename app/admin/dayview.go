package admin

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/input"
	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Bookings → Day: one location's day as a grid, a row per wall-clock time of the location's
// zone and a column per provider (dayview_grid.go builds it). Rows are wall times, not
// instants stepped from midnight: on a spring-forward day the skipped times have no row, on a
// fall-back day the repeated ones have two, each labelled with its zone abbreviation.

// dayRowMinutes is the grid's resolution.
const dayRowMinutes = 15

func (a *Admin) showDay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a.rememberView(r, "day")
	q := r.URL.Query()
	f := ui.NewForm(nil)
	v := ui.DayView{Filter: f}
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
	v.Locations = locationOptions(r, locs, "")
	v.Services = serviceOptions(r, services, translate(r, "day.no_service"))
	loc, ok := pickLocation(locs, queryID(q, "location"))
	if !ok {
		v.Message = translate(r, "day.no_locations")
		a.render(w, r, http.StatusOK, ui.DayPage(a.page(r, translate(r, "day.title")), v))
		return
	}
	f.Set("location", strconv.FormatInt(loc.ID, 10))
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		zone = time.UTC
		v.Notes = append(v.Notes, translate(r, "day.unknown_zone", "zone", loc.Timezone))
	}
	now := a.now()
	today := booking.DateOf(now.In(zone))
	date := today
	if s := q.Get("date"); s != "" {
		if d, err := booking.ParseDate(s); err == nil && d.Year >= 1970 && d.Year <= 9000 {
			date = d
		} else {
			f.SetError("date", translate(r, "bookings.date.error"))
		}
	}
	f.Set("date", date.String())
	serviceID := defaultService(services, q)
	// Without the owner's choice, free times are shown for a service that has some that day.
	var chosenFree []booking.Slot
	if !q.Has("service") {
		var none string
		if serviceID, chosenFree, none, err = a.serviceWithFreeTimes(r, loc.ID, services, date, now); err != nil {
			a.renderError(w, r, err)
			return
		}
		if none != "" {
			v.Notes = append(v.Notes, none)
		}
	}
	f.Set("service", strconv.FormatInt(serviceID, 10))
	// Links to other days keep a service the owner chose; the default is picked again there.
	linkService := serviceID
	if !q.Has("service") {
		linkService = 0
	}

	v.Location, v.Zone = loc.Name, zone.String()
	v.DateLabel = i18n.From(r.Context()).DateLong(booking.DayStart(zone, date))
	v.PrevURL = dayURL(loc.ID, date.AddDays(-1), linkService)
	v.NextURL = dayURL(loc.ID, date.AddDays(1), linkService)
	v.TodayURL = dayURL(loc.ID, today, linkService)
	v.WeekURL, v.AgendaURL = calendarURL("week", loc.ID, date, 0), calendarURL("agenda", loc.ID, date, 0)
	v.NewURL = "/bookings/new?" + url.Values{"location": {idText(loc.ID)}, "date": {date.String()}}.Encode()
	v.ExplainURL = "/bookings/explain?" + url.Values{"location": {idText(loc.ID)}, "service": {idText(serviceID)}, "date": {date.String()}}.Encode()
	if !can(ctx, staff.Book) {
		v.NewURL, v.ExplainURL = "", ""
	}
	if n := dayLengthNote(i18n.From(r.Context()), zone, date); n != "" {
		v.Notes = append(v.Notes, n)
	}

	g, err := a.loadDayGrid(r, loc.ID, zone, date, dayURL(loc.ID, date, serviceID))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if g.closed {
		v.Notes = append(v.Notes, translate(r, "day.closed"))
	}
	byResource := false
	if q.Get("by") == "resources" {
		if byResource, err = a.byResource(r, &g, loc.ID, date); err != nil {
			a.renderError(w, r, err)
			return
		}
		v.ByProviderURL = dayURL(loc.ID, date, linkService)
	} else if n, err := a.db.R.LocationResources(ctx, loc.ID); err != nil {
		a.renderError(w, r, err)
		return
	} else if len(n) > 0 {
		v.ByResourceURL = dayURL(loc.ID, date, linkService) + "&by=resources"
	}
	if serviceID != 0 && can(ctx, staff.Book) && !byResource { // free times are links to book them
		note, err := a.addFreeSlots(r, &g, loc.ID, serviceID, date, now, chosenFree)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		if note != "" {
			v.Notes = append(v.Notes, note)
		} else {
			// The free times here are the staff's, not what a client is offered: say so, since
			// the explainer linked beside them answers with the clients' rules.
			v.Notes = append(v.Notes, translate(r, "day.staff_rules"))
		}
	}
	g.fill(&v)
	a.render(w, r, http.StatusOK, ui.DayPage(a.page(r, translate(r, "day.title")), v))
}

// freeSlots are the engine's free start times of the service at the location on date, as the
// owner may book them: the owner is not held to the clients' notice and advance window, so
// those two policies are left out; everything else (hours, breaks, time off, bookings anywhere,
// buffers) applies. note says why there are none to look for (no business settings yet, an
// inactive location or service, a class), in the reader's language.
func (a *Admin) freeSlots(r *http.Request, locationID, serviceID int64, date booking.Date, now time.Time) (slots []booking.Slot, service, note string, err error) {
	ctx := r.Context()
	if _, err := a.db.R.SchedulePolicy(ctx); db.IsNotFound(err) {
		return nil, "", translate(r, "day.need_policies"), nil
	} else if err != nil {
		return nil, "", "", err
	}
	l, err := booking.LoadScheduleCached(ctx, a.db, booking.ScheduleQuery{LocationID: locationID, ServiceID: serviceID, First: date, Last: date})
	if err != nil {
		return nil, "", "", err
	}
	switch {
	case !l.Location.Active:
		return nil, l.Service.Name, translate(r, "day.location_inactive"), nil
	case !l.Service.Active:
		return nil, l.Service.Name, translate(r, "day.service_inactive", "service", l.Service.Name), nil
	case l.Schedule.Service.IsClass(): // a class is booked in its sessions, shown in the grid
		return nil, l.Service.Name, translate(r, "classes.day.class_note", "class", l.Service.Name), nil
	}
	s := l.Schedule
	s.Policy.MinNotice, s.Policy.MaxAdvance = 0, 0
	return booking.Slots(s, date, date, now), l.Service.Name, "", nil
}

// serviceWithFreeTimes picks the service the day view shows free times for when the owner has
// not chosen one: among the active services, the most booked at the location in the 90 days up
// to date (then by name) that has a free time that day, with those free times. When none has
// any it returns 0 and says so.
func (a *Admin) serviceWithFreeTimes(r *http.Request, locationID int64, services []db.AdminBookingServicesRow, date booking.Date, now time.Time) (int64, []booking.Slot, string, error) {
	ctx := r.Context()
	if _, err := a.db.R.SchedulePolicy(ctx); db.IsNotFound(err) {
		return defaultService(services, url.Values{}), nil, "", nil // freeSlots says what is missing
	} else if err != nil {
		return 0, nil, "", err
	}
	loc, err := a.db.R.ScheduleLocation(ctx, locationID)
	if err != nil {
		return 0, nil, "", err
	}
	if !loc.Active {
		return defaultService(services, url.Values{}), nil, "", nil // freeSlots says so
	}
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		zone = time.UTC
	}
	use, err := a.db.R.AdminLocationServiceUse(ctx, db.AdminLocationServiceUseParams{LocationID: locationID,
		FromMs: db.Millis(booking.DayStart(zone, date.AddDays(-90))), ToMs: db.Millis(booking.DayStart(zone, date.AddDays(1))),
		Cancelled: booking.StatusCancelled})
	if err != nil {
		return 0, nil, "", err
	}
	booked := map[int64]int64{}
	for _, u := range use {
		booked[u.ServiceID] = u.Bookings
	}
	candidates := slices.DeleteFunc(slices.Clone(services), func(s db.AdminBookingServicesRow) bool { return !s.Active })
	slices.SortStableFunc(candidates, func(x, y db.AdminBookingServicesRow) int { return cmp.Compare(booked[y.ID], booked[x.ID]) })
	for _, s := range candidates {
		slots, _, note, err := a.freeSlots(r, locationID, s.ID, date, now)
		if err != nil {
			return 0, nil, "", err
		}
		if note == "" && len(slots) > 0 {
			return s.ID, slots, "", nil
		}
	}
	return 0, nil, translate(r, "day.no_service_free"), nil
}

// addFreeSlots puts the service's free start times (freeSlots; known, when the default choice
// has just found them) into the grid, each a link to the quick booking form; it returns what the
// view should say when there are none.
func (a *Admin) addFreeSlots(r *http.Request, g *dayGrid, locationID, serviceID int64, date booking.Date, now time.Time, known []booking.Slot) (string, error) {
	p := i18n.From(r.Context())
	slots, service, note := known, "", ""
	if slots == nil {
		var err error
		if slots, service, note, err = a.freeSlots(r, locationID, serviceID, date, now); err != nil || note != "" {
			return note, err
		}
	}
	for _, sl := range slots {
		link := "/bookings/quick?" + url.Values{
			"location": {idText(locationID)}, "service": {idText(serviceID)}, "provider": {idText(sl.ProviderID)},
			"date": {date.String()}, "time": {p.Time(sl.Start)}, "offset": {sl.Start.Format("-07:00")},
		}.Encode()
		g.addSlot(sl.ProviderID, sl.Start, ui.DaySlot{
			Time: p.Time(sl.Start), URL: link,
			Label: translate(r, "day.book_slot", "provider", sl.ProviderName, "time", p.Time(sl.Start), "offset", i18n.Offset(sl.Start)),
		})
	}
	if len(slots) == 0 {
		return translate(r, "day.no_free", "service", service), nil
	}
	return "", nil
}

// dayLengthNote tells the owner when the clocks change on the day.
func dayLengthNote(p *i18n.Printer, zone *time.Location, d booking.Date) string {
	length := booking.DayStart(zone, d.AddDays(1)).Sub(booking.DayStart(zone, d))
	switch {
	case length < 24*time.Hour:
		return p.T("day.clocks_forward", "length", dayHoursText(p, length))
	case length > 24*time.Hour:
		return p.T("day.clocks_back", "length", dayHoursText(p, length))
	}
	return ""
}

func dayHoursText(p *i18n.Printer, d time.Duration) string {
	d = d.Round(time.Minute)
	text := p.T("duration.hours", "count", int64(d/time.Hour))
	if m := int64(d % time.Hour / time.Minute); m != 0 {
		text += " " + p.T("duration.minutes", "count", m)
	}
	return text
}

// wallInstants returns, in order, the instants at which zone's clocks read minute m (0–1439)
// of local date d: none in a spring-forward gap, two in a fall-back overlap, one otherwise.
func wallInstants(zone *time.Location, d booking.Date, m int) []time.Time {
	naive := time.Date(d.Year, d.Month, d.Day, m/60, m%60, 0, 0, time.UTC).Unix()
	var out []time.Time
	seen := map[int]bool{}
	// Every offset in use within 18 hours either side: a reading of naive is naive − offset
	// for one of them.
	for k := int64(-3); k <= 3; k++ {
		_, off := time.Unix(naive+k*6*3600, 0).In(zone).Zone()
		if seen[off] {
			continue
		}
		seen[off] = true
		t := time.Unix(naive-int64(off), 0).In(zone)
		if t.Year() == d.Year && t.Month() == d.Month && t.Day() == d.Day && t.Hour()*60+t.Minute() == m && t.Second() == 0 {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}

func dayURL(locationID int64, d booking.Date, serviceID int64) string {
	q := url.Values{"location": {idText(locationID)}, "date": {d.String()}}
	if serviceID != 0 {
		q.Set("service", idText(serviceID))
	}
	return "/bookings/day?" + q.Encode()
}

func idText(n int64) string { return strconv.FormatInt(n, 10) }

// queryID reads an id query parameter (canonical, input.ParseID); 0 when absent or not one.
func queryID(q url.Values, name string) int64 {
	n, _ := input.ParseID(q.Get(name))
	return n
}

// pickLocation is the location with id, or else the first active one, or else the first.
func pickLocation(locs []db.AdminBookingLocationsRow, id int64) (db.AdminBookingLocationsRow, bool) {
	if i := slices.IndexFunc(locs, func(l db.AdminBookingLocationsRow) bool { return l.ID == id }); i >= 0 {
		return locs[i], true
	}
	if i := slices.IndexFunc(locs, func(l db.AdminBookingLocationsRow) bool { return l.Active }); i >= 0 {
		return locs[i], true
	}
	if len(locs) > 0 {
		return locs[0], true
	}
	return db.AdminBookingLocationsRow{}, false
}

// defaultService is the service the query names (0: none asked for), or the first active one
// when the query does not say.
func defaultService(services []db.AdminBookingServicesRow, q url.Values) int64 {
	if !q.Has("service") {
		if i := slices.IndexFunc(services, func(s db.AdminBookingServicesRow) bool { return s.Active }); i >= 0 {
			return services[i].ID
		}
		return 0
	}
	id := queryID(q, "service")
	if slices.ContainsFunc(services, func(s db.AdminBookingServicesRow) bool { return s.ID == id }) {
		return id
	}
	return 0
}
