// Package reports computes the owner's reports (docs/reports.md): for a range of local dates in
// the business's zone and one location or all of them, the money received (by day, week or
// month; by service, provider and payment method), bookings by outcome, utilisation against the
// booking engine's own working time (booking.WorkingDays), new and returning clients, top
// services, class fill and packs — each for the range and for the period of equal length just
// before it. It only reads, in one read transaction, and knows nothing about HTTP or pages.
package reports

import (
	"context"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/db"
)

// MaxDays is the longest range a report covers (a little over three years): longer ones are
// refused as input, never computed.
const MaxDays = 3*366 + 31

// Bucket is the step of the revenue series: a day, a week (from Monday) or a calendar month.
type Bucket string

// The buckets.
const (
	Day   Bucket = "day"
	Week  Bucket = "week"
	Month Bucket = "month"
)

// Range is local dates From to To inclusive, in the business's zone.
type Range struct {
	From, To booking.Date
}

// Days is how many dates r covers.
func (r Range) Days() int {
	n := 0
	for d := r.From; !d.After(r.To); d = d.AddDays(1) {
		n++
	}
	return n
}

// Previous is the range of equal length that ends the day before r starts.
func (r Range) Previous() Range {
	n := r.Days()
	return Range{From: r.From.AddDays(-n), To: r.From.AddDays(-1)}
}

// BucketFor is the step a range's revenue series is drawn in: days up to 31 days, weeks up to
// 92 (a quarter), months beyond.
func BucketFor(r Range) Bucket {
	switch n := r.Days(); {
	case n <= 31:
		return Day
	case n <= 92:
		return Week
	default:
		return Month
	}
}

// Preset ranges the form offers.
const (
	ThisWeek     = "this_week"
	LastMonth    = "last_month"
	Last12Months = "last_12_months"
	Custom       = "custom"
)

// PresetRange is preset's range on local date today: this week from its Monday to today, the
// previous calendar month, or the twelve whole months before the current one.
func PresetRange(preset string, today booking.Date) (Range, bool) {
	first := booking.Date{Year: today.Year, Month: today.Month, Day: 1}
	switch preset {
	case ThisWeek:
		return Range{From: WeekStart(today), To: today}, true
	case LastMonth:
		prev := monthStart(first.AddDays(-1))
		return Range{From: prev, To: first.AddDays(-1)}, true
	case Last12Months:
		from := first
		for range 12 {
			from = monthStart(from.AddDays(-1))
		}
		return Range{From: from, To: first.AddDays(-1)}, true
	}
	return Range{}, false
}

// CheckRange refuses a range that ends before it starts or is longer than MaxDays.
func CheckRange(r Range) error {
	switch {
	case !r.From.IsValid() || !r.To.IsValid():
		return fail.Invalid("from", "is not a date")
	case r.To.Before(r.From):
		return fail.Invalid("to", "is before the start")
	case r.Days() > MaxDays:
		return fail.Invalid("to", "makes the range longer than %d days", MaxDays)
	}
	return nil
}

// WeekStart is the Monday of d's week (the week the admin's calendar shows).
func WeekStart(d booking.Date) booking.Date {
	return d.AddDays(-((int(d.Weekday()) + 6) % 7))
}

func monthStart(d booking.Date) booking.Date {
	return booking.Date{Year: d.Year, Month: d.Month, Day: 1}
}

// bucketOf is the first date of the bucket local date d falls in.
func bucketOf(b Bucket, d booking.Date) booking.Date {
	switch b {
	case Week:
		return WeekStart(d)
	case Month:
		return monthStart(d)
	}
	return d
}

// nextBucket is the first date of the bucket after the one starting at d.
func nextBucket(b Bucket, d booking.Date) booking.Date {
	switch b {
	case Week:
		return d.AddDays(7)
	case Month:
		return monthStart(d.AddDays(32))
	}
	return d.AddDays(1)
}

// Query is what a report is asked for.
type Query struct {
	Range    Range
	Location int64 // 0: every location
	Zone     *time.Location
}

// Report is a query's answer: the figures for the range and for the previous period.
type Report struct {
	Range, PreviousRange Range
	Bucket               Bucket
	Current, Previous    Figures
}

