package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/clients"
	"frontdesk/app/money"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Cost and courtesy (docs/messages.md): the owner's rules for texts, applied by the dispatcher
// when a text is about to go (Prepare) and, for reminders, when they are planned.
//
//   - Which kinds may go by text at all (TextKinds); the others go by email.
//   - Quiet hours in the zone of the message's location (default 21:00–08:00): a reminder by
//     text due inside them is planned for the minute before they start; any other text due
//     inside them waits until they end — or, when the appointment begins before they end, goes
//     by email at once (a text then would come too late to be of use).
//   - A daily cap on texts (default 200, counted per day of the business's zone): over it a
//     text goes by email; with no email to carry it, it waits for the next day.
//   - Texts only to a number of a client who has a booking (TextableNumber), and a test text
//     only to such a number or to one of the business's own.

// Defaults of the rules, mirrored by the column defaults of message_text_policy.
const (
	DefaultDailyCap   = 200
	DefaultQuietStart = 21 * 60
	DefaultQuietEnd   = 8 * 60
	MaxDailyCap       = 100000
	// MaxPricePer1000 bounds the price of 1,000 segments (hundredths): a million in any currency.
	MaxPricePer1000 = 100000000
)

// Policy reasons, recorded on an attempt (message_attempts.policy) and in the server's log.
const (
	PolicyKindByEmail = "kind_by_email" // the owner sends this kind by email only
	PolicyQuietEmail  = "quiet_hours"   // in quiet hours, the appointment before they end: by email
	PolicyCapEmail    = "daily_cap"     // over the daily cap: by email
	PolicyNotClient   = "not_a_client"  // the number is no client's with a booking: by email
)

// Quiet is a daily span of local time in which no text goes: from Start to End minutes after
// local midnight, across midnight when End <= Start. The zero value (Enabled false) is none.
type Quiet struct {
	Enabled    bool
	Start, End int // minutes after local midnight
}

// at is wall time minutes after midnight of day (y, m, d) in zone. A wall time the clocks skip
// becomes the instant as far after the change as it was meant to be after the skipped hour's
// start (time.Date's rule); one they show twice, the first.
func at(y int, m time.Month, d, minutes int, zone *time.Location) time.Time {
	return time.Date(y, m, d, minutes/60, minutes%60, 0, 0, zone)
}

// Window is the quiet span that contains t in zone: its start and end instants, and whether t
// is inside one at all.
func (q Quiet) Window(t time.Time, zone *time.Location) (start, end time.Time, inside bool) {
	if !q.Enabled || q.Start == q.End {
		return time.Time{}, time.Time{}, false
	}
	lt := t.In(zone)
	y, m, d := lt.Date()
	// The candidate spans: the one starting yesterday, and the one starting today.
	for _, day := range []int{d - 1, d} {
		s := at(y, m, day, q.Start, zone)
		endDay := day
		if q.End <= q.Start {
			endDay++
		}
		e := at(y, m, endDay, q.End, zone)
		if !t.Before(s) && t.Before(e) {
			return s, e, true
		}
	}
	return time.Time{}, time.Time{}, false
}

// BeforeQuiet is when a reminder by text nominally due at due goes: due itself outside quiet
// hours, else the minute before the quiet span containing due begins.
func (q Quiet) BeforeQuiet(due time.Time, zone *time.Location) time.Time {
	s, _, inside := q.Window(due, zone)
	if !inside {
		return due
	}
	return s.Add(-time.Minute)
}

// TextPolicy is the owner's rules for texts as stored.
type TextPolicy struct {
	DailyCap     int
	Quiet        Quiet
	PricePer1000 int64 // hundredths of the business currency for 1,000 segments
	ByText       map[Kind]bool
}

// TextKinds are the kinds that may go by text, in the order the settings list them.
func TextKinds() []Kind {
	out := make([]Kind, len(textKeys))
	for i, k := range textKeys {
		out[i] = k.Kind
	}
	return out
}

// readTextPolicy reads the rules in q's transaction.
func readTextPolicy(ctx context.Context, q *db.Queries) (TextPolicy, error) {
	row, err := q.MessageTextPolicy(ctx)
	if err != nil {
		return TextPolicy{}, fmt.Errorf("text policy: %w", err)
	}
	p := TextPolicy{DailyCap: int(row.DailyCap), PricePer1000: row.PricePer1000Cents, ByText: map[Kind]bool{},
		Quiet: Quiet{Enabled: row.QuietEnabled, Start: int(row.QuietStartMin), End: int(row.QuietEndMin)}}
	kinds, err := q.MessageKindsByText(ctx)
	if err != nil {
		return TextPolicy{}, err
	}
	for _, k := range kinds {
		p.ByText[Kind(k.Kind)] = k.ByText
	}
	return p, nil
}

// TextPolicy reads the owner's rules for texts.
func (s *Service) TextPolicy(ctx context.Context) (TextPolicy, error) {
	var out TextPolicy
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		var err error
		out, err = readTextPolicy(ctx, q)
		return err
	})
	return out, err
}

