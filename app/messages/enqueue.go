package messages

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"frontdesk/db"
)

// The functions here run inside the transaction of the change that causes a message (the q of
// the caller's db.InTx), right beside the webhook outbox: the change and its messages commit
// together or not at all. They only write rows; the dispatcher renders and sends them later,
// from the booking as it is then.

// plan is what message_settings and message_kinds say about writing messages.
type plan struct {
	offsets []time.Duration
	enabled map[Kind]bool
	copy    map[Kind]bool
	// texts: an SMS provider is chosen (sms) or WhatsApp is switched on (whatsApp), so a client
	// who prefers that channel is planned a text (whether it is ready to send is the
	// dispatcher's concern: until it is, such messages wait).
	texts, sms, whatsApp bool
	// byText: the kinds the owner lets go by text; quiet: the quiet hours, which a reminder by
	// text is planned ahead of (policy.go).
	byText map[Kind]bool
	quiet  Quiet
}

// loadPlan returns the plan as q's transaction sees it. Every booking's write plans its
// messages, so the parsed plan is kept under its change counter (migration 00380): one
// counter read per booking instead of both settings tables.
func loadPlan(ctx context.Context, q *db.Queries) (plan, error) {
	version, err := q.EtagVersion(ctx, db.EtagVersionParams{Kind: "message_plan", RefID: 0})
	if err != nil {
		return plan{}, fmt.Errorf("message settings: %w", err)
	}
	return db.Kept(q, "messages.plan", version, func() (plan, error) { return readPlan(ctx, q) })
}

func readPlan(ctx context.Context, q *db.Queries) (plan, error) {
	row, err := q.MessagePlanSettings(ctx)
	if err != nil {
		return plan{}, fmt.Errorf("message settings: %w", err)
	}
	p := plan{enabled: map[Kind]bool{}, copy: map[Kind]bool{}, sms: row.SmsProvider != SMSNone && row.SmsProvider != "",
		whatsApp: row.WhatsappEnabled}
	p.texts = p.sms || p.whatsApp
	if p.offsets, err = ParseOffsets(row.ReminderOffsets); err != nil {
		return plan{}, err
	}
	if p.texts {
		tp, err := readTextPolicy(ctx, q)
		if err != nil {
			return plan{}, err
		}
		p.byText, p.quiet = tp.ByText, tp.Quiet
	}
	for _, item := range strings.Split(row.Kinds, ",") {
		kind, flags, ok := strings.Cut(item, ":")
		if !ok || len(flags) != 2 {
			continue
		}
		p.enabled[Kind(kind)] = flags[0] == '1'
		p.copy[Kind(kind)] = flags[1] == '1'
	}
	return p, nil
}

// BookingChanged brings a booking's messages in line with the booking b as just written,
// compared with what they were last planned for: a new confirmed booking gets its confirmation;
// a new confirmed or reserved one its reminders; a reserved booking that becomes confirmed its
// confirmation; a move (time, place, provider or service) a reschedule notice and its
// reminders moved; a cancel a cancel notice and its planned messages dropped. app/booking calls
// it with every booking event it records, so every writer gets the same messages.
func BookingChanged(ctx context.Context, q *db.Queries, now time.Time, b db.Booking) error {
	prev, err := q.GetMessageBooking(ctx, b.ID)
	known := err == nil
	if err != nil && !db.IsNotFound(err) {
		return fmt.Errorf("message booking %d: %w", b.ID, err)
	}
	return planBooking(ctx, q, now, b, prev, known, true)
}

// BookingCreated is BookingChanged for a booking its caller has just inserted, which has no
// messages planned yet: the same plan, one read fewer inside the booking's transaction.
//
// A booking imported from another system (source import) is not announced: its client had
// its confirmation from that system, and its provider already works to it, so neither a
// confirmation nor the provider's new-booking notice is planned; its reminders are, as for any
// booking. The importer plans the confirmations when the owner asks for them
// (ConfirmImported).
func BookingCreated(ctx context.Context, q *db.Queries, now time.Time, b db.Booking) error {
	return planBooking(ctx, q, now, b, db.MessageBooking{}, false, b.Source != sourceImport)
}

