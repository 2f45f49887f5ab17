package messages

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/db"
)

// Entry is one message in the log or on a booking's page.
type Entry struct {
	ID        int64
	MessageID string // the left part of the Message-ID header
	Kind      Kind
	Recipient string // ToClient, ToOwner or ToAddress
	// Channel is the channel it is planned for, or went by once attempted (ChannelEmail,
	// ChannelSMS, ChannelWhatsApp); To is then a phone number.
	Channel string
	// To is the address it went to; before the first attempt, the one it is to go to as things
	// stand (the client's, the owner copies' address), "" when there is none.
	To               string
	BookingID        int64
	PaymentRequestID int64
	ProviderID       int64         // a message to a provider: who
	Offset           time.Duration // reminders
	State            string
	InFlight         bool   // being sent right now
	Note             string // why skipped or failed, or the server's last answer
	SendAt           time.Time
	NextAttemptAt    time.Time
	Attempts         int
	LastAttemptAt    time.Time
	LastCode         int
	Subject          string
	// Delivery is what the provider's status callbacks last said of a text (delivered, read,
	// failed, undelivered …; "" for an email or before any), DeliveryNote their error.
	Delivery, DeliveryNote string
	// Zone is the IANA zone of what the message is about: its booking's location, or its
	// payment request's (its cart's location, else the business's first); "" for neither.
	Zone string
}

func entryOf(r db.ListMessagesRow) Entry {
	e := Entry{
		ID: r.ID, MessageID: r.MessageKey, Kind: Kind(r.Kind), Recipient: r.Recipient, Channel: r.Channel, To: r.ToAddress,
		BookingID: r.BookingID.Int64, PaymentRequestID: r.PaymentRequestID.Int64, ProviderID: r.ProviderID.Int64,
		Offset: time.Duration(r.OffsetMin.Int64) * time.Minute, State: r.State, Note: r.Note,
		SendAt: db.Time(r.SendAt), Attempts: int(r.Attempts), LastCode: int(r.LastCode.Int64), Subject: r.Subject,
		InFlight: r.State == StatePending && !r.NextAttemptAt.Valid, Delivery: r.DeliveryStatus, DeliveryNote: r.DeliveryNote,
	}
	if r.NextAttemptAt.Valid {
		e.NextAttemptAt = db.Time(r.NextAttemptAt.Int64)
	}
	if r.LastAttemptAt.Valid {
		e.LastAttemptAt = db.Time(r.LastAttemptAt.Int64)
	}
	return e
}

// LogFilter selects messages for the log, newest planned time first.
type LogFilter struct {
	State   string // "" for every state
	Kind    Kind   // "" for every type
	Search  string // part of an address, or a Message-ID's left part
	Page    int
	PerPage int
}

// LogPage is one page of the log.
type LogPage struct {
	Entries    []Entry
	Total      int
	Page       int
	PerPage    int
	TotalPages int
}

// Log returns a page of the message log.
func (s *Service) Log(ctx context.Context, f LogFilter) (LogPage, error) {
	page := LogPage{Page: max(f.Page, 1), PerPage: f.PerPage}
	if page.PerPage < 1 || page.PerPage > 100 {
		page.PerPage = 30
	}
	args := db.CountMessagesParams{State: f.State, Kind: string(f.Kind), Search: f.Search}
	total, err := s.db.R.CountMessages(ctx, args)
	if err != nil {
		return page, err
	}
	page.Total = int(total)
	page.TotalPages = (page.Total + page.PerPage - 1) / page.PerPage
	rows, err := s.db.R.ListMessages(ctx, db.ListMessagesParams{State: f.State, Kind: string(f.Kind), Search: f.Search,
		Lim: int64(page.PerPage), Off: int64(page.Page-1) * int64(page.PerPage)})
	if err != nil {
		return page, err
	}
	for _, r := range rows {
		page.Entries = append(page.Entries, entryOf(r))
	}
	return page, s.about(ctx, page.Entries)
}

// ForBooking lists every message sent or planned for a booking, in time order: its rows, and
// the reminders planned past the reminder horizon, which have no row yet (unwrittenReminders).
func (s *Service) ForBooking(ctx context.Context, bookingID int64) ([]Entry, error) {
	var out []Entry
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		rows, err := q.BookingMessages(ctx, sql.NullInt64{Int64: bookingID, Valid: true})
		if err != nil {
			return err
		}
		out = make([]Entry, len(rows))
		for i, r := range rows {
			out[i] = entryOf(db.ListMessagesRow(r))
		}
		later, err := unwrittenReminders(ctx, q, s.now(), bookingID)
		out = append(out, later...)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.SendAt.Compare(b.SendAt) })
	return out, s.about(ctx, out)
}

