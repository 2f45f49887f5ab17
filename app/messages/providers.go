package messages

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Messages to providers (docs/messages.md, "Messages to providers"). A provider who asked for
// them (notify_bookings, and an email address) is told when a booking of theirs is made, moved
// or cancelled; one with an agenda time gets, on each day they have bookings, an email listing
// them at that time of their main location's day. They are planned here, in the booking's
// transaction like the client's messages, and sent by the same dispatcher; they never count as
// customer messages (ToProvider).

// planProviders plans the provider's side of a booking write: the notice to the provider (to
// both, when the booking moved from one provider to another; for a new booking only when it is
// announced, planBooking) and the agenda of the booking's day.
func (w *writer) planProviders(b db.Booking, prev db.MessageBooking, known, moved, announce bool) error {
	prov, err := w.q.MessageProvider(w.ctx, b.ProviderID)
	if err != nil {
		return fmt.Errorf("message provider %d: %w", b.ProviderID, err)
	}
	switch {
	case !known || b.StatusID == statusConfirmed && prev.StatusID == statusReserved:
		if b.StatusID == statusConfirmed && (known || announce) {
			err = w.toProvider(prov, ProviderBooked, detail{})
		}
	case b.StatusID == statusCancelled && prev.StatusID != statusCancelled:
		if prev.StatusID == statusConfirmed {
			err = w.toProvider(prov, ProviderCancelled, detail{})
		}
	case moved && b.StatusID == statusConfirmed && prev.ProviderID != b.ProviderID:
		// Taken from one provider and given to another: to the first it is cancelled.
		var was db.MessageProviderRow
		if was, err = w.q.MessageProvider(w.ctx, prev.ProviderID); err != nil {
			return fmt.Errorf("message provider %d: %w", prev.ProviderID, err)
		}
		if err = w.toProvider(was, ProviderCancelled, detail{}); err == nil {
			err = w.toProvider(prov, ProviderBooked, detail{})
		}
	case moved && b.StatusID == statusConfirmed:
		err = w.toProvider(prov, ProviderMoved, detail{PreviousStart: prev.StartAt})
	}
	if err != nil {
		return err
	}
	live := b.StatusID == statusConfirmed || b.StatusID == statusReserved
	if live && (!known || moved || prev.StatusID == statusCancelled) {
		return planAgenda(w.ctx, w.q, w.now, prov, db.Time(b.StartAt))
	}
	return nil
}

// toProvider writes a message of kind to provider p, due now, when p asked for them.
func (w *writer) toProvider(p db.MessageProviderRow, kind Kind, d detail) error {
	if !p.NotifyBookings || p.Email == "" {
		return nil
	}
	pw := *w
	pw.providerID = p.ID
	return pw.insert(kind, ToProvider, 0, w.now, d, StatePending, "")
}

// planAgenda makes sure provider p's agenda for the local day of start (in their main
// location's zone) is planned, at their agenda time that day: once, and only while that time
// is still ahead. A day's agenda is written when it is sent, from the bookings as they are
// then, so later bookings of the same day need nothing more.
func planAgenda(ctx context.Context, q *db.Queries, now time.Time, p db.MessageProviderRow, start time.Time) error {
	if !p.AgendaMin.Valid || p.Email == "" {
		return nil
	}
	zone, err := time.LoadLocation(p.Timezone)
	if err != nil {
		return fmt.Errorf("provider %d: zone %q: %w", p.ID, p.Timezone, err)
	}
	day := start.In(zone)
	at := agendaTime(zone, day, p.AgendaMin.Int64)
	if !at.After(now) {
		return nil
	}
	key := day.Format(time.DateOnly)
	planned, err := q.ProviderAgendaFor(ctx, db.ProviderAgendaForParams{ProviderID: sql64(p.ID), Day: key})
	if err != nil || len(planned) > 0 {
		return err
	}
	w := writer{ctx: ctx, q: q, now: now, providerID: p.ID}
	return w.insert(ProviderAgenda, ToProvider, 0, at, detail{Day: key}, StatePending, "")
}

// agendaTime is minute (after midnight) on day's date (as day's own zone reads it) in zone: the real instant the clocks show
// that time, so 07:00 is 07:00 whatever the offset that day. A time the clocks show twice (the
// night they go back) is the first; a time they skip (the night they go forward) is as far
// after the change as it was meant to be after the skipped hour's start — midnight skipped is
// the first instant of the day.
func agendaTime(zone *time.Location, day time.Time, minute int64) time.Time {
	y, m, d := day.Date()
	h, mm := int(minute/60), int(minute%60)
	t := time.Date(y, m, d, h, mm, 0, 0, zone)
	wall := time.Date(y, m, d, h, mm, 0, 0, time.UTC)
	if shown := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC); !shown.Before(wall) {
		return t // the time itself, or already past a skipped hour
	}
	// Skipped, and time.Date read it with the offset after the change, landing before it.
	_, before := t.Zone()
	_, after := t.Add(3 * time.Hour).Zone()
	return t.Add(time.Duration(after-before) * time.Second)
}

