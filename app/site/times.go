package site

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// pickerDays is how many days the date picker shows at once.
const pickerDays = 14

// instant is one start time the site offers, with the providers free then (in id order).
type instant struct {
	start     time.Time
	providers []int64
	session   *booking.SessionSlot // a class: the session (one instant per session), else nil
}

// available is what the slot engine offers over some local dates: its slots (by start, then
// provider) and where each date's run of them lies. Several providers free at one instant make
// one start ("anyone available"); the instants of a date are built only for the dates shown.
type available struct {
	loaded booking.Loaded
	slots  []booking.Slot
	runs   map[booking.Date][2]int // [first, end) indexes into slots
	// A class (docs/classes.md) is offered as its sessions, not on the slot grid: sessions[i]
	// is slots[i] with its seats.
	sessions []booking.SessionSlot
	class    bool
	// sessionDays are the dates with a session of the class, full or not: a date without one
	// has "no sessions", not a full one.
	sessionDays map[booking.Date]bool
}

// slotQuery names what to look up: a service at a location, one provider or anyone (0), and a
// booking to leave out of the busy times (the one being rescheduled).
type slotQuery struct {
	loc      *location
	service  int64
	provider int64
	ignore   int64
	// visit: the visit the ignored booking belongs to, moved whole; only the times where every
	// booking of it fits are offered (booking.VisitMoveSlots), with its own provider.
	visit int64
	// class: the service is a class, offered as its sessions; full: full sessions are listed
	// too (their waitlist can be joined), which the booking flow wants and a reschedule not.
	class, full bool
}

// availableOn runs the slot engine over first…last exactly as GET /v3/available_slots does for
// the customer flow (online-booking flags, notice, advance window).
func (s *Site) availableOn(ctx context.Context, sq slotQuery, first, last booking.Date, now time.Time) (available, error) {
	if sq.class {
		return s.sessionsOn(ctx, sq, first, last, now)
	}
	l, err := booking.LoadScheduleCached(ctx, s.db, booking.ScheduleQuery{
		LocationID: sq.loc.id, ServiceID: sq.service, ProviderID: sq.provider, First: first, Last: last,
		OnlineOnly: true, IgnoreBookingID: sq.ignore,
	})
	if err != nil {
		return available{}, err
	}
	if l.Schedule.Service.IsClass() { // a reschedule's picker finds out here
		sq.class = true
		return s.sessionsOn(ctx, sq, first, last, now)
	}
	if sq.visit != 0 {
		slots, err := booking.VisitMoveSlots(ctx, s.db, now, sq.visit, sq.ignore, first, last, booking.SourceOnline)
		// A visit with a service no longer offered online (or inactive) has no time to move
		// to, as a single booking's picker finds none: nothing is offered.
		if err != nil && fail.CodeOf(err) != fail.CodeInvalid {
			return available{}, err
		}
		return newAvailable(l, slots), nil
	}
	return newAvailable(l, booking.Slots(l.Schedule, first, last, now)), nil
}

// newAvailable is the slots of l found over some dates, with each date's run.
func newAvailable(l booking.Loaded, slots []booking.Slot) available {
	a := available{loaded: l, slots: slots, runs: map[booking.Date][2]int{}}
	for i := 0; i < len(a.slots); {
		j := i + 1
		for j < len(a.slots) && a.slots[j].Date == a.slots[i].Date {
			j++
		}
		a.runs[a.slots[i].Date] = [2]int{i, j}
		i = j
	}
	return a
}

