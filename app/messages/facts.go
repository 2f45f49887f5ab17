package messages

import (
	"context"
	"encoding/json"
	"net/mail"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// facts is an appointment with who it is for.
type facts struct {
	appointment
	clientID    int64
	unsubscribe string
	// The client's number and preferred channel as they are now (a text's channel is decided
	// again when it is sent).
	phone, preferred string
	// series: a series' confirmation lists the dates of its occurrences (series.go).
	series []time.Time
	// visit: a visit's confirmation, reminder and reschedule notice describe every service of
	// it (visit.go); Start…End and PriceCents are then the whole visit's.
	visit []visitSegment
}

// facts reads what message m is about, as it is now, and decides whether it still has
// something to say: nothing is sent for a booking that is cancelled or has started, for a
// reminder whose booking moved or whose client opted out, for a payment request that is no
// longer pending. skip is the reason when it must not be sent.
func (s *Service) facts(ctx context.Context, q *db.Queries, m db.Message, kind Kind, now time.Time) (f facts, to mail.Address, skip string, err error) {
	if kind == ProviderAgenda {
		return agendaFacts(ctx, q, m)
	}
	if kind == WaitlistOffer {
		return s.offerFacts(ctx, q, m, now)
	}
	if m.GiftCardID.Valid {
		return s.giftCardFacts(ctx, q, m)
	}
	if m.MembershipID.Valid {
		return s.membershipFacts(ctx, q, m)
	}
	if m.BookingID.Valid && (kind.aboutBooking() || !m.PaymentRequestID.Valid) {
		b, err := q.MessageBooking(ctx, m.BookingID.Int64)
		if db.IsNotFound(err) {
			return f, to, "booking deleted", nil
		}
		if err != nil {
			return f, to, "", err
		}
		if skip := bookingSkip(kind, m, b, now); skip != "" {
			return f, to, skip, nil
		}
		f.appointment = bookingAppointment(b)
		if m.OffsetMin.Valid {
			f.ReminderOffset = time.Duration(m.OffsetMin.Int64) * time.Minute
		}
		if m.DetailJson != "" && (kind == Rescheduled || kind == ProviderMoved) {
			if d := detailOf(m.DetailJson); d.PreviousStart != 0 {
				f.PreviousStart = db.Time(d.PreviousStart)
			}
		}
		f.clientID, f.phone, f.preferred = b.ClientID, b.Phone, b.Channel
		if kind == Confirmation && m.Recipient != ToProvider {
			if f.series, err = seriesDates(ctx, q, b.ID); err != nil {
				return f, to, "", err
			}
		}
		if kind.aboutVisit() && m.Recipient != ToProvider {
			var later bool
			if f.visit, later, err = visitSegments(ctx, q, b.ID); err != nil {
				return f, to, "", err
			}
			if later {
				return f, to, "a later service of a visit: the visit's first booking's messages describe it", nil
			}
			f.appointment = f.appointment.wholeVisit(f.visit)
		}
		to = mail.Address{Name: OneLine(b.FirstName + " " + b.LastName), Address: b.Email}
		if m.Recipient == ToProvider {
			to, skip, err = providerAddress(ctx, q, m)
			return f, to, skip, err
		}
		if kind == Reminder && m.Recipient == ToClient {
			out, err := q.ClientOptedOut(ctx, b.ClientID)
			if err != nil {
				return f, to, "", err
			}
			if out {
				return f, to, "the client unsubscribed from reminders", nil
			}
		}
		return f, to, "", nil
	}
	if !m.PaymentRequestID.Valid {
		return f, to, "nothing to say: no booking or payment request", nil
	}
	pr, err := q.MessagePaymentRequest(ctx, m.PaymentRequestID.Int64)
	if db.IsNotFound(err) {
		return f, to, "payment request deleted", nil
	}
	if err != nil {
		return f, to, "", err
	}
	if kind == PaymentRequest && pr.Status != "pending" {
		return f, to, "the payment request is no longer pending (" + pr.Status + ")", nil
	}
	f.HasPayment, f.AmountCents, f.CheckoutLink = true, pr.AmountCents, pr.CheckoutURL
	// Times in the zone of the cart's location (else the business's first).
	if zone, err := time.LoadLocation(pr.Timezone); err == nil {
		f.Zone = zone
	}
	f.ClientFirst, f.ClientLast, f.clientID = pr.FirstName, pr.LastName, pr.ClientID
	f.phone, f.preferred = pr.Phone, pr.Channel
	if pr.ExpiresAt.Valid {
		f.ExpiresAt = db.Time(pr.ExpiresAt.Int64)
	}
	if pr.PaidAt.Valid {
		f.PaidAt = db.Time(pr.PaidAt.Int64)
	}
	if pr.BookingID != 0 {
		if b, err := q.MessageBooking(ctx, pr.BookingID); err == nil {
			a := bookingAppointment(b)
			a.HasPayment, a.AmountCents, a.CheckoutLink = true, f.AmountCents, f.CheckoutLink
			a.ExpiresAt, a.PaidAt = f.ExpiresAt, f.PaidAt
			f.appointment = a
		}
	}
	f.Zone = zoneOr(f.Zone)
	to = mail.Address{Name: OneLine(pr.FirstName + " " + pr.LastName), Address: pr.Email}
	return f, to, "", nil
}

// bookingSkip is why a booking message must not go now, or "".
func bookingSkip(kind Kind, m db.Message, b db.MessageBookingRow, now time.Time) string {
	switch {
	case kind == Cancelled && b.StatusID != statusCancelled:
		return "the booking is no longer cancelled"
	// A provider's cancel notice also tells them a booking was given to someone else.
	case kind == ProviderCancelled && b.StatusID != statusCancelled && b.ProviderID == m.ProviderID.Int64:
		return "the booking is no longer cancelled"
	case (kind == ProviderBooked || kind == ProviderMoved) && b.ProviderID != m.ProviderID.Int64:
		return "the booking moved to another provider"
	case kind != Cancelled && kind != ProviderCancelled && b.StatusID == statusCancelled:
		return "booking cancelled"
	case (kind == Confirmation || kind == Rescheduled || kind == WaitlistSeat || kind == ProviderBooked || kind == ProviderMoved) &&
		b.StatusID != statusConfirmed:
		return "the booking is not confirmed"
	case kind == Reminder && b.StatusID != statusConfirmed && b.StatusID != statusReserved:
		return "the booking is no longer active"
	case kind.aboutBooking() && !now.Before(db.Time(b.StartAt)):
		return "the appointment has already started"
	case kind == Reminder && m.OffsetMin.Valid && b.StartAt-m.OffsetMin.Int64*60000 != m.SendAt:
		return "the booking moved since this reminder was planned"
	}
	return ""
}

func bookingAppointment(b db.MessageBookingRow) appointment {
	zone, err := time.LoadLocation(b.Timezone)
	if err != nil {
		zone = time.UTC
	}
	return appointment{
		ID: b.ID, ClientFirst: b.FirstName, ClientLast: b.LastName, Service: b.ServiceName, Provider: b.ProviderName,
		Location: b.LocationName, Address: addressLine(b.AddressJSON), Zone: zone,
		Start: db.Time(b.StartAt), End: db.Time(b.EndAt), PriceCents: b.PriceCents, HasAppointment: true,
	}
}

func detailOf(raw string) detail {
	var d detail
	_ = json.Unmarshal([]byte(raw), &d) // written by enqueue.go only
	return d
}

func zoneOr(z *time.Location) *time.Location {
	if z == nil {
		return time.UTC
	}
	return z
}

// withUnsubscribe adds the reminder opt-out link to the end of the text and HTML parts.
func withUnsubscribe(p *i18n.Printer, c Rendered, link, business string) (Rendered, error) {
	c.Text = c.Text + "\n-- \n" + p.T("messages.unsubscribe.footer", "link", link) + "\n"
	html, err := htmlPart(c.Text, business)
	if err != nil {
		return c, err
	}
	c.HTML = html
	return c, nil
}
