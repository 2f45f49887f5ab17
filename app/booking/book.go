package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"frontdesk/app/messages"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// View is a booking with everything its resource shows (status, names, zone, sale).
type View = db.BookingViewsRow

// NewBooking is a booking to create.
type NewBooking struct {
	LocationID, ServiceID, ProviderID, ClientID int64
	StatusID                                    int64     // 1–4; a booking is never created cancelled
	Start                                       time.Time // any zone; stored as an instant
	End                                         time.Time // zero: Start plus the service's duration
	Price                                       *int64    // cents; nil: the service's price less its discount
	Notes                                       *string
	TimeResourceID                              *int64
	Source                                      string // one of the Source* constants
	// StartWall and EndWall say that Start or End is a wall-clock reading of the location rather
	// than an instant: only its date and time of day count, read in the location's zone (see
	// WallInstant). The API sets them for a key with the z_means_local option.
	StartWall, EndWall bool
	// PackID chooses how a booking of a pack service is paid (packs.go): nil uses the client's
	// usable pack that expires first, if any; a pointer to 0 uses none (an ordinary, priced
	// booking); another id uses that pack, which must be usable.
	PackID *int64
	// Override records that the owner confirmed booking outside the staff rules (override.go).
	Override *Override
	// NewClient says the client is created inside the write transaction Book joins (the
	// admin's quick form books a caller it meets for the first time): Prepare leaves ClientID
	// alone, and Book checks the one set by then.
	NewClient bool
	// SeriesID is the series the booking is an occurrence of (series.go); 0 for none.
	SeriesID int64
}

func (nb NewBooking) placement() placement {
	return placement{
		LocationID: nb.LocationID, ServiceID: nb.ServiceID, ProviderID: nb.ProviderID, Start: nb.Start, End: nb.End,
		StartWall: nb.StartWall, EndWall: nb.EndWall,
	}
}

// maxNotes bounds free-text notes (in characters).
const maxNotes = 5000

// Create books nb and records booking.created in the same transaction: Prepare, then Book. It
// owns its transaction, or joins the caller's (db.WithTx), reading through it. Errors:
// *NotFoundError for a missing location, service, provider or client; *InvalidError for a rule
// about the request itself (status, times, inactive or unsuitable records, a time the engine
// does not offer, a second seat for a client in a class session, an unusable pack);
// ErrSlotUnavailable when another booking holds the provider; ErrClassFull when a class session
// has no seat left.
func Create(ctx context.Context, d *db.DB, now time.Time, nb NewBooking) (View, error) {
	p, err := prepare(ctx, d, now, nb, true)
	if err != nil {
		return View{}, err
	}
	return Book(ctx, d, now, p)
}

// Prepared is a booking that passed the rules checked before the write transaction (Prepare):
// the placement of each candidate provider, in the order Book tries them.
type Prepared struct {
	// NewBooking is the booking as asked, which the caller may still complete before Book: a
	// customer flow that matches the client inside the write transaction (app/reserve) sets
	// ClientID then, and a payment request sets its own StatusID and Price.
	NewBooking
	places []placed
}

// Prepare applies the rules of a booking that do not need the write transaction: the request
// itself and the placement — the records, working time, other bookings, notice and advance
// window, through the slot engine for the customer flows (place). It reads the read pool (the
// catalog cache, kept busy time), so most refusals cost the single writer nothing; a context
// joined to a write transaction (db.WithTx) reads through that transaction instead.
//
// The client is checked by Book, inside the write transaction: there its row is in the
// writer's own page cache, while a read connection drops its cache whenever anyone commits
// (WAL) and would read the row's pages again on nearly every booking. A placement refused here
// checks the client first, so a missing or deactivated client is still the error reported.
//
// A customer flow may leave two things open. ProviderID 0 is anyone available: the candidates
// are the providers the engine offers at nb.Start, in id order (ErrSlotUnavailable when there
// is none), and Book takes the first still free. ClientID 0 is a client not known yet (matched
// or created in the write transaction; for any source with NewClient): Book checks the one set
// by then.
func Prepare(ctx context.Context, d *db.DB, now time.Time, nb NewBooking) (Prepared, error) {
	return prepare(ctx, d, now, nb, false)
}

