package payments

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"time"

	"frontdesk/db"
)

// CartTTL is how long a cart lives: after it, updates and payment requests are refused with
// cart_expired (the cart stays readable).
const CartTTL = 24 * time.Hour

// CartInput is a new cart.
type CartInput struct {
	ClientID, LocationID *int64
	Note                 *string
	Items                []ItemInput
}

// Optional is a field of a merge update: unset leaves the stored value alone, set with a nil
// Value clears it.
type Optional[T any] struct {
	Set   bool
	Value *T
}

// CartChange is a merge update of a cart; non-nil Items replace every item.
type CartChange struct {
	ClientID, LocationID Optional[int64]
	Note                 Optional[string]
	Items                *[]ItemInput
}

// CreateCart validates in and stores it. Errors: *RefusedError.
func CreateCart(ctx context.Context, d *db.DB, now time.Time, in CartInput) (CartView, error) {
	refs := cartRefs{ClientID: nullID(in.ClientID), LocationID: nullID(in.LocationID)}
	if err := checkText("note", in.Note, maxNoteLen); err != nil {
		return CartView{}, err
	}
	lines, err := validateItems(ctx, d.R, in.Items, refs)
	if err != nil {
		return CartView{}, err
	}
	ms := db.Millis(now)
	var id int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		var err error
		id, err = q.InsertCart(ctx, db.InsertCartParams{
			UUID: newUUID(), ClientID: refs.ClientID, LocationID: refs.LocationID, Note: nullText(in.Note),
			CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
		})
		if err != nil {
			return fmt.Errorf("insert cart: %w", err)
		}
		if err := recheckProducts(ctx, q, lineUses(lines)); err != nil {
			return err
		}
		return insertItems(ctx, q, id, lines)
	})
	if err != nil {
		return CartView{}, err
	}
	return LoadCart(ctx, d.R, id)
}

// UpdateCart applies ch to cart id. A pending payment request on the cart is closed first (its
// reserved bookings released), as the reference says. Errors: ErrCartNotFound, *RefusedError
// (cart_paid, cart_expired, validation).
func UpdateCart(ctx context.Context, d *db.DB, now time.Time, id int64, ch CartChange) (CartView, error) {
	cur, err := d.R.GetCart(ctx, id)
	if db.IsNotFound(err) {
		return CartView{}, ErrCartNotFound
	} else if err != nil {
		return CartView{}, err
	}
	if err := checkOpen(ctx, d.R, cur, now); err != nil {
		return CartView{}, err
	}
	next := cur
	if ch.ClientID.Set {
		next.ClientID = nullID(ch.ClientID.Value)
	}
	if ch.LocationID.Set {
		next.LocationID = nullID(ch.LocationID.Value)
	}
	if ch.Note.Set {
		if err := checkText("note", ch.Note.Value, maxNoteLen); err != nil {
			return CartView{}, err
		}
		next.Note = nullText(ch.Note.Value)
	}
	refs := cartRefs{ClientID: next.ClientID, LocationID: next.LocationID}
	var lines []line
	if ch.Items != nil {
		if lines, err = validateItems(ctx, d.R, *ch.Items, refs); err != nil {
			return CartView{}, err
		}
	} else if err := checkStoredItems(ctx, d.R, id, refs); err != nil {
		return CartView{}, err
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		c, err := q.GetCart(ctx, id)
		if err != nil {
			return err
		}
		if err := checkOpen(ctx, q, c, now); err != nil {
			return err
		}
		if err := closePendingOfCart(ctx, q, now, id); err != nil {
			return err
		}
		err = q.UpdateCart(ctx, db.UpdateCartParams{
			ClientID: next.ClientID, LocationID: next.LocationID, Note: next.Note, UpdatedAt: db.Millis(now), ID: id,
		})
		if err != nil || ch.Items == nil {
			return err
		}
		if err := q.DeleteCartItems(ctx, id); err != nil {
			return err
		}
		if err := recheckProducts(ctx, q, lineUses(lines)); err != nil {
			return err
		}
		return insertItems(ctx, q, id, lines)
	})
	if err != nil {
		return CartView{}, err
	}
	return LoadCart(ctx, d.R, id)
}

// checkStoredItems re-checks the cart-level rules of the stored items against changed cart
// fields: a cart that books must keep its client and location.
func checkStoredItems(ctx context.Context, q *db.Queries, cartID int64, refs cartRefs) error {
	items, err := q.CartItems(ctx, cartID)
	if err != nil {
		return err
	}
	onDemand, packs := false, false
	for _, it := range items {
		packs = packs || it.ItemType == itemPack
		instances, err := decodeInstances(it)
		if err != nil {
			return err
		}
		for _, in := range instances {
			onDemand = onDemand || in.Data != nil
		}
	}
	return checkCartRefs(ctx, q, onDemand, packs, refs)
}

// checkOpen refuses changes to a cart that is paid or past its 24 hours.
func checkOpen(ctx context.Context, q *db.Queries, c db.Cart, now time.Time) error {
	paid, err := q.CartHasPaidSale(ctx, c.ID)
	switch {
	case err != nil:
		return err
	case paid:
		return refused(CodeCartPaid, "", "the cart already has a paid sale; create a new cart")
	case !now.Before(db.Time(c.ExpiresAt)):
		return refused(CodeCartExpired, "", "the cart expired at %s (carts last 24 hours); create a new cart",
			db.Time(c.ExpiresAt).Format(time.RFC3339))
	}
	return nil
}

func insertItems(ctx context.Context, q *db.Queries, cartID int64, lines []line) error {
	for _, l := range lines {
		row := l.row
		row.CartID = cartID
		if err := q.InsertCartItem(ctx, row); err != nil {
			return productTrigger(fmt.Errorf("insert cart item: %w", err))
		}
	}
	return nil
}

func nullID(v *int64) sql.NullInt64 {
	if v == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *v, Valid: true}
}

// newUUID returns a random (version 4) UUID: 122 random bits, so a checkout URL cannot be
// guessed.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