// Figures are one period's numbers. Money is in cents of the business's currency; times in
// minutes.
type Figures struct {
	ReceivedCents, RefundedCents, NetCents int64
	// Series is the net money per bucket, every bucket of the range in order, empty ones too.
	Series     []Point
	ByMethod   []Amount
	ByService  []Amount
	ByProvider []Amount

	Outcomes Outcomes

	Utilisation []Utilisation // per provider and location, by location then provider name
	BookedMin   int64         // the sums over Utilisation
	WorkingMin  int64

	NewClients, ReturningClients int64
	TopServices                  []Count

	ClassSessions, ClassSeats, ClassSeatsTaken    int64
	PacksSold, PackSessionsSold, PackSessionsUsed int64
}

// Point is one bucket of the series: its first date and its value.
type Point struct {
	Start booking.Date
	Cents int64
}

// Amount is money under a name (a service, a provider, a payment method). ID 0 is the rest:
// products and other lines for services, lines no booking's provider sold for providers.
type Amount struct {
	ID    int64
	Name  string
	Cents int64
}

// Count is a number under a name.
type Count struct {
	ID   int64
	Name string
	N    int64
}

// Outcomes are the bookings starting in the period by what became of them.
type Outcomes struct {
	Total    int64 // every booking, cancelled ones included
	Attended int64
	NoShow   int64
	Open     int64 // confirmed or reserved: not marked either way (yet)
	// Cancelled by whom (bookings.cancelled_by): a customer's surface, the team, a payment
	// request that ended unpaid, or not recorded (cancelled before the reports existed).
	CancelledClient, CancelledBusiness, CancelledUnpaid, CancelledUnknown int64
	// Late is the cancels (by anyone but an unpaid hold) that came inside the cancel policy's
	// lock window: a customer's own are refused there, so most are the team's on their behalf.
	Late int64
}

// Cancelled is every cancelled booking but the unpaid holds.
func (o Outcomes) Cancelled() int64 {
	return o.CancelledClient + o.CancelledBusiness + o.CancelledUnknown
}

// Counted is the bookings the rates divide by: all but the unpaid holds, which no one kept
// or cancelled.
func (o Outcomes) Counted() int64 { return o.Total - o.CancelledUnpaid }

// NoShowRate is no-shows over the bookings whose outcome was marked (attended or no-show), in
// basis points; -1 when there were none.
func (o Outcomes) NoShowRate() int64 { return rate(o.NoShow, o.Attended+o.NoShow) }

// CancelRate is cancelled bookings over Counted, in basis points; -1 when there were none.
func (o Outcomes) CancelRate() int64 { return rate(o.Cancelled(), o.Counted()) }

// Utilisation is one provider's booked and working minutes at one location.
type Utilisation struct {
	LocationID   int64
	LocationName string
	ProviderID   int64
	ProviderName string
	BookedMin    int64
	WorkingMin   int64
}

// Rate is booked over working minutes in basis points (it may pass 10000 when bookings were
// made outside working time); -1 without working time.
func (u Utilisation) Rate() int64 { return rate(u.BookedMin, u.WorkingMin) }

// UtilisationRate is the period's booked over working minutes in basis points; -1 without
// working time.
func (f Figures) UtilisationRate() int64 { return rate(f.BookedMin, f.WorkingMin) }

// FillRate is seats taken over seats of the period's class sessions in basis points; -1
// without sessions.
func (f Figures) FillRate() int64 { return rate(f.ClassSeatsTaken, f.ClassSeats) }

// rate is n/d in basis points rounded half up, or -1 when d is 0.
func rate(n, d int64) int64 {
	if d <= 0 {
		return -1
	}
	return (n*20000 + d) / (2 * d)
}

// Build computes q's report in one read transaction.
func Build(ctx context.Context, d *db.DB, q Query) (Report, error) {
	if err := CheckRange(q.Range); err != nil {
		return Report{}, err
	}
	if q.Zone == nil {
		q.Zone = time.UTC
	}
	rep := Report{Range: q.Range, PreviousRange: q.Range.Previous(), Bucket: BucketFor(q.Range)}
	err := d.ReadTx(ctx, func(rq *db.Queries) error {
		c, err := load(ctx, rq, q.Location)
		if err != nil {
			return err
		}
		if rep.Current, err = c.figures(ctx, rq, q.Zone, rep.Range, rep.Bucket); err != nil {
			return err
		}
		rep.Previous, err = c.figures(ctx, rq, q.Zone, rep.PreviousRange, rep.Bucket)
		return err
	})
	return rep, err
}
