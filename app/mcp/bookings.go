package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/idempotency"
	"frontdesk/app/money"
	"frontdesk/db"
)

// The booking tools call app/booking exactly as /v3 does, with source "mcp" (the customer flow:
// availability, notice, advance window, online booking and the edit/cancel policy), so a
// booking made here is the booking /v3 would make, with the same events and webhooks.

var bookTool = toolSpec{
	name: "book", title: "Book an appointment", scope: "bookings:write", idempotent: true,
	description: "Books the time a find_free_times slot_id names for a client (client_id from " +
		"find_or_create_client). Confirm the service, local date and time with the customer first. " +
		"idempotency_key: a new unique string (e.g. a UUID) for each booking you mean to make; send the " +
		"same key again only to retry this same call after an error or timeout, and it will not book twice. " +
		"If the time was just taken, the answer lists other free times that day.",
	input: object([]string{"slot_id", "client_id", "idempotency_key"},
		stringArg("slot_id", "A slot_id from find_free_times.", maxSlotID),
		idArg("client_id", "The customer, from find_or_create_client."),
		patternArg("idempotency_key", "A unique string per booking (1-255 printable ASCII characters), e.g. a UUID.", `^[ -~]{1,255}$`, idempotency.MaxKey),
		stringArg("notes", "Optional notes for the business from the customer (at most 1000 characters).", maxNotes),
	),
}

const maxNotes = 1000

type bookArgs struct {
	SlotID         string `json:"slot_id"`
	ClientID       int64  `json:"client_id"`
	IdempotencyKey string `json:"idempotency_key"`
	Notes          string `json:"notes"`
}

// bookingOut is a booking as the assistant reads it back to the customer.
type bookingOut struct {
	BookingID    int64   `json:"booking_id"`
	Status       string  `json:"status"`
	ClientID     int64   `json:"client_id"`
	Service      nameRef `json:"service"`
	Provider     nameRef `json:"provider"`
	Location     nameRef `json:"location"`
	TimeZone     string  `json:"time_zone"`
	Date         string  `json:"date"`
	Weekday      string  `json:"weekday"`
	LocalTime    string  `json:"local_time"`
	LocalEndTime string  `json:"local_end_time"`
	UTCOffset    string  `json:"utc_offset"`
	StartsAt     string  `json:"starts_at"`
	EndsAt       string  `json:"ends_at"`
	Price        string  `json:"price"`
	Note         string  `json:"note,omitempty"`
}

// storedAnswer is what an idempotency key keeps of a book call.
type storedAnswer struct {
	Data bookingOut `json:"data"`
	Text string     `json:"text"`
}