// prepare is Prepare; recent says that Book follows at once, so placement may look first at
// the provider's bookings as last kept (place).
func prepare(ctx context.Context, d *db.DB, now time.Time, nb NewBooking, recent bool) (Prepared, error) {
	if err := validSource(nb.Source); err != nil {
		return Prepared{}, err
	}
	if err := validStatus(nb.StatusID); err != nil {
		return Prepared{}, err
	}
	if err := validExtras(nb.Notes, nb.TimeResourceID); err != nil {
		return Prepared{}, err
	}
	r := d.Reader(ctx)
	// refused reports err, a refused placement, unless the client is missing or deactivated.
	refused := func(err error) error {
		if !nb.NewClient && (nb.ClientID != 0 || !customerFlow(nb.Source)) {
			if cerr := checkClient(ctx, r, nb.ClientID); cerr != nil {
				return cerr
			}
		}
		return err
	}
	p := Prepared{NewBooking: nb}
	if nb.ProviderID == 0 && customerFlow(nb.Source) {
		places, err := anyone(ctx, d, now, nb)
		if err != nil {
			return Prepared{}, refused(err)
		}
		p.places = places
		return p, nil
	}
	pl, err := place(ctx, d, now, nb.placement(), nb.Source, 0, recent)
	if err != nil {
		return Prepared{}, refused(seatedOr(ctx, r, nb, err))
	}
	p.places = []placed{pl}
	return p, nil
}

// anyone places nb with each provider of its location and service in id order and keeps those
// the rules accept: the providers free at nb.Start.
func anyone(ctx context.Context, d *db.DB, now time.Time, nb NewBooking) ([]placed, error) {
	day := DateOf(nb.Start.UTC())
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{
		LocationID: nb.LocationID, ServiceID: nb.ServiceID, First: day.AddDays(-1), Last: day.AddDays(2), OnlineOnly: true,
	})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(l.Schedule.Providers))
	for _, p := range l.Schedule.Providers {
		ids = append(ids, p.ID)
	}
	slices.Sort(ids)
	var out []placed
	for _, id := range ids {
		at := nb.placement()
		at.ProviderID = id
		pl, err := place(ctx, d, now, at, nb.Source, 0, false)
		var inv *InvalidError
		switch {
		case err == nil:
			out = append(out, pl)
		case errors.Is(err, ErrSlotUnavailable), errors.Is(err, ErrClassFull), errors.As(err, &inv):
		default:
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, ErrSlotUnavailable
	}
	return out, nil
}

// Book writes a prepared booking inside one write transaction — its own, or the caller's it
// joins (db.WithTx) — doing only what must be atomic there: the client's check (see Prepare),
// the overlap check (or, in a class, the seat check) that takes the first candidate still free,
// the pack, the insert and booking.created. Errors are Create's.
func Book(ctx context.Context, d *db.DB, now time.Time, p Prepared) (View, error) {
	if len(p.places) == 0 {
		return View{}, errors.New("booking: Book of a booking that was not prepared")
	}
	if err := validStatus(p.StatusID); err != nil {
		return View{}, err
	}
	status, err := cachedStatus(ctx, d, p.places[0].loaded, p.StatusID)
	if err != nil {
		return View{}, fmt.Errorf("booking status %d: %w", p.StatusID, err)
	}
	packs, err := anyPacks(ctx, d, p.places[0].loaded)
	if err != nil {
		return View{}, err
	}
	var b db.Booking
	var at placed
	var draft drafted
	if !p.places[0].loaded.Schedule.Service.IsClass() { // a class's row takes its seat in the transaction
		first := p.NewBooking
		if first.ProviderID == 0 {
			first.ProviderID = p.places[0].loaded.Provider.ID
		}
		if draft, err = draftCreated(bookingOf(insertRow(first, p.places[0], now), 0)); err != nil {
			return View{}, err
		}
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := checkClient(ctx, q, p.ClientID); err != nil {
			return err
		}
		nb := p.NewBooking
		for i, pl := range p.places {
			if at = pl; p.ProviderID == 0 {
				nb.ProviderID = pl.loaded.Provider.ID
			}
			var err error
			if i > 0 {
				draft = drafted{}
			}
			b, err = book(ctx, q, now, nb, pl, status, packs, draft)
			if i < len(p.places)-1 && (errors.Is(err, ErrSlotUnavailable) || errors.Is(err, ErrClassFull)) {
				continue // taken since Prepare: the next candidate (nothing was written)
			}
			if err != nil {
				return err
			}
			break
		}
		return recordOverride(ctx, q, b.ID, nb.Override, now)
	})
	if err != nil {
		return View{}, err
	}
	if b.SaleID.Valid { // not set on insert today; if it ever is, its sale is read with the rest
		return getView(ctx, d.Reader(ctx), b.ID)
	}
	return createdView(b, status, at.loaded), nil
}

