package admin

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Catalog → Timetable (docs/classes.md): a location's weekly class entries, its coming one-off
// and cancelled sessions, and the forms that add to them; an entry's own page edits it,
// cancels one of its dates or deletes it. Every write goes through app/booking, which keeps
// the session rows in step.

func (a *Admin) showTimetable(w http.ResponseWriter, r *http.Request) {
	a.renderTimetable(w, r, http.StatusOK, nil, nil)
}

// renderTimetable shows the timetable of the location the query (or a failed form) names;
// weekly and oneOff keep what the owner typed into a form that was refused.
func (a *Admin) renderTimetable(w http.ResponseWriter, r *http.Request, status int, weekly, oneOff *ui.Form) {
	ctx := r.Context()
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	id := queryID(r.URL.Query(), "location")
	if weekly != nil {
		id = formID(weekly, "location")
	} else if oneOff != nil {
		id = formID(oneOff, "location")
	}
	v := ui.TimetableView{Filter: ui.NewForm(nil), Locations: locationOptions(r, locs, "")}
	title := translate(r, "classes.timetable.title")
	loc, ok := pickLocation(locs, id)
	if !ok {
		a.render(w, r, status, ui.TimetablePage(a.page(r, title), v))
		return
	}
	v.Filter.Set("location", idText(loc.ID))
	v.LocationID, v.Location, v.Zone = loc.ID, loc.Name, loc.Timezone
	zone, err := booking.LoadZone(loc.Timezone)
	if err != nil {
		zone = time.UTC
	}
	p := i18n.From(ctx)
	entries, err := a.db.R.LocationTimetable(ctx, loc.ID)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, e := range entries {
		capacity := strconv.FormatInt(e.ServiceCapacity, 10)
		if e.Capacity.Valid {
			capacity = strconv.FormatInt(e.Capacity.Int64, 10)
		}
		v.Entries = append(v.Entries, ui.TimetableRow{
			ID: e.ID, Day: p.Weekday(time.Weekday(e.DayID)), Start: p.Clock(int(e.StartMin/60), int(e.StartMin%60)),
			Class: e.ServiceName, Provider: e.ProviderName, Capacity: capacity, Room: e.Room.String, Valid: validText(p, e.ValidFrom, e.ValidTo.String),
		})
	}
	special, err := a.db.R.AdminSpecialSessions(ctx, db.AdminSpecialSessionsParams{LocationID: loc.ID, FromMs: db.Millis(a.now().Add(-24 * time.Hour))})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	for _, s := range special {
		at := db.Time(s.StartAt).In(zone)
		v.Special = append(v.Special, ui.SpecialSession{
			ID: s.ID, When: p.DayShort(at) + " " + p.Time(at), Class: s.ServiceName, Provider: s.ProviderName,
			Booked: s.Booked, Cancelled: s.Status == booking.SessionCancelled, OneOff: !s.TimetableID.Valid,
		})
	}
	if v.Choices, err = a.timetableChoices(ctx, r, loc.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	v.NoClasses = len(v.Choices.Classes) <= 1
	v.Weekly, v.OneOff = weekly, oneOff
	if v.Weekly == nil {
		v.Weekly = ui.NewForm(nil)
		v.Weekly.Set("valid_from", booking.DateOf(a.now().In(zone)).String())
	}
	if v.OneOff == nil {
		v.OneOff = ui.NewForm(nil)
	}
	a.render(w, r, status, ui.TimetablePage(a.page(r, title), v))
}

// validText is an entry's dates: "from 24 Nov 2026", or "24 Nov 2026 – 31 Dec 2026".
func validText(p *i18n.Printer, from, to string) string {
	f, err := booking.ParseDate(from)
	if err != nil {
		return from
	}
	day := func(d booking.Date) string { return p.Date(time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC)) }
	t, err := booking.ParseDate(to)
	if err != nil {
		return p.T("classes.timetable.from", "date", day(f))
	}
	return day(f) + " – " + day(t)
}

// timetableChoices are the selects: the classes, the providers who work at the location, the
// weekdays from Monday.
func (a *Admin) timetableChoices(ctx context.Context, r *http.Request, locationID int64) (ui.TimetableChoices, error) {
	var c ui.TimetableChoices
	classes, err := a.db.R.AdminClassServices(ctx)
	if err != nil {
		return c, err
	}
	c.Classes = []ui.Option{{Value: "", Label: translate(r, "classes.choose_class")}}
	for _, s := range classes {
		label := s.Name
		if !s.Active {
			label += " (" + translate(r, "classes.inactive") + ")"
		}
		c.Classes = append(c.Classes, ui.Option{Value: idText(s.ID), Label: label})
	}
	providers, err := a.db.R.AdminBookingProviders(ctx, locationID)
	if err != nil {
		return c, err
	}
	c.Providers = []ui.Option{{Value: "", Label: translate(r, "classes.choose_provider")}}
	for _, p := range providers {
		c.Providers = append(c.Providers, ui.Option{Value: idText(p.ID), Label: p.PublicName})
	}
	p := i18n.From(ctx)
	for _, d := range []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday} {
		c.Days = append(c.Days, ui.Option{Value: strconv.Itoa(int(d)), Label: p.Weekday(d)})
	}
	return c, nil
}

