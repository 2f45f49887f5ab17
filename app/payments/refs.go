package payments

import (
	"context"
	"fmt"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// The references a cart makes outside itself: its client and location, and the existing
// bookings its items sell.

// checkRefs checks what the items need of the cart (a client and a location to book for) and
// the existing bookings they name.
func checkRefs(ctx context.Context, q *db.Queries, lines []line, refs cartRefs) error {
	onDemand, packs, referenced := false, false, map[int64]string{}
	for i, l := range lines {
		packs = packs || l.row.ItemType == itemPack
		for j, in := range l.instances {
			if in.Data != nil {
				onDemand = true
				continue
			}
			p := fmt.Sprintf("items[%d].instances[%d].reference_id", i, j)
			if _, dup := referenced[*in.ReferenceID]; dup {
				return invalid(p, "booking %d is already sold by another line", *in.ReferenceID)
			}
			referenced[*in.ReferenceID] = p
		}
	}
	if err := checkCartRefs(ctx, q, onDemand, packs, refs); err != nil {
		return err
	}
	return checkReferencedBookings(ctx, q, lines, referenced)
}

// checkCartRefs checks the cart's client and location: they must exist, a cart whose items
// book a service on demand needs both (the booking is made for that client at that location),
// and one that sells a pack needs the client it is credited to.
func checkCartRefs(ctx context.Context, q *db.Queries, onDemand, packs bool, refs cartRefs) error {
	if packs && !refs.ClientID.Valid {
		return invalid("client_id", "is required when an item sells a session pack")
	}
	if onDemand && !refs.ClientID.Valid {
		return invalid("client_id", "is required when an item books a service")
	}
	if onDemand && !refs.LocationID.Valid {
		return invalid("location_id", "is required when an item books a service")
	}
	if refs.ClientID.Valid {
		if _, err := q.BookingClient(ctx, refs.ClientID.Int64); db.IsNotFound(err) {
			return invalid("client_id", "no such client")
		} else if err != nil {
			return err
		}
	}
	if refs.LocationID.Valid {
		if _, err := q.CartLocation(ctx, refs.LocationID.Int64); db.IsNotFound(err) {
			return invalid("location_id", "no such location")
		} else if err != nil {
			return err
		}
	}
	return nil
}

// checkReferencedBookings: an existing booking a line sells must exist, be of that line's
// service, not be cancelled and not be sold already.
func checkReferencedBookings(ctx context.Context, q *db.Queries, lines []line, referenced map[int64]string) error {
	if len(referenced) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(referenced))
	for id := range referenced {
		ids = append(ids, id)
	}
	found, err := q.CartBookings(ctx, ids)
	if err != nil {
		return err
	}
	byID := map[int64]db.CartBookingsRow{}
	for _, b := range found {
		byID[b.ID] = b
	}
	for i, l := range lines {
		for _, in := range l.instances {
			if in.Data != nil {
				continue
			}
			p := referenced[*in.ReferenceID]
			b, ok := byID[*in.ReferenceID]
			switch {
			case !ok:
				return invalid(p, "no such booking")
			case b.ServiceID != lines[i].row.ItemID:
				return invalid(p, "booking %d is of service %d, not of this item's service %d", b.ID, b.ServiceID, lines[i].row.ItemID)
			case b.StatusID == booking.StatusCancelled:
				return invalid(p, "booking %d is cancelled", b.ID)
			case b.SaleID.Valid:
				return refused(CodeBookingAlreadySold, p, "booking %d is already paid by sale %d", b.ID, b.SaleID.Int64)
			}
		}
	}
	return nil
}
