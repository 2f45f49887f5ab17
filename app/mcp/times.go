package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
	"frontdesk/db"
)

var findFreeTimesTool = toolSpec{
	name: "find_free_times", title: "Find free times", readOnly: true, idempotent: true, scope: "bookings:read",
	description: "Finds the times a service can be booked at a location, on a date or a few days. Each time " +
		"comes with its local time, UTC offset, exact instant and a slot_id: book with the slot_id, never with " +
		"a time you computed. On nights when clocks go back the same local time can appear twice; the note " +
		"says which is which.",
	input: object([]string{"location_id", "service_id", "date"},
		idArg("location_id", "The location, from list_locations."),
		idArg("service_id", "The service, from list_services."),
		idArg("provider_id", "Optional: only this provider (staff member)."),
		stringArg("date", "The first date: YYYY-MM-DD, or what the customer said (\"tomorrow\", \"next Tuesday\", "+
			"\"mañana\"), read in the location's calendar.", maxPhrase),
		intArg("days", "How many days from date to search (1-14, default 1).", 1, maxDays),
		patternArg("after", "Optional earliest local start time, HH:MM (24-hour).", `^\d{2}:\d{2}$`, 5),
		patternArg("before", "Optional latest local start time, HH:MM (24-hour), exclusive.", `^\d{2}:\d{2}$`, 5),
		intArg("limit", "Most times to return (1-100, default 40); the answer says how many more there were.", 1, 100),
	),
}

const (
	maxDays      = 14
	defaultLimit = 40
)

type findFreeTimesArgs struct {
	LocationID int64  `json:"location_id"`
	ServiceID  int64  `json:"service_id"`
	ProviderID *int64 `json:"provider_id"`
	Date       string `json:"date"`
	Days       *int64 `json:"days"`
	After      string `json:"after"`
	Before     string `json:"before"`
	Limit      *int64 `json:"limit"`
}

type slotOut struct {
	SlotID       string `json:"slot_id"`
	Date         string `json:"date"`
	Weekday      string `json:"weekday"`
	LocalTime    string `json:"local_time"`
	LocalEndTime string `json:"local_end_time"`
	UTCOffset    string `json:"utc_offset"`
	StartsAt     string `json:"starts_at"`
	EndsAt       string `json:"ends_at"`
	ProviderID   int64  `json:"provider_id"`
	ProviderName string `json:"provider_name"`
	Note         string `json:"note,omitempty"`
}

type freeTimesOut struct {
	Location        nameRef   `json:"location"`
	TimeZone        string    `json:"time_zone"`
	Service         nameRef   `json:"service"`
	DurationMinutes int64     `json:"duration_minutes"`
	FromDate        string    `json:"from_date"`
	ToDate          string    `json:"to_date"`
	Slots           []slotOut `json:"slots"`
	TotalFound      int       `json:"total_found"`
	Note            string    `json:"note,omitempty"`
}

