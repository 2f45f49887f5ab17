package messages

import (
	"encoding/json"
	"strings"
	"time"
	"unicode"

	"frontdesk/ui/i18n"
)

// Fields are everything a template can say: the fixed set of {{.Name}} fields of
// docs/messages.md. Every value is already written for the reader (their language, the
// location's zone, the business currency), so a template needs no functions. A field a message
// type has nothing for is "" ({{if .ManageLink}}…{{end}} leaves it out).
type Fields struct {
	Business        string // the business's name
	ClientName      string // "Ana Rojas"
	ClientFirstName string // "Ana"
	Service         string
	Provider        string
	Location        string
	Address         string // the location's address on one line
	Date            string // "Wednesday, 25 November 2026" in the location's zone
	Time            string // "15:00" (or "3:00 PM"), the start in the location's zone
	EndTime         string
	Zone            string // "America/Santiago, UTC−3": the zone every time above is in
	When            string // Date, Time (Zone): the one phrase that names the appointment
	PreviousWhen    string // a reschedule: the old When
	Price           string // the booking's price, "" when it is free
	Reminder        string // a reminder: how long before ("24 hours")
	ManageLink      string // where the client changes or cancels (the booking site), or ""
	Amount          string // a payment request or receipt: the amount
	CheckoutLink    string // a payment request: where to pay
	ClaimLink       string // a waitlist offer: where to claim the time that opened
	// CancellationPolicy is what cancelling late or not coming costs this booking, as the
	// booking site stated it before the client booked ("" when the policy charges no fee).
	CancellationPolicy string
	ExpiresAt          string // a payment request: until when it can be paid, or ""
	PaidAt             string // a receipt: when it was paid
	BookingID          int64
	// Agenda is a provider's daily agenda: one line per booking of the day (Date), in time
	// order ("09:00–09:45 Haircut · María López · Studio Ana Centro").
	Agenda string
	// A gift card (money.go): its code, its printable page, who gives it and their message;
	// Amount is its value and ExpiresAt its expiry.
	GiftCardCode string
	GiftCardLink string
	GiftFrom     string
	GiftMessage  string
	// A membership (money.go): its plan, when the period paid ends, and its page, where the
	// client manages or cancels it; Amount is the plan's monthly price.
	Plan           string
	PeriodEnd      string
	MembershipLink string
}

// FieldNames lists the fields in the order Settings shows them, with their catalog keys.
var FieldNames = []struct{ Name, Key string }{
	{Name: "Business", Key: "messages.field.business"},
	{Name: "ClientName", Key: "messages.field.client_name"},
	{Name: "ClientFirstName", Key: "messages.field.client_first_name"},
	{Name: "Service", Key: "messages.field.service"},
	{Name: "Provider", Key: "messages.field.provider"},
	{Name: "Location", Key: "messages.field.location"},
	{Name: "Address", Key: "messages.field.address"},
	{Name: "Date", Key: "messages.field.date"},
	{Name: "Time", Key: "messages.field.time"},
	{Name: "EndTime", Key: "messages.field.end_time"},
	{Name: "Zone", Key: "messages.field.zone"},
	{Name: "When", Key: "messages.field.when"},
	{Name: "PreviousWhen", Key: "messages.field.previous_when"},
	{Name: "Price", Key: "messages.field.price"},
	{Name: "Reminder", Key: "messages.field.reminder"},
	{Name: "ManageLink", Key: "messages.field.manage_link"},
	{Name: "Amount", Key: "messages.field.amount"},
	{Name: "CheckoutLink", Key: "messages.field.checkout_link"},
	{Name: "ClaimLink", Key: "messages.field.claim_link"},
	{Name: "CancellationPolicy", Key: "messages.field.cancellation_policy"},
	{Name: "ExpiresAt", Key: "messages.field.expires_at"},
	{Name: "PaidAt", Key: "messages.field.paid_at"},
	{Name: "BookingID", Key: "messages.field.booking_id"},
	{Name: "GiftCardCode", Key: "messages.field.gift_card_code"},
	{Name: "GiftCardLink", Key: "messages.field.gift_card_link"},
	{Name: "GiftFrom", Key: "messages.field.gift_from"},
	{Name: "GiftMessage", Key: "messages.field.gift_message"},
	{Name: "Plan", Key: "messages.field.plan"},
	{Name: "PeriodEnd", Key: "messages.field.period_end"},
	{Name: "MembershipLink", Key: "messages.field.membership_link"},
}

// appointment is a booking's facts before they are written for a reader.
type appointment struct {
	ID                          int64
	ClientFirst, ClientLast     string
	Service, Provider, Location string
	Address                     string
	Zone                        *time.Location
	Start, End, PreviousStart   time.Time
	PriceCents                  int64
	ReminderOffset              time.Duration
	ManageLink                  string
	AmountCents                 int64
	CheckoutLink                string
	ClaimLink                   string   // a waitlist offer: where to claim the time
	Cancellation                []string // the cancellation policy's sentences (feepolicy.Statement)
	ExpiresAt, PaidAt           time.Time
	HasAppointment, HasPayment  bool
	// A provider's daily agenda: the day (midnight in Zone) and its bookings.
	AgendaDay time.Time
	Agenda    []agendaItem
	// A gift card and a membership (money.go).
	GiftCode, GiftLink, GiftFrom, GiftMessage string
	Plan, MembershipLink                      string
	PeriodEnd                                 time.Time
}

