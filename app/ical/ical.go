// Package ical writes the iCalendar file (RFC 5545) a booking's emails carry, so a client's
// calendar shows the appointment at the right instant whatever zone the reader is in, and the
// calendar feeds providers and locations subscribe to (feed.go). It is pure: the caller supplies
// every field, including the stamp time.
//
// Choices: METHOD:PUBLISH (the file informs; it is not a meeting invitation that asks for a
// reply); in a single file, times in UTC (…Z) so no VTIMEZONE is needed and no calendar can
// misread a zone (a feed writes local times with a VTIMEZONE instead: feed.go); a UID
// stable per booking, so a later file (a reschedule, a cancel) updates the same calendar entry;
// SEQUENCE rising with every change, so calendars take the newest file.
package ical

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is one appointment.
type Event struct {
	UID         string // stable per booking, e.g. "booking-812@example.com"
	Sequence    int    // 0 for the first file; higher for every later version
	Start, End  time.Time
	Stamp       time.Time // when this version was made (DTSTAMP)
	Summary     string
	Location    string
	Description string
	URL         string // optional: where the client manages the booking
	Cancelled   bool   // STATUS:CANCELLED rather than CONFIRMED
	Tentative   bool   // STATUS:TENTATIVE (held, not yet confirmed) when not cancelled
}

// ProdID names the program that wrote the file.
const ProdID = "-//frontdesk//bookings//EN"

// Calendar returns the file for e: a VCALENDAR with one VEVENT, CRLF line ends, lines folded
// at 75 octets.
func Calendar(e Event) []byte {
	var b strings.Builder
	w := writer{b: &b}
	w.line("BEGIN", "VCALENDAR")
	w.line("VERSION", "2.0")
	w.line("PRODID", ProdID)
	w.line("CALSCALE", "GREGORIAN")
	w.line("METHOD", "PUBLISH")
	w.event(e, nil)
	w.line("END", "VCALENDAR")
	return []byte(b.String())
}

// event writes e as a VEVENT: its times in zone (a TZID the calendar defines with a VTIMEZONE)
// or, with zone nil, in UTC.
func (w *writer) event(e Event, zone *time.Location) {
	w.line("BEGIN", "VEVENT")
	w.line("UID", escape(e.UID))
	w.line("SEQUENCE", strconv.Itoa(max(e.Sequence, 0)))
	w.line("DTSTAMP", utc(e.Stamp))
	w.dateTime("DTSTART", e.Start, zone)
	w.dateTime("DTEND", e.End, zone)
	w.line("SUMMARY", escape(e.Summary))
	if e.Location != "" {
		w.line("LOCATION", escape(e.Location))
	}
	if e.Description != "" {
		w.line("DESCRIPTION", escape(e.Description))
	}
	if e.URL != "" {
		w.line("URL", e.URL)
	}
	status := "CONFIRMED"
	switch {
	case e.Cancelled:
		status = "CANCELLED"
	case e.Tentative:
		status = "TENTATIVE"
	}
	w.line("STATUS", status)
	w.line("TRANSP", "OPAQUE")
	w.line("END", "VEVENT")
}

func utc(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// escape writes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, line
// breaks as \n, other control characters dropped.
func escape(s string) string {
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\\' || r == ';' || r == ',':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			// dropped: not allowed in a TEXT value
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writer writes content lines to b: a strings.Builder for one file, a bufio.Writer for a feed.
type writer struct {
	b interface {
		WriteString(string) (int, error)
	}
}

// line writes "NAME:value" folded so that no line is longer than 75 octets, never splitting a
// UTF-8 sequence; continuation lines start with a space (§3.1).
func (w *writer) line(name, value string) {
	s := name + ":" + value
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		w.b.WriteString(s[:cut])
		w.b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	w.b.WriteString(s)
	w.b.WriteString("\r\n")
}

// Object returns e as a calendar object stored on a CalDAV server (RFC 4791 §4.1): one
// VEVENT and no METHOD. With zone (not UTC), its times are local times with that zone's TZID
// and a VTIMEZONE covering the event, as a feed writes them, so the owner's calendar shows the
// booking in the zone of its location; without, they are in UTC.
func Object(e Event, zone *time.Location) []byte {
	if zone == time.UTC || (zone != nil && zone.String() == "UTC") {
		zone = nil
	}
	var b strings.Builder
	w := writer{b: &b}
	w.line("BEGIN", "VCALENDAR")
	w.line("VERSION", "2.0")
	w.line("PRODID", ProdID)
	w.line("CALSCALE", "GREGORIAN")
	if zone != nil {
		w.timezone(zone, e.Start, e.End.Add(time.Second))
	}
	w.event(e, zone)
	w.line("END", "VCALENDAR")
	return []byte(b.String())
}