func (s *Server) findFreeTimes(ctx context.Context, c call, in *findFreeTimesArgs) (answer, error) {
	for _, f := range []struct {
		name string
		v    int64
	}{{"location_id", in.LocationID}, {"service_id", in.ServiceID}} {
		if err := requiredID(f.name, f.v); err != nil {
			return answer{}, err
		}
	}
	if err := optionalID("provider_id", in.ProviderID); err != nil {
		return answer{}, err
	}
	days, limit := int64(1), int64(defaultLimit)
	if in.Days != nil {
		if days = *in.Days; days < 1 || days > maxDays {
			return answer{}, invalid("days", "must be between 1 and %d", maxDays)
		}
	}
	if in.Limit != nil {
		if limit = *in.Limit; limit < 1 || limit > 100 {
			return answer{}, invalid("limit", "must be between 1 and 100")
		}
	}
	after, err := wallArg("after", in.After, 0)
	if err != nil {
		return answer{}, err
	}
	before, err := wallArg("before", in.Before, 24*60)
	if err != nil {
		return answer{}, err
	}
	if before <= after {
		return answer{}, invalid("before", "must be later than after")
	}
	zone, err := s.locationZone(ctx, in.LocationID)
	if err != nil {
		return answer{}, err
	}
	now := s.now()
	today := booking.DateOf(now.In(zone))
	rd, err := s.dateArg("date", in.Date, today)
	if err != nil {
		return answer{}, err
	}
	first := rd.Date
	last := first.AddDays(int(days) - 1)
	var provider int64
	if in.ProviderID != nil {
		provider = *in.ProviderID
	}
	l, err := s.offered(ctx, c, in.LocationID, in.ServiceID, provider, first, last)
	if err != nil {
		return answer{}, err
	}
	all := freeSlots(l, first, last, now)
	all = slices.DeleteFunc(all, func(sl booking.Slot) bool {
		m := sl.Start.Hour()*60 + sl.Start.Minute()
		return m < after || m >= before
	})
	key, err := s.slotSecret(ctx)
	if err != nil {
		return answer{}, err
	}
	reason, closedToday := emptyReason(l, first, last, now, len(all))
	if closedToday {
		reason = joinNotes(reason, s.nextFreeDay(ctx, c, in.LocationID, in.ServiceID, provider, today, now))
	}
	out := freeTimesOut{
		Location: nameRef{l.Location.ID, l.Location.Name}, TimeZone: zone.String(),
		Service: nameRef{l.Service.ID, l.Service.Name}, DurationMinutes: l.Service.DurationMin,
		FromDate: first.String(), ToDate: last.String(), TotalFound: len(all),
		Slots: slotOuts(key, l, all[:min(len(all), int(limit))]),
		Note:  joinNotes(rd.Note, reason),
	}
	if len(all) > int(limit) {
		out.Note = joinNotes(out.Note, fmt.Sprintf("%d more times not shown; narrow with after/before, provider_id or fewer days", len(all)-int(limit)))
	}
	return answer{data: out, text: freeTimesText(out)}, nil
}

// offered loads the schedule of a service at a location as the customer flow sees it, and
// turns "nothing can be offered at all" into words.
func (s *Server) offered(ctx context.Context, c call, locationID, serviceID, providerID int64, first, last booking.Date) (booking.Loaded, error) {
	l, err := booking.LoadScheduleCached(db.WithCatalogVersion(ctx, c.key.CatalogVersion), s.db, booking.ScheduleQuery{
		LocationID: locationID, ServiceID: serviceID, ProviderID: providerID, First: first, Last: last, OnlineOnly: true,
	})
	var nf *booking.NotFoundError
	if errors.As(err, &nf) {
		return l, notFound(nf.Resource+"_id", "no such %s", nf.Resource)
	}
	if err != nil {
		return l, err
	}
	svc := l.Service
	switch {
	case !l.Location.Active:
		return l, refused("the location %s does not take bookings", l.Location.Name)
	case !svc.Active || !svc.OnlineBooking:
		return l, refused("%s cannot be booked online; the customer can contact the business", svc.Name)
	case l.Provider != nil && (!l.Provider.Active || !l.Provider.OnlineBooking):
		return l, refused("%s cannot be booked online; offer another provider or leave provider_id out", l.Provider.PublicName)
	}
	if providerID != 0 {
		i := slices.IndexFunc(l.Schedule.Providers, func(p booking.Provider) bool { return p.ID == providerID })
		if i < 0 {
			return l, invalid("provider_id", "%s does not work at %s", l.Provider.PublicName, l.Location.Name)
		}
		if !l.Schedule.Providers[i].OffersService {
			return l, invalid("provider_id", "%s does not offer %s", l.Provider.PublicName, svc.Name)
		}
	} else if !slices.ContainsFunc(l.Schedule.Providers, func(p booking.Provider) bool { return p.OffersService }) {
		return l, refused("nobody at %s offers %s; call list_services with this location_id", l.Location.Name, svc.Name)
	}
	return l, nil
}

// slotOuts describes slots, each with a signed slot id, telling apart repeated local times.
func slotOuts(key []byte, l booking.Loaded, slots []booking.Slot) []slotOut {
	out := make([]slotOut, 0, len(slots))
	for _, sl := range slots {
		o := slotOut{
			SlotID: encodeSlotID(key, slotRef{LocationID: l.Location.ID, ServiceID: l.Service.ID, ProviderID: sl.ProviderID, Start: sl.Start}),
			Date:   sl.Date.String(), Weekday: sl.Start.Weekday().String(),
			LocalTime: sl.Start.Format("15:04"), LocalEndTime: sl.End.Format("15:04"), UTCOffset: sl.Start.Format("-07:00"),
			StartsAt: sl.Start.Format(time.RFC3339), EndsAt: sl.End.Format(time.RFC3339),
			ProviderID: sl.ProviderID, ProviderName: sl.ProviderName,
		}
		o.Note = repeatedNote(sl.Start)
		out = append(out, o)
	}
	return out
}