// ConfirmImported plans the confirmation of b, a booking just imported from another system
// (BookingCreated planned it none), as a new booking's: the importer calls it in b's
// transaction when the owner chose to confirm imported bookings to their clients. The
// provider's notice stays unplanned: the owner's choice is about the clients.
func ConfirmImported(ctx context.Context, q *db.Queries, now time.Time, b db.Booking) error {
	if b.Source != sourceImport || b.StatusID != statusConfirmed {
		return nil
	}
	p, err := loadPlan(ctx, q)
	if err != nil {
		return err
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, bookingID: b.ID, clientID: b.ClientID, locationID: b.LocationID}
	return w.add(Confirmation, detail{Sequence: 0})
}

// planBooking plans b's messages against prev, what they were last planned for (known says
// whether they ever were). announce says whether a new booking is announced: its confirmation
// to the client and its notice to the provider.
func planBooking(ctx context.Context, q *db.Queries, now time.Time, b db.Booking, prev db.MessageBooking, known, announce bool) error {
	p, err := loadPlan(ctx, q)
	if err != nil {
		return err
	}
	next := db.SaveMessageBookingParams{
		BookingID: b.ID, StatusID: b.StatusID, StartAt: b.StartAt, EndAt: b.EndAt,
		LocationID: b.LocationID, ServiceID: b.ServiceID, ProviderID: b.ProviderID, Sequence: prev.Sequence,
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, bookingID: b.ID, clientID: b.ClientID, locationID: b.LocationID}
	live := b.StatusID == statusConfirmed || b.StatusID == statusReserved
	moved := known && (prev.StartAt != b.StartAt || prev.EndAt != b.EndAt || prev.LocationID != b.LocationID ||
		prev.ServiceID != b.ServiceID || prev.ProviderID != b.ProviderID)
	switch {
	case !known:
		if b.StatusID == statusConfirmed && announce {
			err = w.add(Confirmation, detail{Sequence: 0})
		}
	case b.StatusID == statusCancelled && prev.StatusID != statusCancelled:
		// A reservation that lapsed unpaid was never confirmed to the client: its payment
		// request's expiry is what they know about.
		if prev.StatusID == statusConfirmed {
			next.Sequence++
			err = w.add(Cancelled, detail{Sequence: next.Sequence})
		}
	case b.StatusID == statusConfirmed && prev.StatusID == statusReserved:
		err = w.add(Confirmation, detail{Sequence: next.Sequence})
	case moved && b.StatusID == statusConfirmed:
		next.Sequence++
		err = w.add(Rescheduled, detail{Sequence: next.Sequence, PreviousStart: prev.StartAt})
	}
	if err != nil {
		return err
	}
	if err := w.planProviders(b, prev, known, moved, announce); err != nil {
		return err
	}
	if !known || moved || live != (prev.StatusID == statusConfirmed || prev.StatusID == statusReserved) {
		if err := w.planReminders(b, live, known); err != nil {
			return err
		}
	}
	return q.SaveMessageBooking(ctx, next)
}

// reminderKey is one reminder of a booking: who gets it, how many minutes ahead.
type reminderKey struct {
	recipient string
	offsetMin int64
}

