package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

// Optional is a field a change may set to a value or clear (Set with a nil Value).
type Optional[T any] struct {
	Set   bool
	Value *T
}

// Change is a merge update: nil pointers and unset Optionals leave fields alone. A change of
// Start, End, LocationID, ServiceID or ProviderID is a reschedule.
type Change struct {
	Start, End                                  *time.Time
	LocationID, ServiceID, ProviderID, ClientID *int64
	StatusID                                    *int64
	Price                                       *int64 // cents
	Notes                                       Optional[string]
	TimeResourceID                              Optional[int64]
	// StartWall and EndWall say that Start or End is a wall-clock reading of the booking's
	// (new) location, as NewBooking's do.
	StartWall, EndWall bool
	// Override records that the owner confirmed moving it outside the staff rules (override.go).
	Override *Override
}

// errStale makes Update start over when the booking changed between its read and its write.
var errStale = errors.New("booking changed since it was read")

// Update applies ch to booking id and records booking.updated in the same transaction. A change
// that changes nothing returns the booking as it is, without an event or a policy check.
//
// For the customer flows (see customerFlow) the merchant's policy applies first: can_edit, the
// pre-start lock window (edit_lock_min) and, for a reschedule, max_changes. A reschedule
// re-checks availability exactly as Create does (the booking itself does not count as busy),
// counts as one change and, when the service changes without an explicit price, re-prices the
// booking from the new service. When only start_time moves, the booking keeps its length; when
// the service changes without an end_time, the new service's duration applies.
//
// Errors are Create's, plus *RestrictedError for a policy refusal, *NotFoundError{"booking"}
// and ErrConcurrentChange.
func Update(ctx context.Context, d *db.DB, now time.Time, id int64, ch Change, source string) (View, error) {
	if err := validSource(source); err != nil {
		return View{}, err
	}
	for range 3 {
		cur, err := getView(ctx, d.Reader(ctx), id)
		if err != nil {
			return View{}, err
		}
		p, err := planUpdate(ctx, d, now, cur, ch, source)
		if err != nil {
			return View{}, err
		}
		if p == nil {
			return cur, nil
		}
		err = d.InTx(ctx, func(q *db.Queries) error {
			row, err := q.GetBookingRow(ctx, id)
			if err != nil {
				return notFoundAs(err, "booking")
			}
			if row != cur.Booking {
				return errStale
			}
			n := p.next
			if err := p.recheck(ctx, q, now, &n, id); err != nil {
				return err
			}
			if err := q.UpdateBookingRow(ctx, n); err != nil {
				return writeError(err)
			}
			if err := recordOverride(ctx, q, id, ch.Override, now); err != nil {
				return err
			}
			if err := enqueue(ctx, q, now, webhook.BookingUpdated, row, applied(row, n), p.status, p.zone); err != nil {
				return err
			}
			if left := row.SessionID; left.Valid && left != n.SessionID {
				return fillSeats(ctx, q, now, left.Int64) // the seat it left goes to the waitlist
			}
			if p.reschedule && (row.StartAt != n.StartAt || row.ProviderID != n.ProviderID) {
				return offerFreedTime(ctx, q, now, row, p.fromZone) // the time it left, to the appointment waitlist
			}
			return nil
		})
		if errors.Is(err, errStale) {
			continue
		}
		if err != nil {
			return View{}, err
		}
		return getView(ctx, d.Reader(ctx), id)
	}
	return View{}, ErrConcurrentChange
}

// plan is a checked update: the row to write and what its event needs.
type plan struct {
	next       db.UpdateBookingRowParams
	reschedule bool
	placed     placed // where a reschedule goes
	status     db.BookingStatus
	zone       *time.Location
	fromZone   *time.Location // the zone of the location it leaves
}