// createdView is the view of booking b as just inserted (the row as stored, defaults included)
// and checked against l, the same as reading it back with BookingViews but one statement
// fewer: the names are those the placement was checked against.
func createdView(b db.Booking, status db.BookingStatus, l Loaded) View {
	return View{
		Booking:    b,
		StatusName: status.Name, StatusInternalName: status.InternalName, StatusDescription: status.Description,
		ServiceName: l.Service.Name, ProviderName: l.Provider.PublicName,
		LocationName: l.Location.Name, LocationTimezone: l.Location.Zone.String(),
		CompanyID: l.Policy.ID,
	}
}

// anyPacksKey caches in the catalog cache whether the business has any session pack.
type anyPacksKey struct{}

// anyPacks reports whether the business has any session pack (a client's, sold or credited by a
// membership), through the catalog cache at the version l was loaded at: the first pack raises
// the version (db/migrations/00621_client_packs_version.sql), so "none" is never kept past it.
// Not loaded through the cache (a joined transaction), it answers true: the pack is looked for.
func anyPacks(ctx context.Context, d *db.DB, l Loaded) (bool, error) {
	if !l.cached {
		return true, nil
	}
	return cached(d.Catalog(), l.version, anyPacksKey{}, func() (bool, error) {
		any, err := d.Reader(ctx).AnyClientPacks(ctx)
		if err != nil {
			return false, fmt.Errorf("packs: %w", err)
		}
		return any, nil
	})
}

// statusKey caches a booking status in the catalog cache.
type statusKey int64

// cachedStatus reads booking status id through the catalog cache, at the catalog version l
// was loaded at (or straight from the reader when l was not loaded through the cache).
func cachedStatus(ctx context.Context, d *db.DB, l Loaded, id int64) (db.BookingStatus, error) {
	load := func() (db.BookingStatus, error) { return d.Reader(ctx).BookingStatusByID(ctx, id) }
	if !l.cached {
		return load()
	}
	return cached(d.Catalog(), l.version, statusKey(id), load)
}

// Get returns one booking.
func Get(ctx context.Context, q *db.Queries, id int64) (View, error) { return getView(ctx, q, id) }

func getView(ctx context.Context, q *db.Queries, id int64) (View, error) {
	rows, err := q.BookingViews(ctx, []int64{id})
	if err != nil {
		return View{}, fmt.Errorf("booking %d: %w", id, err)
	}
	if len(rows) == 0 {
		return View{}, &NotFoundError{Resource: "booking"}
	}
	return rows[0], nil
}