// repeatedNote tells which of two equal local times t is, on a night the clocks go back.
func repeatedNote(t time.Time) string {
	d := booking.DateOf(t)
	inst := booking.Instants(t.Location(), d, t.Hour()*60+t.Minute())
	if len(inst) < 2 {
		return ""
	}
	other := inst[0]
	which := "first"
	if inst[0].Equal(t) {
		other = inst[1]
	} else {
		which = "second"
	}
	return fmt.Sprintf("%s happens twice on %s because the clocks go back: this is the %s one (UTC%s); the other is at UTC%s",
		t.Format("15:04"), d, which, t.Format("-07:00"), other.Format("-07:00"))
}

// emptyReason explains an empty answer when a rule explains it for every date asked.
// closedToday reports the reason is that the location has closed for today, the one date asked
// that it opens on: the caller then names the next day with free times.
func emptyReason(l booking.Loaded, first, last booking.Date, now time.Time, found int) (reason string, closedToday bool) {
	if found > 0 {
		return "", false
	}
	zone := l.Schedule.Zone
	local := now.In(zone)
	today := booking.DateOf(local)
	p := l.Schedule.Policy
	switch {
	case last.Before(today):
		return "those dates have passed", false
	case p.MaxAdvance > 0 && booking.DateOf(now.Add(p.MaxAdvance).In(zone)).Before(first):
		return fmt.Sprintf("bookings open %s ahead; the latest date that can be booked now is %s",
			minutes(int64(p.MaxAdvance/time.Minute)), booking.DateOf(now.Add(p.MaxAdvance).In(zone))), false
	}
	n, closed, over := 0, 0, false
	closing := -1 // today's last closing time, minutes after midnight
	for d := first; !last.Before(d); d = d.AddDays(1) {
		n++
		if slices.Contains(l.Schedule.Closures, d) || !slices.ContainsFunc(l.Schedule.Hours, func(h booking.WeeklyHours) bool { return h.Weekday == d.Weekday() }) {
			closed++
			continue
		}
		if d == today {
			for _, h := range l.Schedule.Hours {
				if h.Weekday == d.Weekday() {
					closing = max(closing, h.Close)
				}
			}
			over = local.Hour()*60+local.Minute() >= closing
		}
	}
	switch {
	case closed == n:
		return fmt.Sprintf("%s is closed then", l.Location.Name), false
	case over && closed == n-1:
		return fmt.Sprintf("%s has closed for today: it closed at %02d:%02d, and it is %s there now", l.Location.Name,
			closing/60, closing%60, local.Format("15:04")), true
	}
	return "no free times then; try other dates or another provider", false
}

// nextFreeDay names the first day after today, within two weeks, with free times for the same
// service (and provider, if one was asked for): what to offer once the location has closed for
// today.
func (s *Server) nextFreeDay(ctx context.Context, c call, locationID, serviceID, providerID int64, today booking.Date, now time.Time) string {
	first, last := today.AddDays(1), today.AddDays(maxDays)
	l, err := s.offered(ctx, c, locationID, serviceID, providerID, first, last)
	if err != nil {
		s.log.WarnContext(ctx, "mcp: the next day with free times", "err", err)
		return "call find_free_times with date " + first.String() + " for the next days"
	}
	slots := freeSlots(l, first, last, now)
	if len(slots) == 0 {
		return fmt.Sprintf("there are no free times in the next %d days either", maxDays)
	}
	next := slots[0]
	return fmt.Sprintf("the next free times are on %s %s, from %s: call find_free_times with date %s and offer the customer one of them",
		next.Start.Weekday(), next.Date, next.Start.Format("15:04"), next.Date)
}

func freeTimesText(o freeTimesOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Free times for %s (%d min) at %s, time zone %s", o.Service.Name, o.DurationMinutes, o.Location.Name, o.TimeZone)
	if o.FromDate == o.ToDate {
		fmt.Fprintf(&b, ", on %s:", o.FromDate)
	} else {
		fmt.Fprintf(&b, ", %s to %s:", o.FromDate, o.ToDate)
	}
	if len(o.Slots) == 0 {
		b.WriteString(" none.")
	}
	date := ""
	for _, sl := range o.Slots {
		if sl.Date != date {
			date = sl.Date
			fmt.Fprintf(&b, "\n%s %s", sl.Weekday, sl.Date)
		}
		b.WriteString("\n" + slotLine(sl))
	}
	if o.Note != "" {
		fmt.Fprintf(&b, "\nNote: %s.", o.Note)
	}
	return b.String()
}