// TextPolicyInput is a save of the rules as the settings form gives them: the cap as typed
// ("200"), the quiet hours in minutes after midnight (-1: a time that could not be read).
type TextPolicyInput struct {
	DailyCap     string
	QuietEnabled bool
	QuietStart   int
	QuietEnd     int
	PricePer1000 string // a decimal amount ("8.3"; "" is none), the admin's reading of what was typed
	ByText       map[Kind]bool
}

// FormatClock writes minutes after midnight as "21:00".
func FormatClock(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// SaveTextPolicy stores the rules after checking all of them: a refused field saves nothing.
// The activity trail records what changed.
func (s *Service) SaveTextPolicy(ctx context.Context, in TextPolicyInput) error {
	var errs FieldErrors
	bad := func(field string, m i18n.Msg) { errs = append(errs, FieldError{field, m}) }
	capN, err := strconv.Atoi(strings.TrimSpace(in.DailyCap))
	if err != nil || capN < 1 || capN > MaxDailyCap {
		bad("daily_cap", i18n.M("messages.policy.error.cap", "max", MaxDailyCap))
	}
	start, end := in.QuietStart, in.QuietEnd
	okStart, okEnd := start >= 0 && start < 24*60, end >= 0 && end < 24*60
	if !okStart {
		bad("quiet_start", i18n.M("messages.policy.error.clock"))
	}
	if !okEnd {
		bad("quiet_end", i18n.M("messages.policy.error.clock"))
	}
	if okStart && okEnd && in.QuietEnabled && start == end {
		bad("quiet_end", i18n.M("messages.policy.error.quiet_same"))
	}
	var price money.Cents
	if v := strings.TrimSpace(in.PricePer1000); v != "" {
		if price, err = money.Parse(v); err != nil || price > MaxPricePer1000 {
			bad("price", i18n.M("messages.policy.error.price"))
		}
	}
	for k := range in.ByText {
		if !clientTextKind(k) {
			bad("by_text", i18n.M("messages.settings.error.kind"))
			break
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		row, err := q.MessageTextPolicy(ctx)
		if err != nil {
			return err
		}
		next := db.UpdateMessageTextPolicyParams{DailyCap: int64(capN), QuietEnabled: in.QuietEnabled,
			QuietStartMin: int64(start), QuietEndMin: int64(end), PricePer1000Cents: int64(price),
			UpdatedAt: db.Millis(s.now())}
		if err := q.UpdateMessageTextPolicy(ctx, next); err != nil {
			return err
		}
		ch := activity.Diff(row, next, "updated_at")
		kinds, err := q.MessageKindsByText(ctx)
		if err != nil {
			return err
		}
		for _, k := range kinds {
			if !clientTextKind(Kind(k.Kind)) {
				continue
			}
			want := in.ByText[Kind(k.Kind)]
			if want == k.ByText {
				continue
			}
			if _, err := q.UpdateMessageKindByText(ctx, db.UpdateMessageKindByTextParams{ByText: want, Kind: k.Kind}); err != nil {
				return err
			}
			ch.Set("kind."+k.Kind+".by_text", k.ByText, want)
		}
		return recordSettings(ctx, q, s.now(), ch)
	})
}

// clientTextKind reports whether k is a client's message that can go by text.
func clientTextKind(k Kind) bool {
	for _, x := range textKeys {
		if x.Kind == k {
			return true
		}
	}
	return false
}

// TextCost is the estimated cost of segments at price (hundredths for 1,000 segments), in
// thousandths of a hundredth: exact, so a month's sum rounds once.
func TextCost(segments int, pricePer1000 int64) int64 { return int64(segments) * pricePer1000 }

// CostCents rounds a cost in thousandths of a hundredth to hundredths, half up, for printing.
func CostCents(milli int64) int64 { return (milli + 500) / 1000 }

// ErrNumberNotAllowed refuses a text to a number that is neither a client's with a booking nor
// one of the business's own.
var ErrNumberNotAllowed = errors.New("texts go only to clients with a booking and to the business's own numbers")

// TextableNumber reports whether a text may go to number (E.164): the phone of a client who has
// a booking.
func TextableNumber(ctx context.Context, q *db.Queries, number string) (bool, error) {
	if number == "" {
		return false, nil
	}
	return q.TextableClientNumber(ctx, sql.NullString{String: number, Valid: true})
}

// CheckTestNumber is the rule for a test text: a client's number (with a booking) or one of
// the business's own — a location's or a provider's phone. Nothing else: a test send is not a
// way to text anyone.
func (s *Service) CheckTestNumber(ctx context.Context, number string) error {
	return s.db.ReadTx(ctx, func(q *db.Queries) error {
		ok, err := TextableNumber(ctx, q, number)
		if err != nil || ok {
			return err
		}
		country, err := q.BusinessCountry(ctx)
		if err != nil && !db.IsNotFound(err) {
			return err
		}
		own, err := q.BusinessNumbers(ctx)
		if err != nil {
			return err
		}
		for _, p := range own {
			if p == number {
				return nil
			}
			if e164, err := clients.ParsePhone(p, country); err == nil && e164 == number {
				return nil
			}
		}
		return ErrNumberNotAllowed
	})
}

// textCap counts the texts of the current day of the business's zone against the daily cap. It
// is kept in memory by the one dispatcher of the database: seeded from the attempts recorded
// that day at the first text of the day, then raised for each text before it is handed to the
// provider (a reservation) and lowered again when the provider does not take it — so two
// texts sent at once can never both take the last place.
type textCap struct {
	mu    sync.Mutex
	day   string
	count int
}

// reserve takes a place under limit for a text starting at now in zone, or says there is none.
// seed counts the texts already sent in [dayStart, dayEnd).
func (c *textCap) reserve(now time.Time, zone *time.Location, limit int, seed func(from, to time.Time) (int, error)) (day string, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	lt := now.In(zone)
	day = lt.Format(time.DateOnly)
	if c.day != day {
		y, m, d := lt.Date()
		n, err := seed(time.Date(y, m, d, 0, 0, 0, 0, zone), time.Date(y, m, d+1, 0, 0, 0, 0, zone))
		if err != nil {
			return day, false, err
		}
		c.day, c.count = day, n
	}
	if c.count >= limit {
		return day, false, nil
	}
	c.count++
	return day, true, nil
}

// release gives back a place taken on day by a text the provider did not take.
func (c *textCap) release(day string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.day == day && c.count > 0 {
		c.count--
	}
}

// nextDay is the start of the day after now's in zone.
func nextDay(now time.Time, zone *time.Location) time.Time {
	y, m, d := now.In(zone).Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, zone)
}

