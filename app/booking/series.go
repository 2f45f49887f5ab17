package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A series repeats a booking weekly, every N weeks, or monthly on a weekday of the month ("the
// second Tuesday", "the last Friday"), at the same wall time of the location whatever the
// daylight-saving changes in between. Every occurrence is an ordinary booking carrying the
// series' id, checked and written exactly as one booking is (Prepare, then Book), so the
// overlap check in the write transaction and the database trigger guard each of them. The
// whole series is written in one transaction: "all or nothing" refuses it naming the dates
// taken, "the free ones" books the rest. The client gets one confirmation listing the dates
// (messages.SeriesBooked) and a reminder per occurrence.

// Repeat frequencies.
const (
	RepeatWeekly  = "weekly"
	RepeatMonthly = "monthly"
)

// Series modes: what to do when some occurrences are not free.
const (
	SeriesFreeOnes     = "free_ones"      // book the free occurrences, leave the others
	SeriesAllOrNothing = "all_or_nothing" // book every occurrence or none
)

// Scopes of a change or cancel of an occurrence.
const (
	ScopeOne       = "one"       // this occurrence only
	ScopeFollowing = "following" // this occurrence and the later ones
	ScopeAll       = "all"       // every occurrence that has not started
)

// MaxOccurrences bounds a series; so does a year from its first occurrence.
const MaxOccurrences = 52

// ConflictSeriesUnavailable is the reason of a series refused because some occurrences are taken.
const ConflictSeriesUnavailable = "series_unavailable"

// Repeat says how a booking repeats.
type Repeat struct {
	Freq string // RepeatWeekly or RepeatMonthly
	// IntervalWeeks: weekly, every so many weeks (0 means 1; at most 52).
	IntervalWeeks int
	// WeekOfMonth: monthly, which weekday of the month — 1 to 4, or -1 for the last; 0 means
	// the first occurrence's own (its fifth weekday of a month is the last).
	WeekOfMonth int
	// Count is how many occurrences, the first included (1–52); those a year or more after the
	// first are not made.
	Count int
}

// SeriesRequest is a series to book: its first occurrence as a NewBooking, how it repeats, and
// the mode (SeriesFreeOnes or SeriesAllOrNothing).
type SeriesRequest struct {
	NewBooking
	Repeat Repeat
	Mode   string
}

// Occurrence is one date of a series: when it falls and whether it is free; once booked, its
// booking.
type Occurrence struct {
	Date  Date      // the local date
	Start time.Time // the instant; zero when the wall time does not exist that day
	Free  bool
	// Reason says why it is not free: ReasonTaken, or the rule that refuses it.
	Reason  string
	Booking *View
	prep    Prepared
}

// ReasonTaken says an occurrence's time is held by another booking.
const ReasonTaken = "taken"

// SeriesResult is a series booked: its id and every occurrence, booked or not.
type SeriesResult struct {
	SeriesID    int64
	Occurrences []Occurrence
}

// SeriesUnavailableError refuses a series, or a change of several occurrences, because the
// occurrences on Dates are not free.
type SeriesUnavailableError struct{ Dates []Date }

func (e *SeriesUnavailableError) Error() string {
	return "not free on " + joinDates(e.Dates)
}

// Fail is the refusal as the shared vocabulary says it: a conflict naming the dates.
func (e *SeriesUnavailableError) Fail() *fail.Error {
	return &fail.Error{Code: fail.CodeConflict, Reason: ConflictSeriesUnavailable, Message: e.Error(),
		Msg: i18n.M("booking.series.unavailable", "dates", joinDates(e.Dates))}
}

func joinDates(ds []Date) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}

// CheckSeries says, for every occurrence of req, whether it is free, writing nothing: what the
// person booking is shown before choosing a mode. Errors are those of a request at fault as a
// whole (a missing client, a bad rule); an occurrence the rules refuse is only marked. For the
// booking site (source online) the client may still be unknown (ClientID 0): a visitor sees
// the dates before giving their details, as for one booking.
func CheckSeries(ctx context.Context, d *db.DB, now time.Time, req SeriesRequest) ([]Occurrence, error) {
	return planSeries(ctx, d, now, req, req.Source == SourceOnline)
}

