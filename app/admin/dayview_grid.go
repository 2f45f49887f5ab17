package admin

import (
	"database/sql"
	"net/http"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// dayGrid is the day view before it becomes a ui.DayView: rows (wall times as instants),
// columns (providers), what lies in each column, and when each provider works.
type dayGrid struct {
	zone    *time.Location
	p       *i18n.Printer // the reader's: times on their clock
	rows    []gridRow
	columns []ui.DayProvider
	col     map[int64]int // provider id → column
	// entries are each column's non-cancelled bookings in start order.
	entries   [][]dayEntry
	cancelled []ui.DayBooking
	// cancelledSessions are the day's cancelled class sessions, listed under the grid.
	cancelledSessions []ui.DaySession
	// working[c] holds the wall minutes [open, close) provider c works, breaks and the
	// location's closed times taken out.
	working [][][2]int
	slots   map[[2]int][]ui.DaySlot // (row, column) → free starts
	closed  bool
}

type gridRow struct {
	start    time.Time
	minute   int  // wall minutes after midnight
	repeated bool // the wall time happens twice on this date
}

type dayEntry struct {
	start, end time.Time
	view       ui.DayBooking
	session    *ui.DaySession // a class session, shown as one block (the view is then unused)
}

// loadDayGrid reads the location's providers, hours and the bookings and class sessions of
// local date d. back is the day view's own URL, where actions on a session's attendees return.
func (a *Admin) loadDayGrid(r *http.Request, locationID int64, zone *time.Location, d booking.Date, back string) (dayGrid, error) {
	ctx := r.Context()
	g := dayGrid{zone: zone, p: i18n.From(ctx), col: map[int64]int{}, slots: map[[2]int][]ui.DaySlot{}}
	from, to := booking.DayStart(zone, d), booking.DayStart(zone, d.AddDays(1))
	rows, err := a.db.R.AdminDayBookings(ctx, db.AdminDayBookingsParams{LocationID: locationID, FromMs: db.Millis(from), ToMs: db.Millis(to)})
	if err != nil {
		return g, err
	}
	sessions, seated, err := a.daySessions(r, locationID, zone, from, to, back)
	if err != nil {
		return g, err
	}
	rows = slices.DeleteFunc(rows, func(b db.AdminDayBookingsRow) bool { return seated[b.ID] }) // shown in their session
	providers, err := a.db.R.AdminBookingProviders(ctx, locationID)
	if err != nil {
		return g, err
	}
	if own := scopedProvider(ctx); own != 0 { // a provider account: its own column only
		rows = slices.DeleteFunc(rows, func(b db.AdminDayBookingsRow) bool { return b.ProviderID != own })
		providers = slices.DeleteFunc(providers, func(p db.AdminBookingProvidersRow) bool { return p.ID != own })
		sessions = slices.DeleteFunc(sessions, func(s daySession) bool { return s.provider != own })
	}
	booked := map[int64]bool{}
	for _, b := range rows {
		booked[b.ProviderID] = b.StatusID != booking.StatusCancelled || booked[b.ProviderID]
	}
	addColumn := func(id int64, name string, active bool) {
		if _, ok := g.col[id]; !ok {
			g.col[id] = len(g.columns)
			g.columns = append(g.columns, ui.DayProvider{ID: id, Name: name, Inactive: !active})
		}
	}
	for _, p := range providers {
		if p.Active || booked[p.ID] {
			addColumn(p.ID, p.PublicName, p.Active)
		}
	}
	for _, b := range rows {
		if b.StatusID != booking.StatusCancelled {
			addColumn(b.ProviderID, b.ProviderName, b.ProviderActive)
		}
	}
	for _, s := range sessions {
		if s.session.Cancelled {
			g.cancelledSessions = append(g.cancelledSessions, *s.session)
			continue
		}
		addColumn(s.provider, s.providerName, s.providerActive)
	}
	g.entries = make([][]dayEntry, len(g.columns))
	lo, hi := 24*60, 0
	widen := func(open, close int) { lo, hi = min(lo, open), max(hi, close) }
	place := func(c int, e dayEntry) {
		g.entries[c] = append(g.entries[c], e)
		open, close := 0, 24*60
		if !e.start.Before(from) {
			open = e.start.Hour()*60 + e.start.Minute()
		}
		if e.end.Before(to) {
			close = e.end.Hour()*60 + e.end.Minute()
		}
		widen(open, close)
	}
	for _, s := range sessions {
		if !s.session.Cancelled {
			place(g.col[s.provider], dayEntry{start: s.start, end: s.end, session: s.session})
		}
	}
	for _, b := range rows {
		start, end := db.Time(b.StartAt).In(zone), db.Time(b.EndAt).In(zone)
		view := ui.DayBooking{
			ID: b.ID, Time: g.p.TimeOnce(start) + "–" + g.p.TimeOnce(end), Service: b.ServiceName,
			Client: clientName(b.ClientFirstName, b.ClientLastName), Provider: b.ProviderName,
			Status: bookingStatusName(ctx, b.StatusID), Unconfirmed: b.StatusID != booking.StatusConfirmed,
			ClientConfirmed: b.ClientConfirmedAt.Valid,
		}
		if b.StatusID == booking.StatusCancelled {
			g.cancelled = append(g.cancelled, view)
			continue
		}
		place(g.col[b.ProviderID], dayEntry{start: start, end: end, view: view})
	}
	for c := range g.entries { // sessions and bookings interleave in start order
		slices.SortStableFunc(g.entries[c], func(a, b dayEntry) int { return a.start.Compare(b.start) })
	}

	open, err := a.locationOpen(r, locationID, d)
	if err != nil {
		return g, err
	}
	g.closed = len(open) == 0
	for _, o := range open {
		widen(o[0], o[1])
	}
	if g.working, err = a.providerWorking(r, locationID, d, g.columns); err != nil {
		return g, err
	}
	for _, spans := range g.working {
		for _, s := range spans {
			widen(s[0], s[1])
		}
	}
	if lo >= hi {
		lo, hi = 9*60, 17*60
	}
	lo, hi = lo/60*60, min((hi+59)/60*60, 24*60)
	for m := lo; m < hi; m += dayRowMinutes {
		at := wallInstants(zone, d, m)
		for _, t := range at {
			g.rows = append(g.rows, gridRow{start: t, minute: m, repeated: len(at) > 1})
		}
	}
	slices.SortStableFunc(g.rows, func(a, b gridRow) int { return a.start.Compare(b.start) })
	return g, nil
}

// locationOpen returns the location's opening ranges on d, none when it is closed that day.
func (a *Admin) locationOpen(r *http.Request, locationID int64, d booking.Date) ([][2]int, error) {
	ctx := r.Context()
	closures, err := a.db.R.ScheduleClosures(ctx, db.ScheduleClosuresParams{LocationID: locationID, First: d.String(), Last: d.String()})
	if err != nil || len(closures) > 0 {
		return nil, err
	}
	hours, err := a.db.R.ScheduleLocationHours(ctx, locationID)
	if err != nil {
		return nil, err
	}
	var out [][2]int
	for _, h := range hours {
		if time.Weekday(h.DayID) == d.Weekday() {
			out = append(out, [2]int{int(h.OpenMin), int(h.CloseMin)})
		}
	}
	return out, nil
}

// providerWorking returns, per column, the wall-minute ranges the provider works at the
// location on d: the working time the engine books by (booking.WorkingTime: shifts less breaks,
// within the opening hours, none on a closure date), read as the day's wall clock.
func (a *Admin) providerWorking(r *http.Request, locationID int64, d booking.Date, columns []ui.DayProvider) ([][][2]int, error) {
	out := make([][][2]int, len(columns))
	if len(columns) == 0 {
		return out, nil
	}
	ids := make([]int64, len(columns))
	for i, c := range columns {
		ids[i] = c.ID
	}
	working, err := booking.WorkingTime(r.Context(), a.db.R, locationID, ids, d)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		for _, w := range working[id] {
			out[i] = append(out[i], [2]int{wallMinute(w.Start, d, 0), wallMinute(w.End, d, 24*60)})
		}
	}
	return out, nil
}