func (s *Server) book(ctx context.Context, c call, in *bookArgs) (answer, error) {
	ref, err := s.slotArg(ctx, in.SlotID)
	if err != nil {
		return answer{}, err
	}
	if err := requiredID("client_id", in.ClientID); err != nil {
		return answer{}, err
	}
	if !idempotency.ValidKey(in.IdempotencyKey) {
		return answer{}, invalid("idempotency_key", "is required: 1 to 255 printable ASCII characters, e.g. a UUID, new for each booking")
	}
	notes, err := text("notes", in.Notes, maxNotes, true)
	if err != nil {
		return answer{}, err
	}
	req := idempotency.Request{
		APIKeyID: c.key.ID, Key: in.IdempotencyKey, Method: "MCP", Path: "tools/book",
		RequestHash: argsHash(strings.TrimSpace(in.SlotID), fmt.Sprint(in.ClientID), notes),
	}
	claimed, err := idempotency.Claim(ctx, s.db, s.now(), req)
	if err != nil {
		return answer{}, err
	}
	switch claimed.Outcome {
	case idempotency.Reused:
		return answer{}, invalid("idempotency_key", "was already used for a different booking; use a new key for each booking")
	case idempotency.InProgress:
		return answer{}, &toolError{Kind: kindRetry, Message: "a call with this idempotency_key is still running; wait a moment and call again with the same key"}
	case idempotency.Replay:
		var st storedAnswer
		if err := json.Unmarshal(claimed.Body, &st); err != nil {
			return answer{}, fmt.Errorf("stored answer of idempotency key: %w", err)
		}
		return answer{data: st.Data, text: st.Text + " (This booking was already made by an earlier call with the same idempotency_key.)"}, nil
	}
	// Only a booking is remembered under the key: after a refusal the key is free again, so a
	// retry once the reason is gone (a time freed) can still book, and books once.
	a, err := s.bookSlot(ctx, c, ref, in.ClientID, notes)
	detached := context.WithoutCancel(ctx)
	if err != nil {
		if rerr := idempotency.Release(detached, s.db, req.APIKeyID, req.Key); rerr != nil {
			s.log.ErrorContext(ctx, "mcp: release idempotency key", "err", rerr)
		}
		return answer{}, err
	}
	body, err := json.Marshal(storedAnswer{Data: a.data.(bookingOut), Text: a.text})
	if err == nil {
		err = idempotency.Complete(detached, s.db, req.APIKeyID, req.Key, 200, body)
	}
	if err != nil {
		// Booked; the key stays claimed until it expires, which errs on the side of never booking twice.
		s.log.ErrorContext(ctx, "mcp: record idempotent answer", "err", err)
	}
	return a, nil
}

func (s *Server) bookSlot(ctx context.Context, c call, ref slotRef, clientID int64, notes string) (answer, error) {
	nb := booking.NewBooking{
		LocationID: ref.LocationID, ServiceID: ref.ServiceID, ProviderID: ref.ProviderID, ClientID: clientID,
		StatusID: booking.StatusConfirmed, Start: ref.Start, Source: booking.SourceMCP,
	}
	if notes != "" {
		nb.Notes = &notes
	}
	v, err := booking.Create(db.WithCatalogVersion(ctx, c.key.CatalogVersion), s.db, s.now(), nb)
	if err != nil {
		return answer{}, s.takenWithAlternatives(ctx, c, ref, clientID, 0, err)
	}
	out, err := s.bookingOut(ctx, v)
	if err != nil {
		return answer{}, err
	}
	return answer{data: out, text: "Booked. " + bookingText(out)}, nil
}

// takenWithAlternatives turns "the provider is taken" into just_taken with the day's other free
// times — or, when what holds the provider is a booking of this same client, into
// already_booked naming it; any other error passes through. movingID is the booking a
// reschedule moves (0 for a new booking).
func (s *Server) takenWithAlternatives(ctx context.Context, c call, ref slotRef, clientID, movingID int64, err error) error {
	if !errors.Is(err, booking.ErrSlotUnavailable) && !errors.Is(err, booking.ErrClassFull) {
		return err
	}
	if errors.Is(err, booking.ErrSlotUnavailable) {
		if held, herr := s.clientHolds(ctx, ref, clientID, movingID); herr != nil {
			s.log.WarnContext(ctx, "mcp: look for the client's own booking at a taken time", "err", herr)
		} else if held != nil {
			return held
		}
	}
	te := &toolError{Kind: kindTaken, Field: "slot_id", Message: "that time was just taken by someone else. Offer the customer one of the other free times below (or call find_free_times for another day)"}
	alt, aerr := s.alternatives(ctx, c, ref)
	if aerr != nil {
		s.log.WarnContext(ctx, "mcp: alternatives for a taken slot", "err", aerr)
	}
	if alt == "" {
		te.Message = "that time was just taken by someone else; call find_free_times again and offer the customer another time"
	}
	te.Details = alt
	return te
}

