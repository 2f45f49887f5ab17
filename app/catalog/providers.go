package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/db"
)

// ProviderInput is a provider as the owner types it. Hours are the weekly shifts per location
// id, one weekday per entry by day_id, in the syntax of hours.go (breaks in parentheses); their
// form fields are HoursField(location, day).
type ProviderInput struct {
	PublicName    string   `form:"public_name"`
	Active        bool     `form:"active"`
	OnlineBooking bool     `form:"online_booking"`
	LocationIDs   []string `form:"location_ids"`
	MainLocation  string   `form:"location_id"`
	ServiceIDs    []string `form:"service_ids"`
	Email         string   `form:"email"`
	Phone         string   `form:"phone"`
	// NotifyBookings: the provider is emailed when a booking of theirs is made, moved or
	// cancelled (docs/messages.md); it needs an email address.
	NotifyBookings bool `form:"notify_bookings"`
	// AgendaTime is when their daily agenda email goes, on the business's clock in their main
	// location's zone ("07:00"); "" for none.
	AgendaTime string              `form:"agenda_time"`
	Hours      map[int64][7]string `form:"-"`
	// Clock12 is LocationInput.Clock12 for the provider's hours.
	Clock12 bool `form:"-"`
}

// HoursField is the form field of a provider's hours at one location on one weekday.
func HoursField(locationID int64, day int) string {
	return "hours_" + strconv.FormatInt(locationID, 10) + "_" + strconv.Itoa(day)
}

// NewProviderInput is the form of a new provider: active and bookable online.
func NewProviderInput() ProviderInput { return ProviderInput{Active: true, OnlineBooking: true} }

type provider struct {
	name           string
	active, online bool
	contact        ProviderContact
	notify         bool
	agenda         sql.NullInt64
	main           int64
	locations      []int64
	services       []int64
	hours          map[int64][7][]Shift
	warnings       []string
}

func (in ProviderInput) check(ctx context.Context, q *db.Queries) (provider, error) {
	p := problems{}
	pr := provider{active: in.Active, online: in.OnlineBooking, hours: map[int64][7][]Shift{}}
	pr.name = p.name("public_name", in.PublicName, true, MaxName)
	locs, err := q.ListAllLocations(ctx)
	if err != nil {
		return pr, err
	}
	zones, names, known := map[int64]string{}, map[int64]string{}, map[int64]bool{}
	for _, l := range locs {
		zones[l.ID], names[l.ID], known[l.ID] = l.Timezone, l.Name, true
	}
	pr.locations = p.ids("location_ids", in.LocationIDs, known)
	if main, ok := p.optionalID("location_id", in.MainLocation, known); ok {
		pr.main = main
		if !slices.Contains(pr.locations, main) { // the main location is always one of them
			pr.locations = append(pr.locations, main)
			slices.Sort(pr.locations)
		}
	} else {
		p.add("location_id", "Choose the provider's main location.")
	}
	services, err := q.AdminListServiceNames(ctx)
	if err != nil {
		return pr, err
	}
	known = map[int64]bool{}
	for _, s := range services {
		known[s.ID] = true
	}
	pr.services = p.ids("service_ids", in.ServiceIDs, known)
	if err := pr.checkMessages(ctx, q, p, in); err != nil {
		return pr, err
	}

	for loc, days := range in.Hours {
		var week [7][]Shift
		for day, text := range days {
			field := HoursField(loc, day)
			shifts, msg := parseDay(text, true, in.Clock12)
			switch {
			case msg != "":
				p.add(field, "%s", msg)
			case len(shifts) > 0 && !slices.Contains(pr.locations, loc):
				p.add(field, "Tick this location under Locations, or clear these hours.")
			}
			week[day] = shifts
		}
		pr.hours[loc] = week
	}
	pr.warnings = checkAcrossLocations(p, pr, zones, names)
	return pr, p.err()
}