// unwrittenReminders are booking id's reminders whose moment lies past the reminder horizon
// (horizon.go), as they will be written when it gets there with the settings as they are now:
// entries without an ID, pending. None for a booking whose messages are not planned (a JSON
// import's) or that is no longer live.
func unwrittenReminders(ctx context.Context, q *db.Queries, now time.Time, id int64) ([]Entry, error) {
	mb, err := q.GetMessageBooking(ctx, id)
	if db.IsNotFound(err) || err == nil && mb.StatusID != statusConfirmed && mb.StatusID != statusReserved {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := loadPlan(ctx, q)
	if err != nil || !p.enabled[Reminder] {
		return nil, err
	}
	through, err := q.ReminderHorizon(ctx)
	if err != nil {
		return nil, err
	}
	b, err := q.MessageBooking(ctx, id)
	if err != nil {
		return nil, err
	}
	pending, err := q.PendingBookingReminders(ctx, sql64(id))
	if err != nil {
		return nil, err
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, bookingID: id, clientID: b.ClientID, locationID: mb.LocationID}
	var out []Entry
	for _, recipient := range w.recipients(Reminder) {
		for _, off := range p.offsets {
			at := db.Time(mb.StartAt).Add(-off)
			if db.Millis(at) <= max(through, db.Millis(now)) || hasPending(pending, recipient, off) {
				continue
			}
			channel, due, err := w.route(Reminder, recipient, at)
			if err != nil {
				return nil, err
			}
			out = append(out, Entry{Kind: Reminder, Recipient: recipient, Channel: channel, BookingID: id, Offset: off,
				State: StatePending, SendAt: at, NextAttemptAt: due})
		}
	}
	return out, nil
}

// about fills in what the log shows beside each entry's own row: the zone of what it is about
// and, for a message not yet attempted, the address it is to go to — read as the sender reads
// them (facts, ownerAddress), in one snapshot, each booking and payment request once.
func (s *Service) about(ctx context.Context, entries []Entry) error {
	if len(entries) == 0 {
		return nil
	}
	type subject struct{ zone, email, phone string }
	// contact is where a client message on channel goes: a text to the number.
	contact := func(s *subject, channel string) string {
		if channel == ChannelSMS || channel == ChannelWhatsApp {
			return s.phone
		}
		return s.email
	}
	return s.db.ReadTx(ctx, func(q *db.Queries) error {
		bookings, payments := map[int64]*subject{}, map[int64]*subject{}
		bookingOf := func(id int64) (*subject, error) {
			if b, ok := bookings[id]; ok {
				return b, nil
			}
			row, err := q.MessageBooking(ctx, id)
			if db.IsNotFound(err) {
				bookings[id] = nil
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			bookings[id] = &subject{zone: row.Timezone, email: row.Email, phone: row.Phone}
			return bookings[id], nil
		}
		paymentOf := func(id int64) (*subject, error) {
			if p, ok := payments[id]; ok {
				return p, nil
			}
			row, err := q.MessagePaymentRequest(ctx, id)
			if db.IsNotFound(err) {
				payments[id] = nil
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			payments[id] = &subject{zone: row.Timezone, email: row.Email, phone: row.Phone}
			return payments[id], nil
		}
		providers := map[int64]*subject{}
		providerOf := func(id int64) (*subject, error) {
			if p, ok := providers[id]; ok {
				return p, nil
			}
			row, err := q.MessageProvider(ctx, id)
			if db.IsNotFound(err) {
				providers[id] = nil
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			providers[id] = &subject{zone: row.Timezone, email: row.Email}
			return providers[id], nil
		}
		owner := ""
		for i := range entries {
			e := &entries[i]
			var onBooking, onPayment *subject
			var err error
			if e.BookingID != 0 {
				if onBooking, err = bookingOf(e.BookingID); err != nil {
					return err
				}
			}
			if e.PaymentRequestID != 0 {
				if onPayment, err = paymentOf(e.PaymentRequestID); err != nil {
					return err
				}
			}
			var onProvider *subject
			if e.ProviderID != 0 {
				if onProvider, err = providerOf(e.ProviderID); err != nil {
					return err
				}
			}
			switch {
			case onBooking != nil:
				e.Zone = onBooking.zone
			case onPayment != nil:
				e.Zone = onPayment.zone
			case onProvider != nil: // a provider's agenda: their main location's
				e.Zone = onProvider.zone
			}
			if e.To != "" {
				continue
			}
			switch {
			case e.Recipient == ToProvider:
				if onProvider != nil {
					e.To = onProvider.email
				}
			case e.Recipient == ToOwner:
				if owner == "" {
					t, err := q.MessageTransportSettings(ctx)
					if err != nil {
						return err
					}
					biz, err := q.MessageBusiness(ctx)
					if err != nil {
						return err
					}
					owner = ownerAddress(Transport{ownerCopy: t.OwnerAddress}, biz.OwnerEmail).Address
				}
				e.To = owner
			// A client message goes to its booking's client or its payment request's, as facts
			// decides; a test message always has its address.
			case e.Recipient == ToClient && e.BookingID != 0 && (e.Kind.aboutBooking() || e.PaymentRequestID == 0):
				if onBooking != nil {
					e.To = contact(onBooking, e.Channel)
				}
			case e.Recipient == ToClient && onPayment != nil:
				e.To = contact(onPayment, e.Channel)
			}
		}
		return nil
	})
}

// Attempt is one hand-over to the mail server as the log records it.
type Attempt struct {
	Number    int
	StartedAt time.Time
	Duration  time.Duration
	Code      int    // the server's reply code; 0 for none
	Category  string // one of the Category* constants, "" when sent
	Reply     string // the server's answer or the error
	To        string
	Header    string // the Message-ID sent, or a text provider's id of the message
	Channel   string
	Segments  int    // a text the provider took: its parts
	Policy    string // the rule for texts that sent it by email (Policy*), or ""
}

// Detail is a message with every attempt, oldest first.
type Detail struct {
	Entry
	Attempts []Attempt
	// A sent text's parts and estimated cost (thousandths of a hundredth, CostCents).
	Segments  int
	CostMilli int64
}

// ErrNotFound is returned for a message that does not exist.
var ErrNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "message", Message: "no such message"}

// Message returns one message with its attempts.
func (s *Service) Message(ctx context.Context, id int64) (Detail, error) {
	r, err := s.db.R.GetMessageRow(ctx, id)
	if db.IsNotFound(err) {
		return Detail{}, ErrNotFound
	}
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Entry: entryOf(db.ListMessagesRow{
		ID: r.ID, MessageKey: r.MessageKey, Kind: r.Kind, Recipient: r.Recipient, Channel: r.Channel, ToAddress: r.ToAddress,
		BookingID: r.BookingID, PaymentRequestID: r.PaymentRequestID, OffsetMin: r.OffsetMin, State: r.State,
		Note: r.Note, SendAt: r.SendAt, NextAttemptAt: r.NextAttemptAt, Attempts: r.Attempts, SeriesBase: r.SeriesBase,
		LastAttemptAt: r.LastAttemptAt, LastCode: r.LastCode, Subject: r.Subject, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		DeliveryStatus: r.DeliveryStatus, DeliveryNote: r.DeliveryNote,
	})}
	entries := []Entry{d.Entry}
	if err := s.about(ctx, entries); err != nil {
		return d, err
	}
	d.Entry = entries[0]
	d.Segments, d.CostMilli = int(r.Segments.Int64), r.CostMilli.Int64
	rows, err := s.db.R.ListMessageAttempts(ctx, id)
	if err != nil {
		return d, err
	}
	for _, a := range rows {
		d.Attempts = append(d.Attempts, Attempt{
			Number: int(a.Attempt), StartedAt: db.Time(a.StartedAt), Duration: time.Duration(a.DurationMs) * time.Millisecond,
			Code: int(a.Code.Int64), Category: a.Category.String, Reply: a.Reply, To: a.ToAddress, Header: a.MessageIDHeader,
			Channel: a.Channel, Segments: int(a.Segments.Int64), Policy: a.Policy,
		})
	}
	return d, nil
}

// ErrNotResendable is returned by Resend for a message that is pending or was skipped.
var ErrNotResendable = fail.Refused("not_resendable", "only a sent or failed message can be sent again")

// Resend sends a sent or failed message again, now, as a new series of attempts with the same
// Message-ID. It is rendered from the booking as it is now; the checks at sending still apply.
func (s *Service) Resend(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(q *db.Queries) error {
		n, err := q.RestartMessage(ctx, db.RestartMessageParams{ID: id, Now: nullMs(s.now())})
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := q.GetMessageRow(ctx, id); db.IsNotFound(err) {
				return ErrNotFound
			}
			return fmt.Errorf("message %d: %w", id, ErrNotResendable)
		}
		m, err := q.GetMessageRow(ctx, id)
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, s.now(), activity.Entry{Action: "message.resent", EntityID: id,
			Changes: activity.Changes{}.Set("kind", nil, m.Kind).Set("booking_id", nil, m.BookingID)})
	})
}

func nullMs(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: db.Millis(t), Valid: true} }