// clientHolds is the already_booked answer when the provider is held at the slot's time by a
// booking of this same client (booked before, by this assistant or another way), or nil. Telling
// that customer "someone else just took it" would be wrong, and offering other times would
// invite a second booking.
func (s *Server) clientHolds(ctx context.Context, ref slotRef, clientID, movingID int64) (*toolError, error) {
	svc, err := s.db.R.ScheduleService(ctx, ref.ServiceID)
	if err != nil {
		return nil, err
	}
	start, end := ref.Start, ref.Start.Add(time.Duration(svc.DurationMin)*time.Minute)
	id, err := s.db.R.MCPClientBookingOverlapping(ctx, db.MCPClientBookingOverlappingParams{
		ClientID: clientID, ProviderID: ref.ProviderID, ExceptID: movingID,
		StartAt: db.Millis(start), EndAt: db.Millis(end), Since: db.Millis(start.Add(-48 * time.Hour)),
	})
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := booking.Get(ctx, s.db.R, id)
	if err != nil {
		return nil, err
	}
	out, err := s.bookingOut(ctx, v)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("the client already has a booking with %s at that time", out.Provider.Name)
	if v.Booking.ServiceID == ref.ServiceID && v.Booking.LocationID == ref.LocationID && db.Time(v.Booking.StartAt).Equal(ref.Start) {
		what = "the client already has this booking"
	}
	return &toolError{Kind: kindAlreadyBooked, Field: "slot_id",
		Message: what + ", so nothing new was booked. Tell the customer they are already booked (upcoming_bookings lists their bookings)",
		Details: bookingText(out)}, nil
}

var rescheduleTool = toolSpec{
	name: "reschedule_booking", title: "Reschedule a booking", scope: "bookings:write", idempotent: true,
	description: "Moves a client's booking to the time a find_free_times slot_id names (same service; the " +
		"provider may change). The business's change policy applies; a refusal says why in plain words.",
	input: object([]string{"booking_id", "client_id", "slot_id"},
		idArg("booking_id", "The booking, from upcoming_bookings or book."),
		idArg("client_id", "The client the booking belongs to."),
		stringArg("slot_id", "The new time: a slot_id from find_free_times for the booking's service.", maxSlotID),
		seriesScopeArg("moves"),
	),
}

// seriesScopeArg is the scope of a change to an occurrence of a repeating booking
// (docs/visits.md, "Series"): the same choice /v3 offers, through the same functions.
func seriesScopeArg(verb string) prop {
	return enumArg("scope", "For a booking that repeats (it has a series_id): \"one\" (default) "+verb+" this date only, "+
		"\"following\" this date and the later ones, \"all\" every date not started yet. Ask the customer which they mean.",
		booking.ScopeOne, booking.ScopeFollowing, booking.ScopeAll)
}

type rescheduleArgs struct {
	BookingID int64  `json:"booking_id"`
	ClientID  int64  `json:"client_id"`
	SlotID    string `json:"slot_id"`
	Scope     string `json:"scope"`
}

func (s *Server) reschedule(ctx context.Context, c call, in *rescheduleArgs) (answer, error) {
	cur, err := s.clientBooking(ctx, in.BookingID, in.ClientID)
	if err != nil {
		return answer{}, err
	}
	ref, err := s.slotArg(ctx, in.SlotID)
	if err != nil {
		return answer{}, err
	}
	if ref.ServiceID != cur.Booking.ServiceID {
		return answer{}, invalid("slot_id", "is a time for another service; this booking is for %s (service_id %d): call find_free_times with that service_id",
			cur.ServiceName, cur.Booking.ServiceID)
	}
	ch := booking.Change{Start: &ref.Start, LocationID: &ref.LocationID, ProviderID: &ref.ProviderID}
	vs, err := booking.UpdateOccurrences(db.WithCatalogVersion(ctx, c.key.CatalogVersion), s.db, s.now(), cur.Booking.ID, ch, in.Scope, booking.SourceMCP)
	if se, ok := err.(*booking.SeriesUnavailableError); ok {
		return answer{}, &toolError{Kind: kindTaken, Field: "slot_id", Message: se.Error() + "; nothing was moved"}
	}
	if err != nil {
		return answer{}, s.takenWithAlternatives(ctx, c, ref, cur.Booking.ClientID, cur.Booking.ID, err)
	}
	v, err := booking.Get(ctx, s.db.R, cur.Booking.ID)
	if err != nil {
		return answer{}, err
	}
	out, err := s.bookingOut(ctx, v)
	if err != nil {
		return answer{}, err
	}
	lead := "Rescheduled. "
	if len(vs) > 1 {
		lead = fmt.Sprintf("Rescheduled %d dates of the series. ", len(vs))
	}
	return answer{data: out, text: lead + bookingText(out)}, nil
}