// checkMessages reads how the provider is reached and what they are emailed: their contact,
// read in their main location's country, and the agenda time on the business's clock.
func (pr *provider) checkMessages(ctx context.Context, q *db.Queries, p problems, in ProviderInput) error {
	countries, err := q.LocationCountryCodes(ctx)
	if err != nil {
		return err
	}
	country := ""
	for _, c := range countries {
		if c.ID == pr.main {
			country = c.Code
		}
	}
	var bad map[string]string
	pr.contact, bad = CheckProviderContact(in.Email, in.Phone, country)
	for field, msg := range bad {
		p.add(field, "%s", msg)
	}
	pr.notify = in.NotifyBookings
	if t := strings.TrimSpace(in.AgendaTime); t != "" {
		if m, err := parseClock(t, in.Clock12); err != nil || m >= 24*60 {
			p.add("agenda_time", providerAgendaText)
		} else {
			pr.agenda = agendaMinute(m, true)
		}
	}
	if (pr.notify || pr.agenda.Valid) && strings.TrimSpace(in.Email) == "" {
		p.add("email", providerNotifyText)
	}
	return nil
}

// checkAcrossLocations compares a provider's shifts at different locations on the same weekday.
// Where both locations keep the same time zone, overlapping clock times are the same real
// time, so the hours are refused: nobody works in two places at once. Across zones the same
// clock times are different instants, so an overlap there is only worth a warning.
func checkAcrossLocations(p problems, pr provider, zones, names map[int64]string) []string {
	var warnings []string
	for i, a := range pr.locations {
		for _, b := range pr.locations[i+1:] {
			for day := range 7 {
				sa, sb := pr.hours[a][day], pr.hours[b][day]
				if !shiftsOverlap(sa, sb) {
					continue
				}
				if zones[a] == zones[b] {
					p.add(HoursField(b, day), "These hours overlap those at %s on %s; a provider cannot work at two locations at once.", names[a], Weekdays[day])
					continue
				}
				warnings = append(warnings, fmt.Sprintf("On %s the hours at %s and at %s overlap on the clock. The two locations are in different time zones (%s, %s), so check that they do not overlap in real time.",
					Weekdays[day], names[a], names[b], zones[a], zones[b]))
			}
		}
	}
	return warnings
}

func shiftsOverlap(a, b []Shift) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Open < y.Close && y.Open < x.Close {
				return true
			}
		}
	}
	return false
}

// ProviderSaved is the result of saving a provider: its id and warnings the owner should read
// (hours that overlap on the clock at locations in different time zones).
type ProviderSaved struct {
	ID       int64
	Warnings []string
}

// CreateProvider stores a new provider with its locations, services and weekly hours.
func CreateProvider(ctx context.Context, d *db.DB, in ProviderInput, now time.Time) (ProviderSaved, error) {
	var out ProviderSaved
	err := d.InTx(ctx, func(q *db.Queries) error {
		pr, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		ms := db.Millis(now)
		row, err := q.CreateProvider(ctx, db.CreateProviderParams{PublicName: pr.name, Active: pr.active, OnlineBooking: pr.online,
			LocationID: pr.main, Email: pr.contact.Email, Phone: pr.contact.Phone, NotifyBookings: pr.notify,
			AgendaMin: pr.agenda, CreatedAt: ms, UpdatedAt: ms})
		if err != nil {
			return err
		}
		out = ProviderSaved{ID: row.ID, Warnings: pr.warnings}
		if err := record(ctx, q, now, "provider.created", row.ID, activity.Created(row, unrecorded...)); err != nil {
			return err
		}
		return pr.writeLinks(ctx, q, row.ID)
	})
	return out, err
}