// BookSeries books the occurrences of req in one write transaction, each through Book (the
// overlap check, the trigger, booking.created and its reminders), with the client's one
// confirmation listing the dates. All or nothing: any occurrence not free refuses the series
// with *SeriesUnavailableError naming those dates. The free ones: the free occurrences are
// booked (an occurrence taken between the check and the write is left out too); none free is
// the same refusal.
func BookSeries(ctx context.Context, d *db.DB, now time.Time, req SeriesRequest) (SeriesResult, error) {
	if req.Mode != SeriesFreeOnes && req.Mode != SeriesAllOrNothing {
		return SeriesResult{}, invalid("mode", "want %q or %q", SeriesFreeOnes, SeriesAllOrNothing)
	}
	occ, err := planSeries(ctx, d, now, req, false)
	if err != nil {
		return SeriesResult{}, err
	}
	if taken := notFree(occ); len(taken) > 0 && (req.Mode == SeriesAllOrNothing || len(taken) == len(occ)) {
		return SeriesResult{}, &SeriesUnavailableError{Dates: taken}
	}
	first := occ[0]
	var out SeriesResult
	err = d.InTx(ctx, func(q *db.Queries) error {
		out = SeriesResult{Occurrences: append([]Occurrence(nil), occ...)}
		row, err := q.InsertBookingSeries(ctx, seriesRow(req.Repeat, len(occ), first, now))
		if err != nil {
			return fmt.Errorf("insert series: %w", err)
		}
		out.SeriesID = row.ID
		joined := db.WithTx(ctx, q)
		var ids []int64
		for i := range out.Occurrences {
			o := &out.Occurrences[i]
			if !o.Free {
				continue
			}
			p := o.prep
			p.SeriesID = row.ID
			v, err := Book(joined, d, now, p)
			if errors.Is(err, ErrSlotUnavailable) || errors.Is(err, ErrClassFull) {
				o.Free, o.Reason = false, ReasonTaken // taken since the check; nothing was written
				continue
			}
			if err != nil {
				return fmt.Errorf("occurrence %s: %w", o.Date, err)
			}
			o.Booking = &v
			ids = append(ids, v.Booking.ID)
		}
		if taken := notFree(out.Occurrences); len(ids) == 0 || (req.Mode == SeriesAllOrNothing && len(taken) > 0) {
			return &SeriesUnavailableError{Dates: taken}
		}
		return messages.SeriesBooked(ctx, q, now, ids)
	})
	if err != nil {
		return SeriesResult{}, err
	}
	for i := range out.Occurrences {
		out.Occurrences[i].prep = Prepared{}
	}
	return out, nil
}

func notFree(occ []Occurrence) []Date {
	var out []Date
	for _, o := range occ {
		if !o.Free {
			out = append(out, o.Date)
		}
	}
	return out
}

func seriesRow(r Repeat, count int, first Occurrence, now time.Time) db.InsertBookingSeriesParams {
	p := db.InsertBookingSeriesParams{Freq: r.Freq, IntervalWeeks: int64(max(r.IntervalWeeks, 1)),
		Count: int64(count), FirstLocal: first.Start.Format("2006-01-02T15:04"), CreatedAt: db.Millis(now)}
	if r.Freq == RepeatMonthly {
		p.IntervalWeeks = 1
		p.WeekOfMonth = sql.NullInt64{Int64: int64(r.WeekOfMonth), Valid: true}
	}
	return p
}