// recheck is the part of an update's checks that must run inside the write transaction: a
// reschedule into a class takes a seat in its session, any other reschedule checks overlap.
func (p *plan) recheck(ctx context.Context, q *db.Queries, now time.Time, n *db.UpdateBookingRowParams, id int64) error {
	if !p.reschedule {
		return nil
	}
	if !p.placed.loaded.Schedule.Service.IsClass() {
		n.SessionID = sql.NullInt64{}
		if err := checkFree(ctx, q, n.ProviderID, db.Time(n.BlockStartAt), db.Time(n.BlockEndAt), id); err != nil {
			return err
		}
		return checkResources(ctx, q, n.LocationID, n.ServiceID, db.Time(n.BlockStartAt), db.Time(n.BlockEndAt), id)
	}
	pl := p.placed
	session, err := takeSeat(ctx, q, now, &pl, n.ClientID, id)
	if err != nil {
		return err
	}
	n.SessionID = sql.NullInt64{Int64: session, Valid: true}
	n.StartAt, n.EndAt = db.Millis(pl.start), db.Millis(pl.end)
	n.BlockStartAt, n.BlockEndAt = db.Millis(pl.blockStart), db.Millis(pl.blockEnd)
	return nil
}

// planUpdate validates ch against cur and returns the update to write, or nil when nothing
// changes.
func planUpdate(ctx context.Context, d *db.DB, now time.Time, view View, ch Change, source string) (*plan, error) {
	q := d.Reader(ctx)
	cur := view.Booking
	if cur.StatusID == StatusCancelled {
		return nil, invalid("booking", "a cancelled booking cannot be changed")
	}
	next := rowParams(cur)
	if ch.StatusID != nil {
		if err := validStatus(*ch.StatusID); err != nil {
			return nil, err
		}
		next.StatusID = *ch.StatusID
	}
	if ch.ClientID != nil {
		next.ClientID = *ch.ClientID
	}
	if ch.Price != nil && *ch.Price != cur.PriceCents {
		next.PriceCents, next.DiscountBp = *ch.Price, sql.NullInt64{}
	}
	if ch.Notes.Set {
		if err := validExtras(ch.Notes.Value, nil); err != nil {
			return nil, err
		}
		next.Notes = nullString(ch.Notes.Value)
	}
	if ch.TimeResourceID.Set {
		if err := validExtras(nil, ch.TimeResourceID.Value); err != nil {
			return nil, err
		}
		next.TimeResourceID = nullInt(ch.TimeResourceID.Value)
	}

	pl := placement{
		LocationID: pick(ch.LocationID, cur.LocationID), ServiceID: pick(ch.ServiceID, cur.ServiceID),
		ProviderID: pick(ch.ProviderID, cur.ProviderID), Start: db.Time(cur.StartAt),
	}
	if ch.Start != nil {
		pl.Start, pl.StartWall = *ch.Start, ch.StartWall
	}
	if ch.End != nil {
		pl.End, pl.EndWall = *ch.End, ch.EndWall
	}
	if pl.StartWall || pl.EndWall {
		// Read wall-clock times in the zone of the location the booking will be at before
		// deciding whether anything moved.
		zone, err := placementZone(ctx, q, view, pl.LocationID)
		if err != nil {
			return nil, err
		}
		if err := pl.resolveWall(zone); err != nil {
			return nil, err
		}
	}
	serviceChanged := pl.ServiceID != cur.ServiceID
	if ch.End == nil && !serviceChanged {
		pl.End = pl.Start.Add(time.Duration(cur.EndAt-cur.StartAt) * time.Millisecond)
	}
	reschedule := serviceChanged || pl.LocationID != cur.LocationID || pl.ProviderID != cur.ProviderID ||
		!pl.Start.Equal(db.Time(cur.StartAt)) || !pl.End.Equal(db.Time(cur.EndAt))
	if !reschedule && next == rowParams(cur) {
		return nil, nil
	}
	next.UpdatedAt = db.Millis(now)

	if customerFlow(source) {
		if err := editPolicy(ctx, q, now, cur, reschedule); err != nil {
			return nil, err
		}
	}
	if next.ClientID != cur.ClientID {
		if cur.PackID.Valid {
			return nil, invalid("client_id", "a booking paid with a pack keeps its client; cancel it and book for the other client")
		}
		if err := checkClient(ctx, q, next.ClientID); err != nil {
			return nil, err
		}
	}
	if cur.PackID.Valid && serviceChanged {
		return nil, invalid("service_id", "a booking paid with a pack keeps its service; cancel it and book the other service")
	}
	status, err := q.BookingStatusByID(ctx, next.StatusID)
	if err != nil {
		return nil, fmt.Errorf("booking status %d: %w", next.StatusID, err)
	}
	if !reschedule {
		zone, err := LoadZone(view.LocationTimezone)
		if err != nil {
			return nil, err
		}
		return &plan{next: next, status: status, zone: zone}, nil
	}
	placed, err := place(ctx, d, now, pl, source, cur.ID, false)
	if err != nil {
		return nil, err
	}
	next.LocationID, next.ServiceID, next.ProviderID = pl.LocationID, pl.ServiceID, pl.ProviderID
	next.StartAt, next.EndAt = db.Millis(placed.start), db.Millis(placed.end)
	next.BlockStartAt, next.BlockEndAt = db.Millis(placed.blockStart), db.Millis(placed.blockEnd)
	if serviceChanged {
		price, list, discount := prices(*placed.loaded.Service, ch.Price)
		next.PriceCents, next.ListPriceCents, next.DiscountBp = price, list, discount
	}
	next.ChangeCount = cur.ChangeCount + 1
	from, err := LoadZone(view.LocationTimezone)
	if err != nil {
		return nil, err
	}
	return &plan{next: next, reschedule: true, placed: placed, status: status, zone: placed.loaded.Location.Zone, fromZone: from}, nil
}