// book writes new booking nb, placed at pl, inside the write transaction q: the overlap check
// (or, in a class, the seat check), the pack it uses, the row and booking.created. packs is
// false when the business has no session pack at all (anyPacks): a service sold one session at
// a time then looks for none.
//
// draft is the trail entry drafted before the transaction, used when it describes the row
// written (recordCreated).
func book(ctx context.Context, q *db.Queries, now time.Time, nb NewBooking, pl placed, status db.BookingStatus, packs bool, draft drafted) (db.Booking, error) {
	var session sql.NullInt64
	if pl.loaded.Schedule.Service.IsClass() {
		id, err := takeSeat(ctx, q, now, &pl, nb.ClientID, 0)
		if err != nil {
			return db.Booking{}, err
		}
		session = sql.NullInt64{Int64: id, Valid: true}
	} else if err := checkFree(ctx, q, nb.ProviderID, pl.blockStart, pl.blockEnd, 0); err != nil {
		return db.Booking{}, err
	} else if err := checkResources(ctx, q, nb.LocationID, nb.ServiceID, pl.blockStart, pl.blockEnd, 0); err != nil {
		return db.Booking{}, err
	}
	row := insertRow(nb, pl, now)
	row.SessionID = session
	// A membership's sessions pay for services sold one at a time too (choosePack).
	if svc := *pl.loaded.Service; svc.SessionCount > 1 || nb.PackID != nil || packs && nb.ClientID != 0 {
		pack, err := choosePack(ctx, q, svc, nb.ClientID, pl.start, nb.PackID)
		if err != nil {
			return db.Booking{}, err
		}
		if row.PackID = pack; pack.Valid && nb.Price == nil {
			row.PriceCents, row.DiscountBp = 0, sql.NullInt64{} // the pack paid
		}
	}
	b, err := insertBooking(ctx, q, row)
	if err != nil {
		return db.Booking{}, err
	}
	if err := recordCreated(ctx, q, now, b, draft); err != nil {
		return db.Booking{}, err
	}
	return b, announce(ctx, q, now, webhook.BookingCreated, b, status, pl.loaded.Location.Zone)
}

// insertBooking writes row and returns the booking as stored: its id from the insert, every
// other column from row and the table's defaults (db/migrations: scheduled 1, change_count 0,
// pack_returned 0, cancelled_late 0, the rest NULL), which no insert trigger changes — one
// column read back instead of thirty (TestInsertedRowIsTheStoredRow holds the two equal).
func insertBooking(ctx context.Context, q *db.Queries, row db.InsertBookingParams) (db.Booking, error) {
	id, err := q.InsertBooking(ctx, row)
	if err != nil {
		return db.Booking{}, writeError(err)
	}
	return bookingOf(row, id), nil
}

// bookingOf is row as stored under id.
func bookingOf(row db.InsertBookingParams, id int64) db.Booking {
	return db.Booking{
		ID: id, LocationID: row.LocationID, ServiceID: row.ServiceID, ProviderID: row.ProviderID, ClientID: row.ClientID,
		StatusID: row.StatusID, StartAt: row.StartAt, EndAt: row.EndAt,
		BlockStartAt: row.BlockStartAt, BlockEndAt: row.BlockEndAt,
		PriceCents: row.PriceCents, ListPriceCents: row.ListPriceCents, DiscountBp: row.DiscountBp,
		Notes: row.Notes, Scheduled: true, TimeResourceID: row.TimeResourceID, Source: row.Source,
		CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
		SessionID: row.SessionID, PackID: row.PackID, SeriesID: row.SeriesID,
	}
}

// checkFree is the no-double-booking check inside the write transaction: no other
// non-cancelled block of the provider may overlap [start, end).
func checkFree(ctx context.Context, q *db.Queries, providerID int64, start, end time.Time, ignoreID int64) error {
	ids, err := q.BookingOverlap(ctx, db.BookingOverlapParams{
		ProviderID: providerID, Floor: db.Millis(start.Add(-blockLimit)), BlockEnd: db.Millis(end),
		BlockStart: db.Millis(start), IgnoreID: ignoreID,
	})
	if err != nil {
		return fmt.Errorf("overlap check: %w", err)
	}
	if len(ids) > 0 {
		return ErrSlotUnavailable
	}
	return nil
}

// writeError translates the database's own refusals (the overlap, cancel, seat and pack
// triggers, and the one-seat-per-client index).
func writeError(err error) error {
	switch {
	case db.IsConstraint(err, "slot_unavailable"), db.IsConstraint(err, "resource_unavailable"):
		return ErrSlotUnavailable
	case db.IsConstraint(err, "booking_cancelled"):
		return invalid("booking", "a cancelled booking cannot be changed")
	case db.IsConstraint(err, "class_full"):
		return ErrClassFull
	case db.IsConstraint(err, "bookings.session_id, bookings.client_id"):
		return errAlreadySeated()
	case db.IsConstraint(err, "session_cancelled"):
		return errSessionCancelled()
	case db.IsConstraint(err, "session_mismatch"):
		return invalid("start_time", "a booking in a class session has the session's time, place and provider")
	}
	if perr := packWriteError(err); perr != nil {
		return perr
	}
	return fmt.Errorf("write booking: %w", err)
}