// fields writes a's facts for the reader p. Control characters in stored names are turned into
// spaces here, so no field can carry a line break into a subject.
func fields(p *i18n.Printer, business string, a appointment) Fields {
	f := Fields{
		Business: OneLine(business), ClientFirstName: OneLine(a.ClientFirst),
		ClientName: OneLine(strings.TrimSpace(a.ClientFirst + " " + a.ClientLast)),
		Service:    OneLine(a.Service), Provider: OneLine(a.Provider), Location: OneLine(a.Location),
		Address: OneLine(a.Address), ManageLink: a.ManageLink, CheckoutLink: a.CheckoutLink, ClaimLink: a.ClaimLink, BookingID: a.ID,
		CancellationPolicy: strings.Join(a.Cancellation, " "),
	}
	if a.HasAppointment {
		zone := a.Zone
		if zone == nil {
			zone = time.UTC
		}
		start, end := a.Start.In(zone), a.End.In(zone)
		f.Date, f.Time, f.EndTime = p.DateLong(start), p.TimeOnce(start), p.TimeOnce(end)
		f.Zone = zoneName(zone, start)
		f.When = p.T("messages.when", "date", f.Date, "time", p.Time(start), "zone", f.Zone) // the zone names the offset
		if !a.PreviousStart.IsZero() {
			prev := a.PreviousStart.In(zone)
			f.PreviousWhen = p.T("messages.when", "date", p.DateLong(prev), "time", p.Time(prev), "zone", zoneName(zone, prev))
		}
		if a.PriceCents > 0 {
			f.Price = p.Money(a.PriceCents)
		}
		if a.ReminderOffset > 0 {
			f.Reminder = offsetText(p, a.ReminderOffset)
		}
	}
	if len(a.Agenda) > 0 {
		f.Date, f.Zone = p.DateLong(a.AgendaDay), zoneName(zoneOr(a.Zone), a.AgendaDay.Add(12*time.Hour))
		f.Agenda = agendaText(p, zoneOr(a.Zone), a.Agenda)
	}
	f.GiftCardCode, f.GiftCardLink, f.GiftFrom, f.GiftMessage = a.GiftCode, a.GiftLink, OneLine(a.GiftFrom), a.GiftMessage
	f.Plan, f.MembershipLink = OneLine(a.Plan), a.MembershipLink
	if !a.PeriodEnd.IsZero() {
		t := a.PeriodEnd.In(zoneOr(a.Zone))
		f.PeriodEnd = p.T("messages.when", "date", p.DateLong(t), "time", p.Time(t), "zone", zoneName(zoneOr(a.Zone), t))
	}
	if a.HasPayment {
		f.Amount = p.Money(a.AmountCents)
		zone := a.Zone
		if zone == nil {
			zone = time.UTC
		}
		if !a.ExpiresAt.IsZero() {
			t := a.ExpiresAt.In(zone)
			f.ExpiresAt = p.T("messages.when", "date", p.DateLong(t), "time", p.Time(t), "zone", zoneName(zone, t))
		}
		if !a.PaidAt.IsZero() {
			t := a.PaidAt.In(zone)
			f.PaidAt = p.T("messages.when", "date", p.DateLong(t), "time", p.Time(t), "zone", zoneName(zone, t))
		}
	}
	return f
}

// zoneName names the zone and its offset at t: "America/Santiago, UTC−3".
func zoneName(zone *time.Location, t time.Time) string {
	if zone == time.UTC {
		return "UTC"
	}
	return zone.String() + ", " + i18n.Offset(t)
}

// offsetText says how long before a reminder goes: "24 hours", "30 minutes", "2 days".
func offsetText(p *i18n.Printer, d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0 && d >= 48*time.Hour:
		return p.T("messages.offset.days", "count", int(d/(24*time.Hour)))
	case d%time.Hour == 0:
		return p.T("messages.offset.hours", "count", int(d/time.Hour))
	}
	return p.T("messages.offset.minutes", "count", int(d/time.Minute))
}

// OneLine replaces control characters (line breaks among them) with spaces.
func OneLine(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// addressLine writes a location's stored address on one line, in the order people write it.
func addressLine(raw string) string {
	var addr map[string]string
	if json.Unmarshal([]byte(raw), &addr) != nil {
		return ""
	}
	var parts []string
	street := strings.TrimSpace(addr["route"] + " " + addr["street_number"])
	for _, v := range []string{street, addr["locality"], addr["administrative_area_level_1"]} {
		if v = strings.TrimSpace(v); v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
}

// sample is the booking a template is tried on when no real one is chosen for the preview.
func sample(now time.Time, zone *time.Location) appointment {
	if zone == nil {
		zone = time.UTC
	}
	day := now.In(zone).AddDate(0, 0, 2)
	start := time.Date(day.Year(), day.Month(), day.Day(), 10, 30, 0, 0, zone)
	return appointment{
		ID: 1234, ClientFirst: "Ana", ClientLast: "Rojas", Service: "Haircut", Provider: "Camila",
		Location: "Downtown", Address: "Av. Providencia 2124, Providencia", Zone: zone,
		Start: start, End: start.Add(45 * time.Minute), PreviousStart: start.Add(-24 * time.Hour),
		PriceCents: 2500000, ReminderOffset: 24 * time.Hour, ManageLink: "https://example.com/manage/…",
		AmountCents: 2500000, CheckoutLink: "https://example.com/pay/…", ExpiresAt: now.Add(15 * time.Minute),
		PaidAt: now, HasAppointment: true, HasPayment: true,
	}
}