// planSeries lays out the occurrences of req in the location's zone and checks each through
// Prepare (read side: most refusals cost the writer nothing). anonymous lets a check run before
// the client is known.
func planSeries(ctx context.Context, d *db.DB, now time.Time, req SeriesRequest, anonymous bool) ([]Occurrence, error) {
	nb := req.NewBooking
	if nb.NewClient || (nb.ClientID == 0 && !anonymous) {
		return nil, invalid("client_id", "a series is booked for a known client")
	}
	if nb.SeriesID != 0 {
		return nil, invalid("series_id", "is set by the series")
	}
	loc, err := d.Reader(ctx).ScheduleLocation(ctx, nb.LocationID)
	if err != nil {
		return nil, notFoundAs(err, "location")
	}
	zone, err := LoadZone(loc.Timezone)
	if err != nil {
		return nil, err
	}
	start, length, err := seriesStart(zone, nb)
	if err != nil {
		return nil, err
	}
	local := start.In(zone)
	minute := local.Hour()*60 + local.Minute()
	r := &req.Repeat
	dates, err := r.dates(DateOf(local))
	if err != nil {
		return nil, err
	}
	out := make([]Occurrence, len(dates))
	for i, day := range dates {
		o := Occurrence{Date: day}
		at := Instants(zone, day, minute)
		if len(at) == 0 {
			o.Reason = "the local time does not exist that day (a daylight-saving change)"
			out[i] = o
			continue
		}
		one := nb
		one.Start, one.StartWall, one.EndWall, one.End = at[0], false, false, time.Time{}
		if length > 0 {
			one.End = at[0].Add(length)
		}
		o.Start = at[0]
		p, err := Prepare(ctx, d, now, one)
		var inv *InvalidError
		switch {
		case err == nil:
			o.Free, o.prep = true, p
		case errors.Is(err, ErrSlotUnavailable) || errors.Is(err, ErrClassFull):
			o.Reason = ReasonTaken
		case errors.As(err, &inv) && (inv.Field == "start_time" || inv.Field == "end_time"):
			o.Reason = inv.Message // outside working time, beyond the advance window, …
		default:
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// seriesStart is the first occurrence's start as an instant and its length (0: the service's
// duration), reading wall-clock times in zone.
func seriesStart(zone *time.Location, nb NewBooking) (time.Time, time.Duration, error) {
	p := nb.placement()
	if err := validStart(p.Start); err != nil {
		return time.Time{}, 0, err
	}
	if err := p.resolveWall(zone); err != nil {
		return time.Time{}, 0, err
	}
	if p.End.IsZero() {
		return p.Start, 0, nil
	}
	if err := validEnd(p.Start, p.End); err != nil {
		return time.Time{}, 0, err
	}
	return p.Start, p.End.Sub(p.Start), nil
}

// dates are the local dates of the series that starts on first: Count of them, fewer when the
// rule reaches a year past first.
func (r *Repeat) dates(first Date) ([]Date, error) {
	if r.Count < 1 || r.Count > MaxOccurrences {
		return nil, invalid("repeat.count", "want 1 to %d occurrences", MaxOccurrences)
	}
	limit := DateOf(first.utc().AddDate(1, 0, 0))
	var out []Date
	switch r.Freq {
	case RepeatWeekly:
		if r.WeekOfMonth != 0 {
			return nil, invalid("repeat.week_of_month", "only for a monthly series")
		}
		if r.IntervalWeeks == 0 {
			r.IntervalWeeks = 1
		}
		if r.IntervalWeeks < 1 || r.IntervalWeeks > MaxOccurrences {
			return nil, invalid("repeat.interval", "want 1 to %d weeks", MaxOccurrences)
		}
		for i := 0; i < r.Count; i++ {
			d := first.AddDays(7 * r.IntervalWeeks * i)
			if !d.Before(limit) {
				break
			}
			out = append(out, d)
		}
	case RepeatMonthly:
		if r.IntervalWeeks > 1 {
			return nil, invalid("repeat.interval", "only for a weekly series")
		}
		nth := (first.Day-1)/7 + 1
		if r.WeekOfMonth == 0 {
			r.WeekOfMonth = nth
			if nth == 5 {
				r.WeekOfMonth = -1
			}
		}
		switch {
		case r.WeekOfMonth != -1 && (r.WeekOfMonth < 1 || r.WeekOfMonth > 4):
			return nil, invalid("repeat.week_of_month", "want 1 to 4, or -1 for the last")
		case nthWeekday(first.Year, first.Month, first.Weekday(), r.WeekOfMonth) != first:
			return nil, invalid("start_time", "%s is not the %s %s of its month", first, ordinal(r.WeekOfMonth), first.Weekday())
		}
		for i := 0; len(out) < r.Count; i++ {
			m := first.utc().AddDate(0, i, 1-first.Day) // the first of the i-th month on
			d := nthWeekday(m.Year(), m.Month(), first.Weekday(), r.WeekOfMonth)
			if !d.Before(limit) {
				break
			}
			out = append(out, d)
		}
	default:
		return nil, invalid("repeat.frequency", "want %q or %q", RepeatWeekly, RepeatMonthly)
	}
	return out, nil
}

// nthWeekday is the n-th weekday w of a month (n 1–4), or its last (n = -1).
func nthWeekday(year int, month time.Month, w time.Weekday, n int) Date {
	if n == -1 {
		last := DateOf(time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC))
		return last.AddDays(-((int(last.Weekday()) - int(w) + 7) % 7))
	}
	first := DateOf(time.Date(year, month, 1, 0, 0, 0, 0, time.UTC))
	return first.AddDays((int(w)-int(first.Weekday())+7)%7 + 7*(n-1))
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	case 4:
		return "fourth"
	}
	return "last"
}

// seriesTargets are the bookings a change or cancel of booking cur with scope reaches, in time
// order: cur alone; cur and the later live occurrences; or every live occurrence that has not
// started (cur included).
func seriesTargets(ctx context.Context, q *db.Queries, now time.Time, cur db.Booking, scope string) ([]db.Booking, error) {
	switch scope {
	case ScopeOne, "":
		return []db.Booking{cur}, nil
	case ScopeFollowing, ScopeAll:
	default:
		return nil, invalid("scope", "want %q, %q or %q", ScopeOne, ScopeFollowing, ScopeAll)
	}
	if !cur.SeriesID.Valid {
		return []db.Booking{cur}, nil
	}
	ids, err := q.SeriesBookingIDs(ctx, cur.SeriesID)
	if err != nil {
		return nil, fmt.Errorf("series %d: %w", cur.SeriesID.Int64, err)
	}
	var out []db.Booking
	for _, id := range ids {
		b, err := q.GetBookingRow(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("occurrence %d: %w", id, err)
		}
		switch {
		case b.ID == cur.ID:
		case b.StatusID == StatusCancelled:
			continue
		case scope == ScopeFollowing && b.StartAt < cur.StartAt:
			continue
		case scope == ScopeAll && !db.Time(b.StartAt).After(now):
			continue
		}
		out = append(out, b)
	}
	return out, nil
}

// CancelOccurrences cancels booking id and, by scope, the later occurrences of its series or
// all those not started, in one transaction (each with its own booking.updated and cancel
// notice). It returns the ids it cancelled. Errors are CancelWith's; one refusal cancels none.
func CancelOccurrences(ctx context.Context, d *db.DB, now time.Time, id int64, scope string, o CancelOptions) ([]int64, error) {
	if scope == ScopeOne || scope == "" {
		return []int64{id}, CancelWith(ctx, d, now, id, o)
	}
	var done []int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		done = nil
		cur, err := q.GetBookingRow(ctx, id)
		if err != nil {
			return notFoundAs(err, "booking")
		}
		targets, err := seriesTargets(ctx, q, now, cur, scope)
		if err != nil {
			return err
		}
		joined := db.WithTx(ctx, q)
		for _, b := range targets {
			if err := CancelWith(joined, d, now, b.ID, o); err != nil {
				return err
			}
			done = append(done, b.ID)
		}
		return nil
	})
	return done, err
}