// wallMinute is t's wall-clock minute on local date d, or edge when t is not on d (the end of
// the day is midnight after it).
func wallMinute(t time.Time, d booking.Date, edge int) int {
	if booking.DateOf(t) != d {
		return edge
	}
	return t.Hour()*60 + t.Minute()
}

// rowOf is the row t falls in: the last row starting at or before t (the first row for
// earlier times).
func (g *dayGrid) rowOf(t time.Time) int {
	i, found := slices.BinarySearchFunc(g.rows, t, func(r gridRow, t time.Time) int { return r.start.Compare(t) })
	if found {
		return i
	}
	return max(i-1, 0)
}

// rowsBefore is the number of rows starting before t.
func (g *dayGrid) rowsBefore(t time.Time) int {
	i, _ := slices.BinarySearchFunc(g.rows, t, func(r gridRow, t time.Time) int { return r.start.Compare(t) })
	return i
}

// addSlot records a free start of a provider shown in the grid.
func (g *dayGrid) addSlot(providerID int64, start time.Time, s ui.DaySlot) {
	c, ok := g.col[providerID]
	if !ok || len(g.rows) == 0 || start.Before(g.rows[0].start) ||
		!start.Before(g.rows[len(g.rows)-1].start.Add(dayRowMinutes*time.Minute)) {
		return
	}
	key := [2]int{g.rowOf(start), c}
	g.slots[key] = append(g.slots[key], s)
}