// availableKept is availableOn for the date picker, whose fortnights visitors page through
// again and again: the clock-free slots (booking.Offered) are kept by schedule version
// (offers.go) and each request cuts the run its clock leaves, which is availableOn's answer.
// The booking steps that act on a time (details, waitlist) use availableOn.
func (s *Site) availableKept(ctx context.Context, sq slotQuery, first, last booking.Date, now time.Time) (available, error) {
	if sq.visit != 0 { // a visit's times depend on every booking of it: not kept
		return s.availableOn(ctx, sq, first, last, now)
	}
	if sq.class {
		return s.sessionsOn(ctx, sq, first, last, now)
	}
	// The version read is a few index probes: with the request's cancellable context
	// database/sql and the driver would each start a goroutine to watch it.
	v, err := booking.CurrentSchedule(context.WithoutCancel(ctx), s.db, booking.ScheduleQuery{
		LocationID: sq.loc.id, ServiceID: sq.service, ProviderID: sq.provider, First: first, Last: last,
		OnlineOnly: true, IgnoreBookingID: sq.ignore,
	})
	if err != nil {
		return available{}, err
	}
	if v.Class() { // a reschedule's picker finds out here
		sq.class = true
		return s.sessionsOn(ctx, sq, first, last, now)
	}
	o, ok := s.offers.get(v)
	if !ok {
		l, err := v.Load(ctx, s.db)
		if err != nil {
			return available{}, err
		}
		o = &offer{loaded: l, offered: booking.Offer(l.Schedule, first, last)}
		s.offers.put(v, o)
	}
	i, j := o.offered.Cut(now)
	return newAvailable(o.loaded, o.offered.Slots[i:j:j]), nil
}

// sessionsOn is availableOn for a class: its sessions a client can book (booking.SessionsWithSeats,
// the rules of GET /v3/available_slots), and with sq.full the full ones too. A rescheduled
// booking's own seat counts as free in the session it is in.
func (s *Site) sessionsOn(ctx context.Context, sq slotQuery, first, last booking.Date, now time.Time) (available, error) {
	list, l, err := booking.SessionsWithSeats(ctx, s.db, now, booking.SessionQuery{
		LocationID: sq.loc.id, ServiceID: sq.service, ProviderID: sq.provider, First: first, Last: last, IncludeFull: true,
	})
	if err != nil {
		return available{}, err
	}
	a := available{loaded: l, runs: map[booking.Date][2]int{}, class: true, sessionDays: map[booking.Date]bool{}}
	for _, x := range list {
		a.sessionDays[x.Date] = true
		if x.SeatsLeft == 0 && !sq.full {
			continue
		}
		a.sessions = append(a.sessions, x)
		a.slots = append(a.slots, x.Slot)
	}
	for i := 0; i < len(a.slots); {
		j := i + 1
		for j < len(a.slots) && a.slots[j].Date == a.slots[i].Date {
			j++
		}
		a.runs[a.slots[i].Date] = [2]int{i, j}
		i = j
	}
	return a, nil
}

// session is the class session of provider at start among those found, or nil.
func (a available) session(provider int64, start time.Time) *booking.SessionSlot {
	for i := range a.sessions {
		if x := &a.sessions[i]; x.ProviderID == provider && x.Start.Equal(start) {
			return x
		}
	}
	return nil
}

// openDays are the dates from first to last with a time that would be free if nothing were
// booked: the location open, someone working, no time off, within the notice and the advance
// window. A date among them with nothing free is full; any other with nothing free is closed.
func (a available) openDays(first, last booking.Date, now time.Time) map[booking.Date]bool {
	s := a.loaded.Schedule
	s.Providers = slices.Clone(s.Providers) // the loaded schedule is shared (catalog cache)
	for i := range s.Providers {
		s.Providers[i].Busy, s.Providers[i].Teaching = nil, nil
	}
	out := map[booking.Date]bool{}
	for _, slot := range booking.Slots(s, first, last, now) {
		out[slot.Date] = true
	}
	return out
}

// providerName is the name of provider id in the search's schedule, "" if it has none.
func (a available) providerName(id int64) string {
	for _, p := range a.loaded.Schedule.Providers {
		if p.ID == id {
			return p.Name
		}
	}
	return ""
}

// count is how many distinct start times date has.
func (a available) count(date booking.Date) int {
	r := a.runs[date]
	if a.class {
		return r[1] - r[0] // one per session, full ones included when listed
	}
	n := 0
	for i := r[0]; i < r[1]; i++ {
		if i == r[0] || !a.slots[i].Start.Equal(a.slots[i-1].Start) {
			n++
		}
	}
	return n
}