// UpdateProvider saves provider id and replaces its locations, services and weekly hours.
// Bookings already made stay as they are; the slot engine uses the new hours from now on.
func UpdateProvider(ctx context.Context, d *db.DB, id int64, in ProviderInput, now time.Time) (ProviderSaved, error) {
	out := ProviderSaved{ID: id}
	err := d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetProvider(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		wasContact, err := q.GetProviderContact(ctx, id)
		if err != nil {
			return err
		}
		pr, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		out.Warnings = pr.warnings
		next := db.UpdateProviderParams{PublicName: pr.name, Active: pr.active, OnlineBooking: pr.online,
			LocationID: pr.main, Email: pr.contact.Email, Phone: pr.contact.Phone, NotifyBookings: pr.notify,
			AgendaMin: pr.agenda, UpdatedAt: db.Millis(now), ID: id}
		if err := q.UpdateProvider(ctx, next); err != nil {
			return err
		}
		if err := record(ctx, q, now, "provider.updated", id, activity.Diff(old, next, unrecorded...)); err != nil {
			return err
		}
		for _, del := range []func(context.Context, int64) error{q.DeleteProviderLocations, q.DeleteProviderServices, q.DeleteProviderHours} {
			if err := del(ctx, id); err != nil {
				return err
			}
		}
		if err := pr.writeLinks(ctx, q, id); err != nil {
			return err
		}
		// Their agenda follows a new time, address or main location (its zone).
		if old.LocationID == pr.main && wasContact.AgendaMin == pr.agenda && (wasContact.Email == "") == (pr.contact.Email == "") {
			return nil
		}
		return messages.ProviderChanged(ctx, q, now, id)
	})
	return out, err
}