// ProviderChanged plans provider id's agenda again after their settings were saved (inside
// that transaction): the planned ones are dropped, and one is planned for each coming day
// they have bookings on, at the time now set — none when the agenda is off or they have no
// address.
func ProviderChanged(ctx context.Context, q *db.Queries, now time.Time, id int64) error {
	if err := q.SkipProviderAgenda(ctx, db.SkipProviderAgendaParams{Note: "the provider's agenda settings changed",
		Now: db.Millis(now), ProviderID: sql64(id)}); err != nil {
		return err
	}
	p, err := q.MessageProvider(ctx, id)
	if err != nil {
		return fmt.Errorf("message provider %d: %w", id, err)
	}
	if !p.AgendaMin.Valid || p.Email == "" {
		return nil
	}
	zone, err := time.LoadLocation(p.Timezone)
	if err != nil {
		return fmt.Errorf("provider %d: zone %q: %w", p.ID, p.Timezone, err)
	}
	// From two days back, which covers the start of today in every zone: today's agenda may
	// still be ahead.
	starts, err := q.ProviderBookingStarts(ctx, db.ProviderBookingStartsParams{ProviderID: id, FromAt: db.Millis(now.Add(-48 * time.Hour))})
	if err != nil {
		return err
	}
	last := ""
	for _, s := range starts { // in time order: each day once
		start := db.Time(s)
		if day := start.In(zone).Format(time.DateOnly); day != last {
			last = day
			if err := planAgenda(ctx, q, now, p, start); err != nil {
				return err
			}
		}
	}
	return nil
}

func sql64(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: true} }

// providerAddress is where message m to a provider goes, read as things are now: nowhere (skip
// says why) once they switched booking emails off or have no address.
func providerAddress(ctx context.Context, q *db.Queries, m db.Message) (mail.Address, string, error) {
	p, err := q.MessageProvider(ctx, m.ProviderID.Int64)
	if db.IsNotFound(err) {
		return mail.Address{}, "provider deleted", nil
	}
	if err != nil {
		return mail.Address{}, "", err
	}
	if m.Kind != string(ProviderAgenda) && !p.NotifyBookings {
		return mail.Address{}, "the provider's booking emails are switched off", nil
	}
	if m.Kind == string(ProviderAgenda) && !p.AgendaMin.Valid {
		return mail.Address{}, "the provider's daily agenda is switched off", nil
	}
	return mail.Address{Name: OneLine(p.PublicName), Address: p.Email}, "", nil
}

// agendaFacts reads the day agenda message m is about: the provider's bookings that start that
// day in their main location's zone, in time order. A day left with none is not sent.
func agendaFacts(ctx context.Context, q *db.Queries, m db.Message) (f facts, to mail.Address, skip string, err error) {
	to, skip, err = providerAddress(ctx, q, m)
	if skip != "" || err != nil {
		return f, to, skip, err
	}
	p, err := q.MessageProvider(ctx, m.ProviderID.Int64)
	if err != nil {
		return f, to, "", err
	}
	zone, err := time.LoadLocation(p.Timezone)
	if err != nil {
		return f, to, "", fmt.Errorf("provider %d: zone %q: %w", p.ID, p.Timezone, err)
	}
	// The date as a date (UTC midnight): a midnight the clocks skip must not move it.
	day, err := time.Parse(time.DateOnly, detailOf(m.DetailJson).Day)
	if err != nil {
		return f, to, "", fmt.Errorf("agenda message %d: day: %w", m.ID, err)
	}
	from, until := agendaTime(zone, day, 0), agendaTime(zone, day.AddDate(0, 0, 1), 0)
	rows, err := q.ProviderAgendaBookings(ctx, db.ProviderAgendaBookingsParams{ProviderID: p.ID,
		FromAt: db.Millis(from), ToAt: db.Millis(until)})
	if err != nil {
		return f, to, "", err
	}
	if len(rows) == 0 {
		return f, to, "nothing booked that day", nil
	}
	f.Provider, f.Zone, f.AgendaDay = p.PublicName, zone, from
	for _, r := range rows {
		f.Agenda = append(f.Agenda, agendaItem{Start: db.Time(r.StartAt), End: db.Time(r.EndAt), Service: r.ServiceName,
			Client: r.FirstName + " " + r.LastName, Location: r.LocationName})
	}
	return f, to, "", nil
}

// agendaItem is one booking in a provider's daily agenda.
type agendaItem struct {
	Start, End                time.Time
	Service, Client, Location string
}

// agendaText writes a day's bookings one per line, their times in zone for the reader p.
func agendaText(p *i18n.Printer, zone *time.Location, items []agendaItem) string {
	var b strings.Builder
	for _, it := range items {
		parts := []string{OneLine(it.Service), OneLine(strings.TrimSpace(it.Client)), OneLine(it.Location)}
		fmt.Fprintf(&b, "%s–%s %s\n", p.TimeOnce(it.Start.In(zone)), p.TimeOnce(it.End.In(zone)), strings.Join(parts, " · "))
	}
	return strings.TrimRight(b.String(), "\n")
}