// instants are the start times of date with the providers free at each.
func (a available) instants(date booking.Date) []instant {
	r := a.runs[date]
	var out []instant
	if a.class {
		for i := r[0]; i < r[1]; i++ {
			x := &a.sessions[i]
			out = append(out, instant{start: x.Start, providers: []int64{x.ProviderID}, session: x})
		}
		return out
	}
	for _, slot := range a.slots[r[0]:r[1]] {
		if n := len(out); n > 0 && out[n-1].start.Equal(slot.Start) {
			out[n-1].providers = append(out[n-1].providers, slot.ProviderID)
			continue
		}
		out = append(out, instant{start: slot.Start, providers: []int64{slot.ProviderID}})
	}
	return out
}

// offered returns the providers free at start (one, or every candidate for anyone available),
// or nothing when the engine does not offer that instant.
func (s *Site) offered(ctx context.Context, sq slotQuery, start time.Time, now time.Time) ([]int64, available, error) {
	day := booking.DateOf(start.In(sq.loc.zone))
	a, err := s.availableOn(ctx, sq, day, day, now)
	if err != nil {
		return nil, a, err
	}
	var out []int64
	for _, in := range a.instants(day) {
		switch {
		case !in.start.Equal(start):
		case in.session == nil:
			return in.providers, a, nil
		case in.session.SeatsLeft > 0 && (sq.provider == 0 || sq.provider == in.session.ProviderID):
			out = append(out, in.session.ProviderID)
		}
	}
	return out, a, nil
}

// pickerLinks builds the URLs of a date picker: a day within a fortnight starting at from, and
// the next step for a start time.
type pickerLinks struct {
	day  func(from, date booking.Date) string
	time func(in instant) string
}

// picker builds the date and time step: the fortnight from `from` (never before today, moved to
// show `date` when that was asked for) and the free times of the selected date — the one asked
// for, else the first with anything free. A picker that opens on a day of its own (`open`, the
// rescheduled booking's: valid only then) shows that day when nothing else was asked for, or the
// first day with anything free on or after it.
func (s *Site) picker(ctx context.Context, r *http.Request, sq slotQuery, links pickerLinks, open booking.Date) (ui.SiteTimesView, error) {
	p := i18n.From(ctx)
	now := s.now()
	today := booking.DateOf(now.In(sq.loc.zone))
	q := r.URL.Query()
	from, fromErr := booking.ParseDate(q.Get("from"))
	if fromErr != nil || from.Before(today) {
		from = today
	}
	date, dateErr := booking.ParseDate(q.Get("date"))
	hasDate := dateErr == nil && !date.Before(today)
	opening := !hasDate && fromErr != nil && open.IsValid() && !open.Before(today)
	if opening {
		date, hasDate = open, true
	}
	if hasDate && (date.Before(from) || !date.Before(from.AddDays(pickerDays))) {
		from = date
	}
	last := from.AddDays(pickerDays - 1)
	a, err := s.availableKept(ctx, sq, from, last, now)
	if err != nil {
		return ui.SiteTimesView{}, err
	}
	v := ui.SiteTimesView{Range: p.Date(noon(from)) + " – " + p.Date(noon(last))}
	first := from
	if opening && a.count(date) == 0 {
		first, hasDate = date, false
	}
	if !hasDate {
		for d := first; !d.After(last); d = d.AddDays(1) {
			if a.count(d) > 0 {
				date, hasDate = d, true
				break
			}
		}
	}
	if hasDate {
		v.Zone = zoneLabel(p, sq.loc.zone, date)
	} else {
		v.Zone = zoneLabel(p, sq.loc.zone, from)
	}
	var bookable map[booking.Date]bool // read at the first day with nothing free: a.openDays
	for d := from; !d.After(last); d = d.AddDays(1) {
		n := a.count(d)
		day := ui.SiteDay{
			Weekday: p.WeekdayShort(d.Weekday()), Day: strconv.Itoa(d.Day), Count: n, Selected: hasDate && d == date,
		}
		long := p.DateLong(noon(d))
		switch {
		case n > 0 && a.class:
			day.URL = links.day(from, d)
			day.Spoken = p.T("site.classes.day_sessions", "date", long, "count", n)
		case n > 0:
			day.URL = links.day(from, d)
			day.Spoken = p.T("site.times.day_free", "date", long, "count", n)
		case a.class && !a.sessionDays[d]:
			day.Spoken, day.Short = p.T("site.classes.day_none", "date", long), p.T("site.classes.none_short")
		case a.class: // sessions, every one full (a reschedule does not list full ones)
			day.Spoken, day.Short = p.T("site.times.day_booked", "date", long), p.T("site.times.full_short")
		default:
			if bookable == nil {
				bookable = a.openDays(d, last, now)
			}
			if bookable[d] { // there was something to book, and it is booked
				day.Spoken, day.Short = p.T("site.times.day_booked", "date", long), p.T("site.times.full_short")
			} else {
				day.Spoken, day.Short = p.T("site.times.day_closed", "date", long), p.T("site.times.closed_short")
			}
		}
		v.Days = append(v.Days, day)
	}
	if from.After(today) {
		prev := from.AddDays(-pickerDays)
		if prev.Before(today) {
			prev = today
		}
		v.PrevURL = links.day(prev, booking.Date{})
	}
	if policy := a.loaded.Policy; policy.MaxAdvanceDays == 0 || !last.AddDays(1).After(today.AddDays(int(policy.MaxAdvanceDays))) {
		v.NextURL = links.day(last.AddDays(1), booking.Date{})
	}
	if !hasDate {
		v.Empty = true
		if v.NextURL != "" {
			if first, ok := s.firstFree(ctx, sq, last.AddDays(1), now); ok {
				v.FirstURL = links.day(first, first)
			}
		}
		return v, nil
	}
	v.Date = p.DateLong(noon(date))
	v.Times = timeViews(p, a.instants(date), links.time)
	return v, nil
}