// fill lays the grid out into v: bookings that share rows share a cell, which spans the rows
// they cover.
func (g *dayGrid) fill(v *ui.DayView) {
	v.Providers, v.Cancelled, v.CancelledSessions = g.columns, g.cancelled, g.cancelledSessions
	v.Rows = make([]ui.DayRow, len(g.rows))
	for i, row := range g.rows {
		label := g.printer().Time(row.start)
		if row.repeated { // the two readings of a fall-back hour, told apart by their offsets
			label += " " + i18n.Offset(row.start)
		}
		v.Rows[i] = ui.DayRow{Label: label, Hour: row.minute%60 == 0, Cells: make([]ui.DayCell, len(g.columns))}
		for c := range g.columns {
			v.Rows[i].Cells[c] = ui.DayCell{Span: 1, Off: !g.works(c, row.minute), Slots: g.slots[[2]int{i, c}], At: row.start.UnixMilli()}
		}
	}
	if len(g.rows) == 0 {
		return
	}
	for c, entries := range g.entries {
		top, bottom := -1, -1 // the open cell's rows [top, bottom)
		for _, e := range entries {
			first := g.rowOf(e.start)
			last := max(g.rowsBefore(e.end), first+1)
			if top < 0 || first >= bottom {
				top, bottom = first, last
			} else {
				bottom = max(bottom, last)
			}
			cell := &v.Rows[top].Cells[c]
			if e.session != nil {
				cell.Sessions = append(cell.Sessions, *e.session)
			} else {
				cell.Bookings = append(cell.Bookings, e.view)
			}
			cell.Span, cell.Slots = bottom-top, nil
			for i := top + 1; i < bottom; i++ {
				v.Rows[i].Cells[c] = ui.DayCell{Skip: true}
			}
		}
	}
}

// works reports whether column c's provider works at wall minute m.
func (g *dayGrid) works(c, m int) bool {
	return slices.ContainsFunc(g.working[c], func(s [2]int) bool { return s[0] <= m && m < s[1] })
}

// printer is the grid's printer (an English one with a 24-hour clock when none was given).
func (g *dayGrid) printer() *i18n.Printer {
	if g.p == nil {
		g.p = i18n.NewPrinter(i18n.Default, i18n.Prefs{Clock24: true})
	}
	return g.p
}

// daySession is a class session of the day with where it goes in the grid.
type daySession struct {
	provider       int64
	providerName   string
	providerActive bool
	start, end     time.Time
	session        *ui.DaySession
}

// daySessions reads the class sessions at the location overlapping [from, to) with their
// attendees (docs/classes.md), and the ids of the bookings that are seats in them.
func (a *Admin) daySessions(r *http.Request, locationID int64, zone *time.Location, from, to time.Time, back string) ([]daySession, map[int64]bool, error) {
	ctx := r.Context()
	rows, err := a.db.R.AdminSessions(ctx, db.AdminSessionsParams{LocationID: locationID, FromMs: db.Millis(from), ToMs: db.Millis(to)})
	if err != nil || len(rows) == 0 {
		return nil, nil, err
	}
	ids := make([]sql.NullInt64, len(rows))
	for i, s := range rows {
		ids[i] = sql.NullInt64{Int64: s.ID, Valid: true}
	}
	attendees, err := a.db.R.AdminSessionAttendees(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	bySession := map[int64][]ui.SessionAttendee{}
	seated := map[int64]bool{}
	for _, at := range attendees {
		seated[at.ID] = true
		if at.StatusID != booking.StatusCancelled {
			bySession[at.SessionID.Int64] = append(bySession[at.SessionID.Int64], attendee(r, at))
		}
	}
	p := i18n.From(ctx)
	out := make([]daySession, len(rows))
	for i, s := range rows {
		start, end := db.Time(s.StartAt).In(zone), db.Time(s.EndAt).In(zone)
		out[i] = daySession{
			provider: s.ProviderID, providerName: s.ProviderName, providerActive: s.ProviderActive, start: start, end: end,
			session: &ui.DaySession{
				ID: s.ID, Time: p.TimeOnce(start) + "–" + p.TimeOnce(end), Class: s.ServiceName, Booked: s.Booked, Capacity: s.Capacity,
				Waiting: s.Waiting, Room: s.Room, Cancelled: s.Status == booking.SessionCancelled, Attendees: bySession[s.ID], Back: back,
			},
		}
	}
	return out, seated, nil
}