// placementZone is the zone of location id, which is the booking's current one or another.
func placementZone(ctx context.Context, q *db.Queries, view View, id int64) (*time.Location, error) {
	if id == view.Booking.LocationID {
		return LoadZone(view.LocationTimezone)
	}
	l, err := q.ScheduleLocation(ctx, id)
	if err != nil {
		return nil, notFoundAs(err, "location")
	}
	return LoadZone(l.Timezone)
}

// applied is booking b after update n: what the event reports.
func applied(b db.Booking, n db.UpdateBookingRowParams) db.Booking {
	b.LocationID, b.ServiceID, b.ProviderID, b.ClientID = n.LocationID, n.ServiceID, n.ProviderID, n.ClientID
	b.StatusID, b.StartAt, b.EndAt = n.StatusID, n.StartAt, n.EndAt
	b.BlockStartAt, b.BlockEndAt = n.BlockStartAt, n.BlockEndAt
	b.PriceCents, b.ListPriceCents, b.DiscountBp = n.PriceCents, n.ListPriceCents, n.DiscountBp
	b.Notes, b.TimeResourceID, b.ChangeCount, b.UpdatedAt = n.Notes, n.TimeResourceID, n.ChangeCount, n.UpdatedAt
	b.SessionID, b.PackID = n.SessionID, n.PackID
	return b
}

// rowParams is the update that writes b back unchanged.
func rowParams(b db.Booking) db.UpdateBookingRowParams {
	return db.UpdateBookingRowParams{
		LocationID: b.LocationID, ServiceID: b.ServiceID, ProviderID: b.ProviderID, ClientID: b.ClientID,
		StatusID: b.StatusID, StartAt: b.StartAt, EndAt: b.EndAt,
		BlockStartAt: b.BlockStartAt, BlockEndAt: b.BlockEndAt,
		PriceCents: b.PriceCents, ListPriceCents: b.ListPriceCents, DiscountBp: b.DiscountBp,
		Notes: b.Notes, TimeResourceID: b.TimeResourceID, ChangeCount: b.ChangeCount,
		SessionID: b.SessionID, PackID: b.PackID, UpdatedAt: b.UpdatedAt, ID: b.ID,
	}
}

// editPolicy is the merchant's customer policy for a PATCH, in the reference's order.
func editPolicy(ctx context.Context, q *db.Queries, now time.Time, cur db.Booking, reschedule bool) error {
	pol, err := q.SchedulePolicy(ctx)
	if err != nil {
		return err
	}
	switch {
	case !pol.CanEdit:
		return &RestrictedError{Rule: RuleCanEdit}
	case locked(pol, cur, now):
		return &RestrictedError{Rule: RuleBeforeEditBooking}
	case reschedule && pol.MaxChanges > 0 && cur.ChangeCount >= pol.MaxChanges:
		return &RestrictedError{Rule: RuleMaxChanges}
	}
	return nil
}