// slotLine is one offered time for a model to read and quote.
func slotLine(sl slotOut) string {
	line := fmt.Sprintf("- %s-%s (UTC%s) with %s, slot_id %s", sl.LocalTime, sl.LocalEndTime, sl.UTCOffset, sl.ProviderName, sl.SlotID)
	if sl.Note != "" {
		line += " — " + sl.Note
	}
	return line
}

// alternatives are the free times nearest to a taken one on the same local date, for the same
// service and location with any provider: what a "just taken" answer offers instead.
func (s *Server) alternatives(ctx context.Context, c call, ref slotRef) (string, error) {
	zone, err := s.locationZone(ctx, ref.LocationID)
	if err != nil {
		return "", err
	}
	day := booking.DateOf(ref.Start.In(zone))
	l, err := s.offered(ctx, c, ref.LocationID, ref.ServiceID, 0, day, day)
	if err != nil {
		return "", nil // nothing to offer; the error itself says why the booking failed
	}
	slots := freeSlots(l, day, day, s.now())
	slots = slices.DeleteFunc(slots, func(sl booking.Slot) bool { return sl.ProviderID == ref.ProviderID && sl.Start.Equal(ref.Start) })
	if len(slots) == 0 {
		return fmt.Sprintf("There are no other free times for %s at %s on %s; try another date.", l.Service.Name, l.Location.Name, day), nil
	}
	dist := func(sl booking.Slot) time.Duration { return sl.Start.Sub(ref.Start).Abs() }
	slices.SortStableFunc(slots, func(a, b booking.Slot) int { return cmp.Compare(dist(a), dist(b)) })
	slots = slots[:min(len(slots), 8)]
	slices.SortStableFunc(slots, func(a, b booking.Slot) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.ProviderID, b.ProviderID))
	})
	key, err := s.slotSecret(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Free times still open for %s at %s on %s %s, nearest to the time asked for:", l.Service.Name, l.Location.Name, day.Weekday(), day)
	for _, o := range slotOuts(key, l, slots) {
		b.WriteString("\n" + slotLine(o))
	}
	return b.String(), nil
}

// locationZone reads a location's zone, or a not_found error for location_id.
func (s *Server) locationZone(ctx context.Context, id int64) (*time.Location, error) {
	loc, err := s.db.R.ScheduleLocation(ctx, id)
	if db.IsNotFound(err) {
		return nil, notFound("location_id", "no such location; call list_locations")
	}
	if err != nil {
		return nil, err
	}
	return booking.LoadZone(loc.Timezone)
}

// dateArg reads a date argument: YYYY-MM-DD or a phrase, relative to today.
func (s *Server) dateArg(field, v string, today booking.Date) (resolvedDate, error) {
	v, err := text(field, v, maxPhrase, false)
	if err != nil {
		return resolvedDate{}, err
	}
	if v == "" {
		return resolvedDate{}, invalid(field, "is required; %s", datePhraseHelp)
	}
	rd, err := resolveDate(v, today)
	var de *dateError
	if errors.As(err, &de) {
		return rd, invalid(field, "%s", de.msg)
	}
	return rd, err
}

// wallArg reads an optional HH:MM local time into minutes after midnight.
func wallArg(field, v string, otherwise int) (int, error) {
	if v == "" {
		return otherwise, nil
	}
	m, err := resource.ParseWallClock(v)
	if err != nil {
		return 0, invalid(field, "must be a local time HH:MM between 00:00 and 24:00")
	}
	return int(m), nil
}

// freeSlots is what the customer flow offers over the dates: the slot grid, or for a class its
// sessions with a seat left (docs/classes.md), each booked like any slot.
func freeSlots(l booking.Loaded, first, last booking.Date, now time.Time) []booking.Slot {
	if !l.Schedule.Service.IsClass() {
		return booking.Slots(l.Schedule, first, last, now)
	}
	var out []booking.Slot
	for _, s := range booking.SessionSlots(l.Schedule, first, last, now, false) {
		out = append(out, s.Slot)
	}
	return out
}