var cancelTool = toolSpec{
	name: "cancel_booking", title: "Cancel a booking", scope: "bookings:write", destructive: true, idempotent: true,
	description: "Cancels a client's booking (confirm with the customer first). Cancelling a cancelled booking " +
		"changes nothing. The business's cancellation policy applies; a refusal says why in plain words.",
	input: object([]string{"booking_id", "client_id"},
		idArg("booking_id", "The booking, from upcoming_bookings or book."),
		idArg("client_id", "The client the booking belongs to."),
		seriesScopeArg("cancels"),
	),
}

type cancelArgs struct {
	BookingID int64  `json:"booking_id"`
	ClientID  int64  `json:"client_id"`
	Scope     string `json:"scope"`
}

func (s *Server) cancel(ctx context.Context, _ call, in *cancelArgs) (answer, error) {
	cur, err := s.clientBooking(ctx, in.BookingID, in.ClientID)
	if err != nil {
		return answer{}, err
	}
	already := cur.Booking.StatusID == booking.StatusCancelled
	done, err := booking.CancelOccurrences(ctx, s.db, s.now(), cur.Booking.ID, in.Scope, booking.CancelOptions{Source: booking.SourceMCP})
	if err != nil {
		return answer{}, err
	}
	v, err := booking.Get(ctx, s.db.R, cur.Booking.ID)
	if err != nil {
		return answer{}, err
	}
	out, err := s.bookingOut(ctx, v)
	if err != nil {
		return answer{}, err
	}
	lead := "Cancelled. "
	if already {
		lead = "This booking was already cancelled. "
	}
	if len(done) > 1 {
		lead = fmt.Sprintf("Cancelled %d dates of the series. ", len(done))
	}
	return answer{data: out, text: lead + bookingText(out)}, nil
}

var upcomingTool = toolSpec{
	name: "upcoming_bookings", title: "A client's upcoming bookings", scope: "bookings:read", readOnly: true, idempotent: true,
	description: "Lists a client's bookings that have not ended yet (not cancelled), soonest first, with local times.",
	input: object([]string{"client_id"},
		idArg("client_id", "The client, from find_or_create_client."),
		intArg("limit", "Most bookings to return (1-50, default 10).", 1, 50),
	),
}

type upcomingArgs struct {
	ClientID int64  `json:"client_id"`
	Limit    *int64 `json:"limit"`
}

func (s *Server) upcomingBookings(ctx context.Context, _ call, in *upcomingArgs) (answer, error) {
	if err := requiredID("client_id", in.ClientID); err != nil {
		return answer{}, err
	}
	limit := int64(10)
	if in.Limit != nil {
		if limit = *in.Limit; limit < 1 || limit > 50 {
			return answer{}, invalid("limit", "must be between 1 and 50")
		}
	}
	if _, err := s.db.R.BookingClient(ctx, in.ClientID); db.IsNotFound(err) {
		return answer{}, notFound("client_id", "no such client; use find_or_create_client")
	} else if err != nil {
		return answer{}, err
	}
	now := s.now()
	ids, err := s.db.R.MCPUpcomingBookings(ctx, db.MCPUpcomingBookingsParams{
		ClientID: in.ClientID, Since: db.Millis(now.Add(-48 * time.Hour)), Now: db.Millis(now), Limit: limit,
	})
	if err != nil {
		return answer{}, err
	}
	out := []bookingOut{}
	var b strings.Builder
	for _, id := range ids {
		v, err := booking.Get(ctx, s.db.R, id)
		if err != nil {
			return answer{}, err
		}
		o, err := s.bookingOut(ctx, v)
		if err != nil {
			return answer{}, err
		}
		out = append(out, o)
		b.WriteString("- " + bookingText(o) + "\n")
	}
	text := fmt.Sprintf("Client %d has %d upcoming booking(s).", in.ClientID, len(out))
	if len(out) > 0 {
		text += "\n" + strings.TrimSpace(b.String())
	}
	return answer{data: map[string]any{"bookings": out}, text: text}, nil
}

