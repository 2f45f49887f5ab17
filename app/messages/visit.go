package messages

import (
	"context"
	"strings"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// A visit (several services booked as one, docs/visits.md) sends its client one confirmation,
// one set of reminders and one notice of each change: those of its first booking, which
// app/booking plans alone. They describe the whole visit: every service with its provider and
// local times, and the visit's total.

// visitSegment is one service of a visit as its messages list it.
type visitSegment struct {
	Service, Provider string
	Start, End        time.Time
	PriceCents        int64
}

// aboutVisit says whether a client's message of this kind describes the whole visit its
// booking belongs to.
func (k Kind) aboutVisit() bool {
	return k == Confirmation || k == Reminder || k == Rescheduled
}

// visitSegments are the live services of the visit booking id belongs to, in time order, when
// the visit has more than that booking. The two parts of a service with processing time are
// one service from the first part's start to the second's end. later says that id is not the
// visit's first live booking: its messages are its visit's first booking's to send.
func visitSegments(ctx context.Context, q *db.Queries, id int64) (segs []visitSegment, later bool, err error) {
	rows, err := q.MessageVisitSegments(ctx, id)
	if err != nil || len(rows) < 2 {
		return nil, false, err
	}
	if rows[0].ID != id {
		return nil, true, nil
	}
	var out []visitSegment
	for _, r := range rows {
		if r.Part > 0 && len(out) > 0 && out[len(out)-1].Service == r.ServiceName {
			out[len(out)-1].End = db.Time(r.EndAt)
			out[len(out)-1].PriceCents += r.PriceCents
			continue
		}
		out = append(out, visitSegment{Service: r.ServiceName, Provider: r.ProviderName,
			Start: db.Time(r.StartAt), End: db.Time(r.EndAt), PriceCents: r.PriceCents})
	}
	return out, false, nil
}

// wholeVisit is a spanning the visit's segments: from the first start to the last end, at the
// visit's total price.
func (a appointment) wholeVisit(segs []visitSegment) appointment {
	if len(segs) == 0 {
		return a
	}
	a.Start, a.End, a.PriceCents = segs[0].Start, segs[0].End, 0
	for _, s := range segs {
		a.End = s.End
		a.PriceCents += s.PriceCents
	}
	return a
}

// withVisit adds a visit's services and total to the end of a message's text and HTML parts.
func withVisit(p *i18n.Printer, c Rendered, segs []visitSegment, zone *time.Location, business string) (Rendered, error) {
	var b strings.Builder
	b.WriteString("\n" + p.T("messages.visit.services", "count", len(segs)) + "\n")
	var total int64
	for _, s := range segs {
		start, end := s.Start.In(zone), s.End.In(zone)
		b.WriteString("- " + p.T("messages.visit.segment", "start", p.Time(start), "end", p.Time(end),
			"service", OneLine(s.Service), "provider", OneLine(s.Provider)) + "\n")
		total += s.PriceCents
	}
	if total > 0 {
		b.WriteString(p.T("messages.visit.total", "price", p.Money(total)) + "\n")
	}
	c.Text = strings.TrimRight(c.Text, "\n") + "\n" + b.String()
	html, err := htmlPart(c.Text, business)
	if err != nil {
		return c, err
	}
	c.HTML = html
	return c, nil
}