// firstFree looks for the first date with a free time in the eight weeks from `from`.
func (s *Site) firstFree(ctx context.Context, sq slotQuery, from booking.Date, now time.Time) (booking.Date, bool) {
	a, err := s.availableKept(ctx, sq, from, from.AddDays(55), now)
	if err != nil {
		return booking.Date{}, false
	}
	if len(a.slots) == 0 {
		return booking.Date{}, false
	}
	return a.slots[0].Date, true
}

// timeViews are the times of one day as buttons. A clock time that happens twice that day (a
// fall-back night) is labelled with its offset, so "01:30 (UTC−3)" and "01:30 (UTC−4)" are two
// buttons for two instants.
func timeViews(p *i18n.Printer, list []instant, link func(instant) string) []ui.SiteTime {
	labels := make([]string, len(list))
	seen := make(map[string]int, len(list))
	for i, in := range list {
		labels[i] = p.Time(in.start)
		seen[labels[i]]++
	}
	out := make([]ui.SiteTime, 0, len(list))
	var day booking.Date // the instants of a list share (nearly always) one date
	var dayText string
	for i, in := range list {
		label := labels[i]
		t := ui.SiteTime{Label: label, Value: in.start.Format(time.RFC3339), URL: link(in)}
		if d := booking.DateOf(in.start); d != day || dayText == "" {
			day, dayText = d, p.DateLong(in.start)
		}
		spoken := dayText + ", " + label
		// A time the clock shows twice that day is labelled even when only one of the two is
		// left: alone, it would not say which one it is.
		if seen[label] > 1 || i18n.Repeated(in.start) {
			t.Offset = i18n.Offset(in.start)
			spoken += " (" + t.Offset + ")"
		}
		if x := in.session; x != nil {
			t.Teacher = x.ProviderName
			if x.SeatsLeft > 0 {
				t.Seats = p.T("site.classes.seats_left", "count", x.SeatsLeft)
			} else {
				t.Seats, t.Full = p.T("site.classes.full"), true
			}
			spoken += ", " + x.ProviderName + ", " + t.Seats
		}
		t.Spoken = spoken
		out = append(out, t)
	}
	return out
}

// when is an instant in words for summaries: the date, the time and, on a day whose clock
// repeats that time, the offset.
func when(p *i18n.Printer, t time.Time) string { return p.DateLong(t) + ", " + p.TimeOnce(t) }