// clientBooking reads a booking and checks it is the client's: an assistant changes only the
// bookings of the customer it identified.
func (s *Server) clientBooking(ctx context.Context, bookingID, clientID int64) (booking.View, error) {
	if err := requiredID("booking_id", bookingID); err != nil {
		return booking.View{}, err
	}
	if err := requiredID("client_id", clientID); err != nil {
		return booking.View{}, err
	}
	v, err := booking.Get(ctx, s.db.R, bookingID)
	if err != nil {
		return v, err
	}
	if v.Booking.ClientID != clientID {
		return v, notFound("booking_id", "this client has no booking with that id; call upcoming_bookings")
	}
	return v, nil
}

// slotArg reads and verifies a slot id.
func (s *Server) slotArg(ctx context.Context, id string) (slotRef, error) {
	if strings.TrimSpace(id) == "" {
		return slotRef{}, invalid("slot_id", "is required: a slot_id from find_free_times")
	}
	key, err := s.slotSecret(ctx)
	if err != nil {
		return slotRef{}, err
	}
	ref, err := decodeSlotID(key, strings.TrimSpace(id))
	if err != nil {
		return slotRef{}, invalid("slot_id", "is not a slot_id that find_free_times gave; call find_free_times and copy one of its slot_id values exactly")
	}
	return ref, nil
}

func (s *Server) bookingOut(ctx context.Context, v booking.View) (bookingOut, error) {
	zone, err := booking.LoadZone(v.LocationTimezone)
	if err != nil {
		return bookingOut{}, err
	}
	start, end := db.Time(v.Booking.StartAt).In(zone), db.Time(v.Booking.EndAt).In(zone)
	company, err := s.db.R.GetCompany(ctx)
	if err != nil {
		return bookingOut{}, err
	}
	out := bookingOut{
		BookingID: v.Booking.ID, Status: v.StatusInternalName, ClientID: v.Booking.ClientID,
		Service:  nameRef{v.Booking.ServiceID, v.ServiceName},
		Provider: nameRef{v.Booking.ProviderID, v.ProviderName},
		Location: nameRef{v.Booking.LocationID, v.LocationName},
		TimeZone: zone.String(), Date: booking.DateOf(start).String(), Weekday: start.Weekday().String(),
		LocalTime: start.Format("15:04"), LocalEndTime: end.Format("15:04"), UTCOffset: start.Format("-07:00"),
		StartsAt: start.Format(time.RFC3339), EndsAt: end.Format(time.RFC3339),
		Price: money.Cents(v.Booking.PriceCents).String() + " " + company.Currency,
		Note:  repeatedNote(start),
	}
	return out, nil
}

func bookingText(o bookingOut) string {
	t := fmt.Sprintf("Booking %d (%s): %s with %s at %s, %s %s %s-%s (UTC%s, %s), price %s.",
		o.BookingID, o.Status, o.Service.Name, o.Provider.Name, o.Location.Name, o.Weekday, o.Date, o.LocalTime, o.LocalEndTime,
		o.UTCOffset, o.TimeZone, o.Price)
	if o.Note != "" {
		t += " " + o.Note + "."
	}
	return t
}

// argsHash identifies "the same call" for an idempotency key.
func argsHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