// locked reports whether now is inside the pre-start lock window of edit_lock_min minutes.
// Without a window (0) nothing is locked.
func locked(pol db.SchedulePolicyRow, b db.Booking, now time.Time) bool {
	lock := time.Duration(pol.EditLockMin) * time.Minute
	return lock > 0 && !now.Before(db.Time(b.StartAt).Add(-lock))
}

func pick(v *int64, otherwise int64) int64 {
	if v != nil {
		return *v
	}
	return otherwise
}

// Cancel cancels booking id and records booking.updated in the same transaction. Cancelling a
// cancelled booking succeeds without doing anything (a retried cancel must not fail). For the
// customer flow the merchant's policy applies: can_cancel, the pre-start lock window and
// max_changes. The booking is kept, with status 5, and its time is free again: in a class
// session its seat goes to the first waiting client in the same transaction (waitlist.go), and
// a session paid with a pack goes back to the pack when the cancel is within the cancel policy
// (see CancelOptions).
func Cancel(ctx context.Context, d *db.DB, now time.Time, id int64, source string) error {
	return CancelWith(ctx, d, now, id, CancelOptions{Source: source})
}

// CancelOptions say who cancels and, for a booking paid with a pack, whether its session goes
// back to the pack.
type CancelOptions struct {
	Source string
	// ReturnSession nil: as the cancel policy says — the session goes back when the cancel
	// comes before the pre-start lock window (edit_lock_min; with none, before the start), and
	// is used up by a later one. The owner may decide otherwise either way.
	ReturnSession *bool
	// unpaid: the business's hold given back because its payment request expired or was
	// cancelled (Release), recorded as such for the reports.
	unpaid bool
}

// Who cancelled a booking (bookings.cancelled_by; docs/reports.md).
const (
	CancelledByClient   = "client"   // a customer's surface: the booking site, the API, MCP
	CancelledByBusiness = "business" // the team in the admin
	CancelledUnpaid     = "unpaid"   // a hold released when its payment request ended unpaid
)

// cancellation is what a cancel records beside the status: who cancelled, whether it came
// inside the policy's lock window, and whether a pack's session goes back.
type cancellation struct {
	by             string
	late, returned bool
}

// CancelWith is Cancel with the owner's options.
func CancelWith(ctx context.Context, d *db.DB, now time.Time, id int64, o CancelOptions) error {
	source := o.Source
	if err := validSource(source); err != nil {
		return err
	}
	r := d.Reader(ctx)
	cur, err := getView(ctx, r, id)
	if err != nil {
		return err
	}
	if cur.Booking.StatusID == StatusCancelled {
		return nil
	}
	pol, err := r.SchedulePolicy(ctx)
	if err != nil {
		return err
	}
	if customerFlow(source) {
		if err := cancelPolicy(pol, cur.Booking, now); err != nil {
			return err
		}
	}
	status, err := r.BookingStatusByID(ctx, StatusCancelled)
	if err != nil {
		return fmt.Errorf("booking status %d: %w", StatusCancelled, err)
	}
	zone, err := LoadZone(cur.LocationTimezone)
	if err != nil {
		return err
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		row, err := q.GetBookingRow(ctx, id)
		if err != nil {
			return notFoundAs(err, "booking")
		}
		if row.StatusID == StatusCancelled {
			return nil // cancelled meanwhile: one cancel, one event
		}
		c := cancellation{by: CancelledByBusiness, late: !inPolicy(pol, row, now), returned: inPolicy(pol, row, now)}
		switch {
		case o.unpaid:
			c.by = CancelledUnpaid
		case customerFlow(source):
			c.by = CancelledByClient
		}
		if o.ReturnSession != nil {
			c.returned = *o.ReturnSession
		}
		return cancelRow(ctx, q, now, row, status, zone, c)
	})
}