// textRules applies the owner's rules to a client's message about to go by text at now: the
// rule that sends it by email instead (reason), or the time it waits until (quiet hours). force
// is a rule already decided (the daily cap, full).
func (s *Service) textRules(ctx context.Context, q *db.Queries, kind Kind, a facts, now time.Time, bizZone *time.Location, force string) (readPolicy, error) {
	p, err := readTextPolicy(ctx, q)
	if err != nil {
		return readPolicy{}, err
	}
	rp := readPolicy{TextPolicy: p}
	if force == PolicyCapEmail {
		rp.reason, rp.wait = force, nextDay(now, bizZone)
		rp.note = fmt.Sprintf("the daily cap of %d texts was reached: waits for the next day", p.DailyCap)
		return rp, nil
	}
	if !p.ByText[kind] {
		rp.reason = PolicyKindByEmail
		return rp, nil
	}
	ok, err := TextableNumber(ctx, q, a.phone)
	if err != nil {
		return rp, err
	}
	if !ok {
		rp.reason = PolicyNotClient
		return rp, nil
	}
	if _, end, inside := p.Quiet.Window(now, zoneOr(a.Zone)); inside {
		rp.wait, rp.note = end, "quiet hours: waits until they end at "+FormatClock(p.Quiet.End)
		if a.HasAppointment && a.Start.Before(end) {
			// Waiting would bring it after the appointment began.
			rp.reason = PolicyQuietEmail
		}
	}
	return rp, nil
}

// MonthCount is one month's messages sent on one channel (a text's segments and estimated cost
// in thousandths of a hundredth).
type MonthCount struct {
	Month     string // "2026-11", in the business's zone
	Channel   string
	Sent      int64
	Segments  int64
	CostMilli int64
}

// TextStats is what the owner sees of texts' cost: today's texts against the cap, and the
// monthly counts per channel.
type TextStats struct {
	Today  int64
	Months []MonthCount
}

// TextStats reads today's texts (the business's day) and the last months' counts, newest first.
func (s *Service) TextStats(ctx context.Context, months int) (TextStats, error) {
	var out TextStats
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		zone := time.UTC
		if tz, err := q.BusinessTimezone(ctx); err == nil {
			if z, err := time.LoadLocation(tz); err == nil {
				zone = z
			}
		}
		now := s.now().In(zone)
		y, m, d := now.Date()
		n, err := q.CountTextsSent(ctx, db.CountTextsSentParams{FromAt: db.Millis(time.Date(y, m, d, 0, 0, 0, 0, zone)),
			ToAt: db.Millis(time.Date(y, m, d+1, 0, 0, 0, 0, zone))})
		if err != nil {
			return err
		}
		out.Today = n
		rows, err := q.ListMonthCounts(ctx, time.Date(y, m-time.Month(months-1), 1, 0, 0, 0, 0, zone).Format("2006-01"))
		if err != nil {
			return err
		}
		for _, r := range rows {
			out.Months = append(out.Months, MonthCount{Month: r.Month, Channel: r.Channel, Sent: r.Sent, Segments: r.Segments, CostMilli: r.CostMilli})
		}
		return nil
	})
	return out, err
}