// timetableInput reads a weekly entry's form, recording problems on f.
func timetableInput(r *http.Request, f *ui.Form) booking.TimetableInput {
	in := booking.TimetableInput{LocationID: formID(f, "location"), ServiceID: formID(f, "service"), ProviderID: formID(f, "provider")}
	if in.ServiceID == 0 {
		f.SetError("service", translate(r, "classes.error.choose_class"))
	}
	if in.ProviderID == 0 {
		f.SetError("provider", translate(r, "classes.error.choose_provider"))
	}
	day, err := strconv.Atoi(f.Get("day"))
	if err != nil || day < 0 || day > 6 {
		f.SetError("day", translate(r, "classes.timetable.error.day"))
	}
	in.Weekday = time.Weekday(day)
	in.StartMin = formClock(r, f, "start")
	in.Capacity, in.Room = formSeats(r, f)
	from, err := booking.ParseDate(f.Get("valid_from"))
	if err != nil {
		f.SetError("valid_from", translate(r, "classes.timetable.error.date"))
	}
	in.ValidFrom = from
	if s := f.Get("valid_to"); s != "" {
		to, err := booking.ParseDate(s)
		if err != nil {
			f.SetError("valid_to", translate(r, "classes.timetable.error.date"))
		}
		in.ValidTo = &to
	}
	return in
}

// formClock reads a time-of-day field (on the business's clock) as minutes after midnight.
func formClock(r *http.Request, f *ui.Form, name string) int {
	m, _ := readClock(r.Context(), f, name)
	return m
}

// formSeats reads the optional capacity (empty: the class's) and room.
func formSeats(r *http.Request, f *ui.Form) (int, string) {
	capacity := 0
	if s := f.Get("capacity"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 10000 {
			f.SetError("capacity", translate(r, "classes.error.capacity"))
		}
		capacity = n
	}
	return capacity, strings.TrimSpace(f.Get("room"))
}

func (a *Admin) createTimetableEntry(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := timetableInput(r, f)
	if f.OK() {
		var id int64
		var ch booking.Changed
		id, ch, err = booking.CreateTimetableEntry(r.Context(), a.db, a.now(), in)
		if err == nil {
			a.flashChanged(r, ch, translate(r, "classes.timetable.added"))
			seeOther(w, r, ui.TimetableEntryURL(id))
			return
		}
		if !classRefused(r, f, err) {
			a.renderError(w, r, err)
			return
		}
	}
	a.renderTimetable(w, r, http.StatusUnprocessableEntity, f, nil)
}

// flashChanged tells the owner what saving an entry did to its sessions.
func (a *Admin) flashChanged(r *http.Request, ch booking.Changed, done string) {
	ctx := r.Context()
	a.flash(ctx, ui.FlashSuccess, done)
	dates := func(ds []booking.Date) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.String())
		}
		if len(out) > 6 {
			out = append(out[:6], "…")
		}
		return strings.Join(out, ", ")
	}
	if len(ch.Kept) > 0 {
		a.flash(ctx, ui.FlashInfo, translate(r, "classes.timetable.kept", "count", len(ch.Kept), "dates", dates(ch.Kept)))
	}
	if len(ch.Clashes) > 0 {
		a.flash(ctx, ui.FlashInfo, translate(r, "classes.timetable.clashes", "count", len(ch.Clashes), "dates", dates(ch.Clashes)))
	}
	if len(ch.Skipped) > 0 {
		a.flash(ctx, ui.FlashInfo, translate(r, "classes.timetable.skipped", "count", len(ch.Skipped), "dates", dates(ch.Skipped)))
	}
}

func (a *Admin) createOneOffSession(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	in := booking.SessionInput{LocationID: formID(f, "location"), ServiceID: formID(f, "service"), ProviderID: formID(f, "provider")}
	if in.ServiceID == 0 {
		f.SetError("service", translate(r, "classes.error.choose_class"))
	}
	if in.ProviderID == 0 {
		f.SetError("provider", translate(r, "classes.error.choose_provider"))
	}
	minute := formClock(r, f, "start")
	in.Capacity, in.Room = formSeats(r, f)
	date, err := booking.ParseDate(f.Get("date"))
	if err != nil {
		f.SetError("date", translate(r, "classes.timetable.error.date"))
	}
	if f.OK() {
		loc, err := a.db.R.ScheduleLocation(ctx, in.LocationID)
		if err != nil {
			a.renderError(w, r, errpage.NotFound)
			return
		}
		zone, err := booking.LoadZone(loc.Timezone)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		start, ok := booking.WeeklyStart(zone, date, minute)
		if !ok {
			f.SetError("start", translate(r, "classes.error.time_missing"))
		}
		in.Start = start
	}
	if f.OK() {
		id, err := booking.CreateSession(ctx, a.db, a.now(), in)
		if err == nil {
			a.flash(ctx, ui.FlashSuccess, translate(r, "classes.timetable.one_off_added"))
			seeOther(w, r, ui.ClassSessionURL(id))
			return
		}
		if !classRefused(r, f, err) {
			a.renderError(w, r, err)
			return
		}
	}
	a.renderTimetable(w, r, http.StatusUnprocessableEntity, nil, f)
}