// planReminders keeps one planned reminder per offset for a live booking, at start − offset:
// a planned one moves, a missing one is added once the horizon covers its moment (a day
// ahead; later ones are written by advanceReminders), and one whose moment has passed already
// is recorded as skipped rather than sent at once. For a booking that is no longer live, the
// planned reminders are dropped.
func (w *writer) planReminders(b db.Booking, live, known bool) error {
	ctx := w.ctx
	var pending []db.PendingBookingRemindersRow
	if known { // a new booking has none yet
		var err error
		if pending, err = w.q.PendingBookingReminders(ctx, sql.NullInt64{Int64: b.ID, Valid: true}); err != nil {
			return err
		}
	}
	planned := map[reminderKey]db.PendingBookingRemindersRow{}
	for _, r := range pending {
		key := reminderKey{r.Recipient, r.OffsetMin.Int64}
		if !live || !r.NextAttemptAt.Valid {
			// Dropped with the booking; one being sent right now finishes (the dispatcher
			// looks at the booking again before sending).
			if live {
				planned[key] = r
				continue
			}
			if err := w.q.SkipPendingMessage(ctx, db.SkipPendingMessageParams{ID: r.ID, Note: "booking no longer active", Now: db.Millis(w.now)}); err != nil {
				return err
			}
			continue
		}
		planned[key] = r
	}
	if !live || !w.plan.enabled[Reminder] {
		for _, r := range planned {
			if r.NextAttemptAt.Valid {
				if err := w.q.SkipPendingMessage(ctx, db.SkipPendingMessageParams{ID: r.ID, Note: "reminders are switched off", Now: db.Millis(w.now)}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	through, err := horizon(ctx, w.q, w.now, w.plan)
	if err != nil {
		return err
	}
	start := db.Time(b.StartAt)
	wanted := map[reminderKey]bool{}
	for _, recipient := range w.recipients(Reminder) {
		for _, off := range w.plan.offsets {
			key := reminderKey{recipient, int64(off / time.Minute)}
			wanted[key] = true
			at := start.Add(-off)
			r, has := planned[key]
			switch {
			case has && !r.NextAttemptAt.Valid:
				// Being sent now: leave it.
			case has && at.After(w.now):
				err = w.q.MoveMessage(ctx, db.MoveMessageParams{ID: r.ID, SendAt: db.Millis(at), Now: db.Millis(w.now)})
				if err == nil && recipient == ToClient {
					var due time.Time
					if due, err = w.due(Reminder, at); err == nil && !due.Equal(at) {
						err = w.q.SetMessageDue(ctx, db.SetMessageDueParams{ID: r.ID, Due: nullMillis(due)})
					}
				}
			case has:
				err = w.q.SkipPendingMessage(ctx, db.SkipPendingMessageParams{ID: r.ID, Note: "the booking moved within the reminder's notice", Now: db.Millis(w.now)})
			case at.After(through):
				// Written when the horizon reaches it (advanceReminders).
			case at.After(w.now):
				err = w.insert(Reminder, recipient, off, at, detail{}, StatePending, "")
			default:
				err = w.insert(Reminder, recipient, off, at, detail{}, StateSkipped, "booked less than the reminder's notice ahead")
			}
			if err != nil {
				return err
			}
		}
	}
	for key, r := range planned {
		if !wanted[key] && r.NextAttemptAt.Valid {
			if err := w.q.SkipPendingMessage(ctx, db.SkipPendingMessageParams{ID: r.ID, Note: "reminder no longer configured", Now: db.Millis(w.now)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// PaymentRequestCreated writes the message that carries a new payment request's checkout link.
func PaymentRequestCreated(ctx context.Context, q *db.Queries, now time.Time, paymentRequestID int64) error {
	return paymentMessage(ctx, q, now, paymentRequestID, PaymentRequest)
}

// PaymentRequestPaid writes the receipt of a settled payment request.
func PaymentRequestPaid(ctx context.Context, q *db.Queries, now time.Time, paymentRequestID int64) error {
	return paymentMessage(ctx, q, now, paymentRequestID, Receipt)
}

func paymentMessage(ctx context.Context, q *db.Queries, now time.Time, id int64, kind Kind) error {
	p, err := loadPlan(ctx, q)
	if err != nil {
		return err
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, paymentRequestID: id}
	return w.add(kind, detail{})
}

// detail is what a message row remembers of the change behind it (messages.detail_json).
type detail struct {
	Sequence      int64  `json:"sequence,omitempty"`       // the calendar file's SEQUENCE
	PreviousStart int64  `json:"previous_start,omitempty"` // a reschedule's old start (ms)
	Day           string `json:"day,omitempty"`            // an agenda's local day, "2026-09-06"
	Token         string `json:"token,omitempty"`          // a claim link's secret (offers.go)
	PeriodEnd     int64  `json:"period_end,omitempty"`     // a membership's paid period's end (ms, money.go)
}

// json is d as detail_json: "{}" for the empty detail most rows carry (every field is
// omitempty), without encoding it.
func (d detail) json() (string, error) {
	if d == (detail{}) {
		return "{}", nil
	}
	raw, err := json.Marshal(d)
	return string(raw), err
}

// writer inserts the message rows of one change.
type writer struct {
	ctx                         context.Context
	q                           *db.Queries
	now                         time.Time
	plan                        plan
	bookingID, paymentRequestID int64
	providerID                  int64 // messages to a provider: who
	clientID                    int64 // the client of a booking's messages (0: read when needed)
	channel                     string
	locationID                  int64          // the booking's location (quiet hours' zone)
	zone                        *time.Location // its zone, read when needed
}

// due is when a client's message of kind nominally due at goes: a reminder by text due in quiet
// hours goes the minute before they begin, when that is still ahead (policy.go); otherwise at.
func (w *writer) due(kind Kind, at time.Time) (time.Time, error) {
	if kind != Reminder || !w.plan.quiet.Enabled || w.locationID == 0 {
		return at, nil
	}
	channel, err := w.clientChannel()
	if err != nil || !TextChannel(channel) || !w.plan.byText[kind] {
		return at, err
	}
	if w.zone == nil {
		tz, err := w.q.LocationTimezone(w.ctx, w.locationID)
		if err != nil {
			return at, fmt.Errorf("message location %d: %w", w.locationID, err)
		}
		if w.zone, err = time.LoadLocation(tz); err != nil {
			w.zone = time.UTC
		}
	}
	if due := w.plan.quiet.BeforeQuiet(at, w.zone); due.After(w.now) {
		return due, nil
	}
	// Too late to go before them: the dispatcher keeps it back until they end.
	return at, nil
}

func nullMillis(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: db.Millis(t), Valid: true} }

// clientChannel is the channel this change's messages to the client are planned for, read
// once per change (channelFor).
func (w *writer) clientChannel() (string, error) {
	if w.channel != "" {
		return w.channel, nil
	}
	if !w.plan.texts {
		w.channel = ChannelEmail
		return w.channel, nil
	}
	id := w.clientID
	if id == 0 && w.paymentRequestID != 0 {
		pr, err := w.q.MessagePaymentRequest(w.ctx, w.paymentRequestID)
		if err != nil {
			return "", fmt.Errorf("message payment request %d: %w", w.paymentRequestID, err)
		}
		id = pr.ClientID
	}
	w.channel = ChannelEmail
	if id != 0 {
		c, err := w.q.MessageClientChannel(w.ctx, id)
		if err != nil && !db.IsNotFound(err) {
			return "", fmt.Errorf("message client %d: %w", id, err)
		}
		w.channel = channelFor(c.Channel, w.plan.sms, w.plan.whatsApp, c.Phone)
	}
	return w.channel, nil
}

// recipients are who gets messages of kind: the client, and the owner when they asked for
// copies of it.
func (w *writer) recipients(kind Kind) []string {
	if w.plan.copy[kind] {
		return []string{ToClient, ToOwner}
	}
	return []string{ToClient}
}

// add writes a message of kind, due now, for each recipient, if the owner has that type on.
func (w *writer) add(kind Kind, d detail) error {
	if !w.plan.enabled[kind] {
		return nil
	}
	for _, r := range w.recipients(kind) {
		if err := w.insert(kind, r, 0, w.now, d, StatePending, ""); err != nil {
			return err
		}
	}
	return nil
}

// route is the channel a message of kind to recipient nominally due at goes by, and when it
// is due: a client's as they prefer and the owner allows, by email to anyone else.
func (w *writer) route(kind Kind, recipient string, at time.Time) (channel string, due time.Time, err error) {
	if recipient != ToClient {
		return ChannelEmail, at, nil
	}
	if channel, err = w.clientChannel(); err != nil {
		return "", at, err
	}
	if TextChannel(channel) && !w.plan.byText[kind] {
		channel = ChannelEmail // the owner sends this kind by email only
	}
	due, err = w.due(kind, at)
	return channel, due, err
}

func (w *writer) insert(kind Kind, recipient string, offset time.Duration, at time.Time, d detail, state, note string) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	dj, err := d.json()
	if err != nil {
		return err
	}
	channel, due, err := w.route(kind, recipient, at)
	if err != nil {
		return err
	}
	if state == StatePending && !due.After(w.now) && offset == 0 {
		if running := runningOn(w.q); running != nil {
			if handOff, ok := running.Reserve(w.q, channel); ok {
				id, err := w.q.InsertMessageClaimed(w.ctx, db.InsertMessageClaimedParams{
					MessageKey: key, Kind: string(kind), Recipient: recipient, Channel: channel, DetailJson: dj,
					SendAt: db.Millis(at), CreatedAt: db.Millis(w.now),
					BookingID:        sql.NullInt64{Int64: w.bookingID, Valid: w.bookingID != 0},
					PaymentRequestID: sql.NullInt64{Int64: w.paymentRequestID, Valid: w.paymentRequestID != 0},
					ProviderID:       sql.NullInt64{Int64: w.providerID, Valid: w.providerID != 0},
				})
				handOff(id, due) // id 0 after a failed insert: the place is given back
				return err
			}
		}
	}
	p := db.InsertMessageParams{
		MessageKey: key, Kind: string(kind), Recipient: recipient, Channel: channel, DetailJson: dj,
		State: state, Note: note, SendAt: db.Millis(at), CreatedAt: db.Millis(w.now),
		BookingID:        sql.NullInt64{Int64: w.bookingID, Valid: w.bookingID != 0},
		PaymentRequestID: sql.NullInt64{Int64: w.paymentRequestID, Valid: w.paymentRequestID != 0},
		ProviderID:       sql.NullInt64{Int64: w.providerID, Valid: w.providerID != 0},
		OffsetMin:        sql.NullInt64{Int64: int64(offset / time.Minute), Valid: kind == Reminder},
	}
	if state == StatePending {
		p.NextAttemptAt = nullMillis(due)
	}
	return w.q.InsertMessage(w.ctx, p)
}

const keyAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

// newKey is a Message-ID's left part: "fd." and 26 random base36 characters (≈134 bits).
func newKey() (string, error) {
	var b [26]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	out := make([]byte, 0, 29)
	out = append(out, "fd."...)
	for _, c := range b {
		out = append(out, keyAlphabet[int(c)%len(keyAlphabet)])
	}
	return string(out), nil
}

// SeatGiven is called by app/booking inside the transaction that gave a waiting client a seat
// in a class session (booking.promoted, right after BookingChanged planned the new booking's
// messages): the client gets "you got a seat" — the session's local time, its .ics and the
// manage link — instead of a plain confirmation, which would not tell them why they are
// suddenly booked. With that type switched off the confirmation stays, so the client still
// hears about the booking.
func SeatGiven(ctx context.Context, q *db.Queries, now time.Time, bookingID int64) error {
	p, err := loadPlan(ctx, q)
	if err != nil {
		return err
	}
	if !p.enabled[WaitlistSeat] {
		return nil
	}
	// The confirmation rows were written a moment ago in this very transaction: the booking is
	// new, so nobody has seen them.
	if err := q.DropNewConfirmations(ctx, sql.NullInt64{Int64: bookingID, Valid: true}); err != nil {
		return fmt.Errorf("seat message: %w", err)
	}
	w := writer{ctx: ctx, q: q, now: now, plan: p, bookingID: bookingID}
	return w.add(WaitlistSeat, detail{Sequence: 0})
}