// writeLinks stores the locations, services and hours of provider id (which has none).
func (pr provider) writeLinks(ctx context.Context, q *db.Queries, id int64) error {
	for _, l := range pr.locations {
		if err := q.CreateProviderLocation(ctx, db.CreateProviderLocationParams{ProviderID: id, LocationID: l}); err != nil {
			return err
		}
	}
	for _, s := range pr.services {
		if err := q.CreateServiceProvider(ctx, db.CreateServiceProviderParams{ServiceID: s, ProviderID: id}); err != nil {
			return err
		}
	}
	for _, loc := range pr.locations {
		for day, shifts := range pr.hours[loc] {
			for _, sh := range shifts {
				hours, err := q.CreateProviderHours(ctx, db.CreateProviderHoursParams{ProviderID: id, LocationID: loc, DayID: int64(day),
					OpenMin: sh.Open, CloseMin: sh.Close})
				if err != nil {
					return err
				}
				for _, b := range sh.Breaks {
					if err := q.CreateProviderBreak(ctx, db.CreateProviderBreakParams{HoursID: hours, StartMin: b.Open, EndMin: b.Close}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// EditProvider returns provider id as its form shows it, its hours' times written by clock.
func EditProvider(ctx context.Context, q *db.Queries, id int64, clock Clock) (ProviderInput, error) {
	row, err := q.GetProvider(ctx, id)
	if db.IsNotFound(err) {
		return ProviderInput{}, ErrNotFound
	}
	if err != nil {
		return ProviderInput{}, err
	}
	locations, err := q.ListProviderLocationIDs(ctx, id)
	if err != nil {
		return ProviderInput{}, err
	}
	services, err := q.ListProviderServiceIDs(ctx, id)
	if err != nil {
		return ProviderInput{}, err
	}
	rows, err := q.ListProviderShifts(ctx, id)
	if err != nil {
		return ProviderInput{}, err
	}
	contact, err := q.GetProviderContact(ctx, id)
	if err != nil {
		return ProviderInput{}, err
	}
	in := ProviderInput{
		PublicName: row.PublicName, Active: row.Active, OnlineBooking: row.OnlineBooking,
		LocationIDs: FormatIDs(locations), MainLocation: strconv.FormatInt(row.LocationID, 10),
		ServiceIDs: FormatIDs(services), Hours: map[int64][7]string{},
		Email: contact.Email, Phone: contact.Phone, NotifyBookings: contact.NotifyBookings,
	}
	if contact.AgendaMin.Valid {
		in.AgendaTime = Clock(clock).format(contact.AgendaMin.Int64)
	}
	// One row per break: consecutive rows of one shift id are the same shift.
	week := map[int64]*[7][]Shift{}
	lastShift := int64(-1)
	for _, r := range rows {
		if week[r.LocationID] == nil {
			week[r.LocationID] = &[7][]Shift{}
		}
		days := &week[r.LocationID][r.DayID]
		if r.ID != lastShift {
			*days = append(*days, Shift{Span: Span{r.OpenMin, r.CloseMin}})
			lastShift = r.ID
		}
		if r.BreakStart.Valid {
			sh := &(*days)[len(*days)-1]
			sh.Breaks = append(sh.Breaks, Span{r.BreakStart.Int64, r.BreakEnd.Int64})
		}
	}
	for loc, days := range week {
		var texts [7]string
		for day, shifts := range days {
			texts[day] = formatDay(shifts, clock)
		}
		in.Hours[loc] = texts
	}
	return in, nil
}

// TimeOffInput is an absence of a provider: from and to are local date-times
// ("2026-12-24T09:00", as a datetime-local input sends them) in the provider's main location's
// time zone.
type TimeOffInput struct {
	From   string `form:"from"`
	To     string `form:"to"`
	Reason string `form:"reason"`
}

// AddTimeOff records an absence of provider id.
func AddTimeOff(ctx context.Context, d *db.DB, providerID int64, in TimeOffInput) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		zone, err := ProviderZone(ctx, q, providerID)
		if err != nil {
			return err
		}
		p := problems{}
		from, okFrom := p.localTime("from", in.From, zone, false)
		to, okTo := p.localTime("to", in.To, zone, true)
		reason := p.text("reason", in.Reason, false, MaxName)
		if okFrom && okTo && !to.After(from) {
			p.add("to", "The end must be after the start.")
		}
		if err := p.err(); err != nil {
			return err
		}
		if _, err = q.CreateProviderTimeOff(ctx, db.CreateProviderTimeOffParams{ProviderID: providerID, StartsAt: db.Millis(from), EndsAt: db.Millis(to), Reason: reason}); err != nil {
			return err
		}
		return record(ctx, q, time.Now(), "provider.time_off_added", providerID,
			activity.Changes{}.Set("time_off.starts_at", nil, from).Set("time_off.ends_at", nil, to).Set("time_off.reason", nil, reason))
	})
}

// RemoveTimeOff deletes one absence of provider id.
func RemoveTimeOff(ctx context.Context, d *db.DB, providerID, timeOffID int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		offs, err := q.ListProviderTimeOff(ctx, providerID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(offs, func(o db.ProviderTimeOff) bool { return o.ID == timeOffID })
		if i < 0 {
			return ErrNotFound
		}
		n, err := q.DeleteProviderTimeOff(ctx, db.DeleteProviderTimeOffParams{ID: timeOffID, ProviderID: providerID})
		if err == nil && n == 0 {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		o := offs[i]
		return record(ctx, q, time.Now(), "provider.time_off_removed", providerID, activity.Changes{}.
			Set("time_off.starts_at", db.Time(o.StartsAt), nil).Set("time_off.ends_at", db.Time(o.EndsAt), nil).Set("time_off.reason", o.Reason, nil))
	})
}

// ProviderZone is the time zone of provider id's main location, in which its time off is
// entered and shown.
func ProviderZone(ctx context.Context, q *db.Queries, providerID int64) (*time.Location, error) {
	pr, err := q.GetProvider(ctx, providerID)
	if db.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	loc, err := q.ScheduleLocation(ctx, pr.LocationID)
	if err != nil {
		return nil, err
	}
	return time.LoadLocation(loc.Timezone)
}

// localTime reads a datetime-local value in zone. A wall time the clocks skip (spring forward)
// is refused; one they repeat (fall back) is read as its first instant for a start and its
// second for an end, so the absence covers the whole hour the owner meant.
func (p problems) localTime(field, s string, zone *time.Location, end bool) (time.Time, bool) {
	s = strings.TrimSpace(s)
	var t time.Time
	var err error
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04"} {
		if t, err = time.Parse(layout, s); err == nil {
			break
		}
	}
	if err != nil {
		p.add(field, "Enter a date and time like 2026-12-24 09:00.")
		return time.Time{}, false
	}
	instants := localInstants(zone, t)
	if len(instants) == 0 {
		p.add(field, "%s does not exist in %s: the clocks skip it. Choose another time.", t.Format("2006-01-02 15:04"), zone)
		return time.Time{}, false
	}
	if end {
		return instants[len(instants)-1], true
	}
	return instants[0], true
}

// localInstants are the instants at which zone's clocks read wall (a time read as UTC): none,
// one, or two around a fall-back.
func localInstants(zone *time.Location, wall time.Time) []time.Time {
	return booking.Instants(zone, booking.DateOf(wall), wall.Hour()*60+wall.Minute())
}
