package ical

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

// Feed writes a calendar a phone subscribes to by URL (app/feeds, docs/feeds.md): many events,
// their times in one zone, written as they come so a feed of thousands of bookings never sits
// whole in memory.
//
// Times are local times with the zone's TZID (its IANA name, which Google and Apple Calendar
// map to their own zone data) and a VTIMEZONE that describes every change of offset over the
// feed's window, so a reader without the IANA data still puts each event at the booked instant.
// A local time the clocks show twice (the hour repeated when they go back) would mean its first
// occurrence (RFC 5545 §3.3.5); such a time is written in UTC instead, which is never ambiguous.
type Feed struct {
	buf  *bufio.Writer
	w    writer
	zone *time.Location
}

// FeedHeader is what a feed says about itself.
type FeedHeader struct {
	Name     string         // X-WR-CALNAME: the name a calendar app shows for the subscription
	Zone     *time.Location // the zone every event is written in
	From, To time.Time      // the window the events lie in; the VTIMEZONE covers it
	Refresh  time.Duration  // how often a reader should fetch again (REFRESH-INTERVAL)
}

// NewFeed writes the calendar's header and time zone to out; add events with Event and finish
// with Close.
func NewFeed(out io.Writer, h FeedHeader) *Feed {
	f := &Feed{buf: bufio.NewWriterSize(out, 32<<10), zone: h.Zone}
	f.w.b = f.buf
	f.w.line("BEGIN", "VCALENDAR")
	f.w.line("VERSION", "2.0")
	f.w.line("PRODID", ProdID)
	f.w.line("CALSCALE", "GREGORIAN")
	f.w.line("METHOD", "PUBLISH")
	f.w.line("X-WR-CALNAME", escape(h.Name))
	f.w.line("X-WR-TIMEZONE", h.Zone.String())
	if h.Refresh > 0 {
		f.w.line("REFRESH-INTERVAL;VALUE=DURATION", duration(h.Refresh))
		f.w.line("X-PUBLISHED-TTL", duration(h.Refresh))
	}
	f.w.timezone(h.Zone, h.From, h.To)
	return f
}

// Event adds one event.
func (f *Feed) Event(e Event) { f.w.event(e, f.zone) }

// Close ends the calendar and reports the first error writing to out.
func (f *Feed) Close() error {
	f.w.line("END", "VCALENDAR")
	return f.buf.Flush()
}

// duration is a whole-minute DURATION value (§3.3.6), e.g. PT60M.
func duration(d time.Duration) string {
	return "PT" + strconv.FormatInt(max(int64(d/time.Minute), 1), 10) + "M"
}

// timezone writes the VTIMEZONE of zone for [from, to): one observance for the offset in force
// at from, then one for every change of offset until to, each with its own DTSTART (no RRULE:
// Go's zone data gives the changes themselves, not the rule behind them).
func (w *writer) timezone(zone *time.Location, from, to time.Time) {
	w.line("BEGIN", "VTIMEZONE")
	w.line("TZID", zone.String())
	t := from.In(zone)
	for {
		start, end := t.ZoneBounds()
		w.observance(t, start)
		if end.IsZero() || !end.Before(to) {
			break
		}
		t = end.In(zone)
	}
	w.line("END", "VTIMEZONE")
}

// observance writes the STANDARD or DAYLIGHT part for the offset in force at t, which began at
// start (zero: it always was).
func (w *writer) observance(t, start time.Time) {
	name, to := t.Zone()
	from, onset := to, "19700101T000000"
	if !start.IsZero() {
		_, from = start.Add(-time.Second).Zone()
		// DTSTART is the local time of the change as the clocks showed it just before.
		onset = start.UTC().Add(time.Duration(from) * time.Second).Format("20060102T150405")
	}
	kind := "STANDARD"
	if t.IsDST() {
		kind = "DAYLIGHT"
	}
	w.line("BEGIN", kind)
	w.line("DTSTART", onset)
	w.line("TZOFFSETFROM", offset(from))
	w.line("TZOFFSETTO", offset(to))
	w.line("TZNAME", escape(name))
	w.line("END", kind)
}

// offset is a UTC-OFFSET value (§3.3.14): +hhmm, or +hhmmss when there are seconds.
func offset(seconds int) string {
	sign := byte('+')
	if seconds < 0 {
		sign, seconds = '-', -seconds
	}
	b := []byte{sign}
	b = append(b, two(seconds/3600)...)
	b = append(b, two(seconds/60%60)...)
	if s := seconds % 60; s != 0 {
		b = append(b, two(s)...)
	}
	return string(b)
}

func two(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// dateTime writes a DATE-TIME property: local time with TZID when zone is given and the local
// time names t alone; UTC otherwise.
func (w *writer) dateTime(name string, t time.Time, zone *time.Location) {
	if zone == nil || ambiguous(t.In(zone)) {
		w.line(name, utc(t))
		return
	}
	w.line(name+";TZID="+zone.String(), t.In(zone).Format("20060102T150405"))
}

// ambiguous reports whether the clocks of t's zone show t's local time at another instant too:
// in the offset before t's (the hour after the clocks went back) or after it (the hour before).
func ambiguous(t time.Time) bool {
	_, off := t.Zone()
	wall := t.UTC().Add(time.Duration(off) * time.Second) // the local time, read as if it were UTC
	start, end := t.ZoneBounds()
	if !start.IsZero() {
		_, before := start.Add(-time.Second).Zone()
		if wall.Add(-time.Duration(before) * time.Second).Before(start) {
			return true
		}
	}
	if !end.IsZero() {
		_, after := end.Zone()
		if !wall.Add(-time.Duration(after) * time.Second).Before(end) {
			return true
		}
	}
	return false
}