// enqueue records a booking's change from before (zero for a new booking) to b: its event in
// the outbox and its entry in the activity trail, with the transaction's Queries.
func enqueue(ctx context.Context, q *db.Queries, now time.Time, eventType string, before, b db.Booking, status db.BookingStatus, zone *time.Location) error {
	if err := recordActivity(ctx, q, now, before, b); err != nil {
		return err
	}
	return announce(ctx, q, now, eventType, b, status, zone)
}

// announce is enqueue after the trail: the event in the outbox and the customer messages.
func announce(ctx context.Context, q *db.Queries, now time.Time, eventType string, b db.Booking, status db.BookingStatus, zone *time.Location) error {
	if _, err := webhook.Enqueue(ctx, q, now, eventType, resource.NewBookingEvent(b, status, zone)); err != nil {
		return err
	}
	// Customer messages: the booking's confirmation, notices and reminders follow every event.
	if eventType == webhook.BookingCreated {
		return messages.BookingCreated(ctx, q, now, b)
	}
	return messages.BookingChanged(ctx, q, now, b)
}

func validSource(s string) error {
	if s != SourceAdmin && s != SourceImport && !customerFlow(s) {
		return fmt.Errorf("booking source %q: want one of %q, %q, %q, %q, %q", s, SourceConnect, SourceOnline, SourceMCP, SourceAdmin, SourceImport)
	}
	return nil
}

func checkClient(ctx context.Context, q *db.Queries, id int64) error {
	c, err := q.BookingClient(ctx, id)
	if err != nil {
		return notFoundAs(err, "client")
	}
	if !c.Active {
		return invalid("client_id", "the client is deactivated")
	}
	return nil
}

func validExtras(notes *string, timeResourceID *int64) error {
	if notes != nil && utf8.RuneCountInString(*notes) > maxNotes {
		return invalid("notes", "at most %d characters", maxNotes)
	}
	if timeResourceID != nil && *timeResourceID < 1 {
		return invalid("time_resource_id", "must be a positive integer")
	}
	return nil
}

// prices fills a booking's money: list price is the service's price; without an explicit price
// the client pays the list price less the service's discount, which is then recorded.
// insertRow is the row a new booking placed at pl writes.
func insertRow(nb NewBooking, pl placed, now time.Time) db.InsertBookingParams {
	price, list, discount := prices(*pl.loaded.Service, nb.Price)
	ms := db.Millis(now)
	return db.InsertBookingParams{
		LocationID: nb.LocationID, ServiceID: nb.ServiceID, ProviderID: nb.ProviderID, ClientID: nb.ClientID,
		StatusID: nb.StatusID, StartAt: db.Millis(pl.start), EndAt: db.Millis(pl.end),
		BlockStartAt: db.Millis(pl.blockStart), BlockEndAt: db.Millis(pl.blockEnd),
		PriceCents: price, ListPriceCents: list, DiscountBp: discount,
		Notes: nullString(nb.Notes), TimeResourceID: nullInt(nb.TimeResourceID),
		Source: nb.Source, CreatedAt: ms, UpdatedAt: ms,
		SeriesID: sql.NullInt64{Int64: nb.SeriesID, Valid: nb.SeriesID != 0},
	}
}

func prices(svc ServiceInfo, explicit *int64) (price, list int64, discount sql.NullInt64) {
	list = svc.PriceCents
	if explicit != nil {
		return *explicit, list, sql.NullInt64{}
	}
	if svc.HasDiscount && svc.DiscountBp.Valid && svc.DiscountBp.Int64 > 0 {
		off := money.Cents(list).Percent(svc.DiscountBp.Int64)
		return list - int64(off), list, svc.DiscountBp
	}
	return list, list, sql.NullInt64{}
}

func nullString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

func nullInt(v *int64) sql.NullInt64 {
	if v == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *v, Valid: true}
}