func (a *Admin) showTimetableEntry(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	e, err := a.db.R.AdminTimetableEntry(r.Context(), id)
	if db.IsNotFound(err) {
		err = errpage.NotFound
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := ui.NewForm(nil)
	f.Set("location", idText(e.LocationID))
	f.Set("service", idText(e.ServiceID))
	f.Set("provider", idText(e.ProviderID))
	f.Set("day", strconv.FormatInt(e.DayID, 10))
	f.Set("start", resourceClock(r.Context(), e.StartMin))
	if e.Capacity.Valid {
		f.Set("capacity", strconv.FormatInt(e.Capacity.Int64, 10))
	}
	f.Set("room", e.Room.String)
	f.Set("valid_from", e.ValidFrom)
	f.Set("valid_to", e.ValidTo.String)
	a.renderTimetableEntry(w, r, http.StatusOK, id, f, ui.NewForm(nil))
}

// resourceClock is a stored start (minutes after midnight) as the start field shows it.
func resourceClock(ctx context.Context, min int64) string { return clockText(ctx, int(min)) }

func (a *Admin) renderTimetableEntry(w http.ResponseWriter, r *http.Request, status int, id int64, f, cancel *ui.Form) {
	ctx := r.Context()
	loc, err := a.db.R.ScheduleLocation(ctx, formID(f, "location"))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	choices, err := a.timetableChoices(ctx, r, loc.ID)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.TimetableEntryView{ID: id, LocationID: loc.ID, Location: loc.Name, Form: f, Cancel: cancel, Choices: choices}
	a.render(w, r, status, ui.TimetableEntryPage(a.page(r, translate(r, "classes.timetable.entry_title")), v))
}

func (a *Admin) updateTimetableEntry(w http.ResponseWriter, r *http.Request) {
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
	e, err := a.db.R.AdminTimetableEntry(r.Context(), id)
	if err != nil {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	f.Set("location", idText(e.LocationID)) // an entry stays at its location
	in := timetableInput(r, f)
	if f.OK() {
		ch, err := booking.UpdateTimetableEntry(r.Context(), a.db, a.now(), id, in)
		if err == nil {
			a.flashChanged(r, ch, translate(r, "classes.timetable.saved"))
			seeOther(w, r, ui.TimetableEntryURL(id))
			return
		}
		if !classRefused(r, f, err) {
			a.renderError(w, r, err)
			return
		}
	}
	a.renderTimetableEntry(w, r, http.StatusUnprocessableEntity, id, f, ui.NewForm(nil))
}

func (a *Admin) cancelTimetableDate(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	cancel, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	date, err := booking.ParseDate(cancel.Get("date"))
	if err != nil {
		cancel.SetError("date", translate(r, "classes.timetable.error.date"))
	} else {
		n, err := booking.CancelTimetableDate(r.Context(), a.db, a.now(), id, date)
		if err == nil {
			a.flash(r.Context(), ui.FlashSuccess, translate(r, "classes.timetable.date_cancelled", "date", date.String(), "count", n))
			seeOther(w, r, ui.TimetableEntryURL(id))
			return
		}
		if !classRefused(r, cancel, err) {
			a.renderError(w, r, err)
			return
		}
	}
	a.showTimetableEntryWith(w, r, id, cancel)
}

// showTimetableEntryWith shows the entry's stored form with a refused cancel-date form.
func (a *Admin) showTimetableEntryWith(w http.ResponseWriter, r *http.Request, id int64, cancel *ui.Form) {
	e, err := a.db.R.AdminTimetableEntry(r.Context(), id)
	if err != nil {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	f := ui.NewForm(nil)
	for k, v := range map[string]string{"location": idText(e.LocationID), "service": idText(e.ServiceID), "provider": idText(e.ProviderID),
		"day": strconv.FormatInt(e.DayID, 10), "start": resourceClock(r.Context(), e.StartMin), "room": e.Room.String, "valid_from": e.ValidFrom, "valid_to": e.ValidTo.String} {
		f.Set(k, v)
	}
	if e.Capacity.Valid {
		f.Set("capacity", strconv.FormatInt(e.Capacity.Int64, 10))
	}
	a.renderTimetableEntry(w, r, http.StatusUnprocessableEntity, id, f, cancel)
}

func (a *Admin) deleteTimetableEntry(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	e, err := a.db.R.AdminTimetableEntry(r.Context(), id)
	if err != nil {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	err = booking.DeleteTimetableEntry(r.Context(), a.db, a.now(), id)
	if msg, _, ok := classMessage(r, err); ok {
		a.flash(r.Context(), ui.FlashError, msg)
		seeOther(w, r, ui.TimetableEntryURL(id))
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "classes.timetable.deleted"))
	seeOther(w, r, ui.TimetableURL(e.LocationID))
}