// Release cancels booking id as the business giving back its own hold on the time (a payment
// request that expired or was cancelled releases the bookings it reserved): no cancel policy
// applies and a pack session goes back. A booking already cancelled is left alone without an
// event. It owns its transaction or joins the caller's (db.WithTx).
func Release(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	returned := true
	return CancelWith(ctx, d, now, id, CancelOptions{Source: SourceAdmin, ReturnSession: &returned, unpaid: true})
}

// Confirm turns reserved booking id into a confirmed one and records booking.updated (a payment
// request paid). A booking that is no longer reserved (the owner changed or cancelled it
// meanwhile) is left as it is. It owns its transaction or joins the caller's (db.WithTx).
func Confirm(ctx context.Context, d *db.DB, now time.Time, id int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		view, err := getView(ctx, q, id)
		if err != nil {
			return err
		}
		row := view.Booking
		if row.StatusID != StatusReserved {
			return nil
		}
		status, err := q.BookingStatusByID(ctx, StatusConfirmed)
		if err != nil {
			return fmt.Errorf("booking status %d: %w", StatusConfirmed, err)
		}
		zone, err := LoadZone(view.LocationTimezone)
		if err != nil {
			return err
		}
		next := rowParams(row)
		next.StatusID, next.UpdatedAt = StatusConfirmed, db.Millis(now)
		if err := q.UpdateBookingRow(ctx, next); err != nil {
			return writeError(err)
		}
		before := row
		row.StatusID, row.UpdatedAt = StatusConfirmed, db.Millis(now)
		return enqueue(ctx, q, now, webhook.BookingUpdated, before, row, status, zone)
	})
}

// cancelPolicy is the merchant's customer policy for a cancel, in the reference's order.
func cancelPolicy(pol db.SchedulePolicyRow, cur db.Booking, now time.Time) error {
	switch {
	case !pol.CanCancel:
		return &RestrictedError{Rule: RuleCanCancel}
	case locked(pol, cur, now):
		return &RestrictedError{Rule: RuleBeforeEditBooking}
	case pol.MaxChanges > 0 && cur.ChangeCount >= pol.MaxChanges:
		return &RestrictedError{Rule: RuleMaxChanges}
	}
	return nil
}

// CancelReturnsSession reports whether cancelling booking b at now gives its pack session back
// by default (CancelOptions): the cancel comes within the cancel policy.
func CancelReturnsSession(ctx context.Context, q *db.Queries, b db.Booking, now time.Time) (bool, error) {
	pol, err := q.SchedulePolicy(ctx)
	if err != nil {
		return false, err
	}
	return inPolicy(pol, b, now), nil
}

// inPolicy reports whether a cancel at now comes before the pre-start lock window.
func inPolicy(pol db.SchedulePolicyRow, b db.Booking, now time.Time) bool {
	return now.Before(db.Time(b.StartAt).Add(-time.Duration(pol.EditLockMin) * time.Minute))
}

// cancelRow cancels live booking row inside q with its event, records who cancelled and
// whether it was late, gives its pack session back when c.returned is set, and hands its class
// seat to the waitlist.
func cancelRow(ctx context.Context, q *db.Queries, now time.Time, row db.Booking, status db.BookingStatus, zone *time.Location, c cancellation) error {
	by := sql.NullString{String: c.by, Valid: true}
	err := q.CancelBookingRow(ctx, db.CancelBookingRowParams{PackReturned: c.returned, UpdatedAt: db.Millis(now),
		CancelledBy: by, CancelledLate: c.late, ID: row.ID})
	if err != nil {
		return writeError(err)
	}
	before := row
	row.StatusID, row.UpdatedAt = StatusCancelled, db.Millis(now)
	row.CancelledAt, row.CancelledBy, row.CancelledLate = sql.NullInt64{Int64: db.Millis(now), Valid: true}, by, c.late
	if err := enqueue(ctx, q, now, webhook.BookingUpdated, before, row, status, zone); err != nil {
		return err
	}
	if row.SessionID.Valid {
		return fillSeats(ctx, q, now, row.SessionID.Int64)
	}
	return offerFreedTime(ctx, q, now, before, zone) // the time it freed, to the appointment waitlist
}