// UpdateOccurrences applies ch to booking id and, by scope, to the later occurrences of its
// series or to all those not started, in one transaction. A new start moves every occurrence
// by the same number of days to the new wall time, each on its own date in the location's
// zone; a new end keeps the new length for each. Each occurrence is checked as Update checks
// one; any taken refuses the change with *SeriesUnavailableError naming those dates, and
// nothing is written.
func UpdateOccurrences(ctx context.Context, d *db.DB, now time.Time, id int64, ch Change, scope, source string) ([]View, error) {
	if scope == ScopeOne || scope == "" {
		v, err := Update(ctx, d, now, id, ch, source)
		return []View{v}, err
	}
	var out []View
	err := d.InTx(ctx, func(q *db.Queries) error {
		out = nil
		view, err := getView(ctx, q, id)
		if err != nil {
			return err
		}
		targets, err := seriesTargets(ctx, q, now, view.Booking, scope)
		if err != nil {
			return err
		}
		move, err := seriesMove(ctx, q, view, ch)
		if err != nil {
			return err
		}
		if move.days > 0 || (move.days == 0 && move.later) {
			reverse(targets) // move the last first, so no occurrence lands on one not moved yet
		}
		joined := db.WithTx(ctx, q)
		var taken []Date
		for _, b := range targets {
			one, day, err := move.apply(b, ch)
			if err != nil {
				return err
			}
			v, err := Update(joined, d, now, b.ID, one, source)
			if errors.Is(err, ErrSlotUnavailable) || errors.Is(err, ErrClassFull) {
				taken = append(taken, day)
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		if len(taken) > 0 {
			reverseDates(taken, move.days > 0 || (move.days == 0 && move.later))
			return &SeriesUnavailableError{Dates: taken}
		}
		if move.days > 0 || (move.days == 0 && move.later) {
			reverse(out)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// occurrenceMove is how a change of one occurrence's time carries to the others: so many days
// and the new wall time of day, in zone.
type occurrenceMove struct {
	moves  bool
	zone   *time.Location
	days   int
	minute int
	length time.Duration // a new end: the new length; 0 keeps each one's own
	later  bool          // the same day, later in it
}

func seriesMove(ctx context.Context, q *db.Queries, view View, ch Change) (occurrenceMove, error) {
	zone, err := placementZone(ctx, q, view, pick(ch.LocationID, view.Booking.LocationID))
	if err != nil {
		return occurrenceMove{}, err
	}
	if ch.Start == nil && ch.End == nil {
		return occurrenceMove{zone: zone}, nil
	}
	p := placement{Start: db.Time(view.Booking.StartAt), End: db.Time(view.Booking.EndAt)}
	if ch.Start != nil {
		p.Start, p.StartWall = *ch.Start, ch.StartWall
	}
	if ch.End != nil {
		p.End, p.EndWall = *ch.End, ch.EndWall
	}
	if err := p.resolveWall(zone); err != nil {
		return occurrenceMove{}, err
	}
	oldLocal, newLocal := db.Time(view.Booking.StartAt).In(zone), p.Start.In(zone)
	m := occurrenceMove{moves: true, zone: zone, minute: newLocal.Hour()*60 + newLocal.Minute(),
		days: int(DateOf(newLocal).unixDay() - DateOf(oldLocal).unixDay()), later: newLocal.After(oldLocal)}
	if ch.End != nil {
		m.length = p.End.Sub(p.Start)
	}
	return m, nil
}

// apply is ch for occurrence b, and b's (new) local date.
func (m occurrenceMove) apply(b db.Booking, ch Change) (Change, Date, error) {
	if !m.moves {
		return ch, DateOf(db.Time(b.StartAt).In(m.zone)), nil
	}
	day := DateOf(db.Time(b.StartAt).In(m.zone)).AddDays(m.days)
	at := Instants(m.zone, day, m.minute)
	if len(at) == 0 {
		return ch, day, invalid("start_time", "%s %02d:%02d does not exist in %s: the clocks skip it that day (a daylight-saving change)",
			day, m.minute/60, m.minute%60, m.zone)
	}
	start := at[0]
	ch.Start, ch.StartWall, ch.End, ch.EndWall = &start, false, nil, false
	if m.length > 0 {
		end := start.Add(m.length)
		ch.End = &end
	}
	return ch, day, nil
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func reverseDates(ds []Date, reversed bool) {
	if reversed {
		reverse(ds)
	}
}

// SeriesOf returns the series row of id.
func SeriesOf(ctx context.Context, q *db.Queries, id int64) (db.BookingSeries, error) {
	s, err := q.GetBookingSeries(ctx, id)
	if err != nil {
		return db.BookingSeries{}, notFoundAs(err, "series")
	}
	return s, nil
}