// zoneLabel names the local time of a location on date d for people, with the offset of that
// day: "Santiago time (UTC−3)", "hora de Santiago (UTC−4)". The place is the zone's city
// ("America/Argentina/Buenos_Aires" → "Buenos Aires"); a zone that names no place ("UTC",
// "Etc/GMT+3") is said by its offset alone.
func zoneLabel(p *i18n.Printer, zone *time.Location, d booking.Date) string {
	offset := i18n.Offset(time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, zone))
	name := zone.String()
	i := strings.LastIndexByte(name, '/')
	if i < 0 || strings.HasPrefix(name, "Etc/") {
		return offset
	}
	return p.T("site.zone", "place", strings.ReplaceAll(name[i+1:], "_", " "), "offset", offset)
}

// noon is a time on local date d, for formatting the date.
func noon(d booking.Date) time.Time { return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC) }

// showTimes is step 4 of booking: the day and time.
func (s *Site) showTimes(w http.ResponseWriter, r *http.Request) {
	loc, svc, err := s.serviceParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	provider, name, err := s.providerParam(r, loc, svc)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	base := servicePath(loc.id, svc.id)
	links := pickerLinks{
		day: func(from, date booking.Date) string {
			q := url.Values{"from": {from.String()}}
			if date.IsValid() {
				q.Set("date", date.String())
			}
			return timesPath(loc.id, svc.id, provider, q)
		},
		time: func(in instant) string {
			return sessionLink(base, provider, in)
		},
	}
	v, err := s.picker(r.Context(), r, slotQuery{loc: loc, service: svc.id, provider: provider, class: svc.class(), full: true}, links, booking.Date{})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v.Summary = s.summary(p, loc, svc, name)
	if svc.class() && provider == 0 {
		v.Summary.Provider = p.T("site.classes.every_teacher") // each session names its own
	}
	if r.URL.Query().Get("gone") == "1" {
		v.Notice = p.T("site.times.gone")
	}
	if !svc.class() { // a class has a waitlist per session
		q := url.Values{}
		if day, err := booking.ParseDate(r.URL.Query().Get("date")); err == nil {
			q.Set("date", day.String())
		} else if from, err := booking.ParseDate(r.URL.Query().Get("from")); err == nil {
			q.Set("date", from.String())
		}
		v.NotifyURL = notifyPath(loc.id, svc.id, provider, q)
	}
	page := s.page(r, p.T("site.times.title"))
	page.Back = servicePath(loc.id, svc.id)
	s.render(w, r, http.StatusOK, ui.SiteTimes(page, v))
}

// sessionLink is where a time of the booking flow leads: its details form — for a class
// session, with the session's teacher, or the waitlist form of a full one.
func sessionLink(base string, provider int64, in instant) string {
	step := "/details?"
	if x := in.session; x != nil {
		provider = x.ProviderID
		if x.SeatsLeft == 0 {
			step = "/waitlist?"
		}
	}
	// url.Values' Encode, without its map: the keys in order, each value escaped.
	return base + step + "provider=" + strconv.FormatInt(provider, 10) + "&start=" + url.QueryEscape(in.start.Format(time.RFC3339))
}

// providerParam reads the provider (0: anyone available) and checks that they give the service
// at the location online. It returns the provider's name ("" for anyone).
func (s *Site) providerParam(r *http.Request, loc *location, svc service) (int64, string, error) {
	raw := formProvider(r)
	if raw == "" || raw == "0" {
		return 0, "", nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, "", errNotFound
	}
	name, err := s.providerName(r.Context(), loc, svc.id, id)
	return id, name, err
}

// summary is what is being booked, for the later steps.
func (s *Site) summary(p *i18n.Printer, loc *location, svc service, provider string) ui.SiteSummary {
	return ui.SiteSummary{
		Service: svc.name, Provider: provider, Location: loc.name, Address: loc.address,
		Duration: duration(p, svc.durationMin), Price: price(p, svc.priceCents),
	}
}

// providerName is the name of provider id if they give the service at the location online.
func (s *Site) providerName(ctx context.Context, loc *location, serviceID, id int64) (string, error) {
	provs, err := s.db.R.SiteServiceProviders(ctx, db.SiteServiceProvidersParams{LocationID: loc.id, ServiceID: serviceID})
	if err != nil {
		return "", err
	}
	for _, p := range provs {
		if p.ID == id {
			return p.PublicName, nil
		}
	}
	return "", errNotFound
}
