package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/resource"
	"frontdesk/db"
)

// CartView is a cart with everything its resource and the pages show.
type CartView struct {
	Cart          db.Cart
	Items         []ItemView
	SubtotalCents int64
	DiscountCents int64
	// OnlinePayment: every item may be paid online (service and pack items: the service's
	// online payment mode is not NOT_AVAILABLE; other items have no catalogue entry to forbid
	// it).
	OnlinePayment bool
	// Latest is the cart's most recent payment request, if any.
	Latest *db.PaymentRequest
}

// ItemView is one line of a cart with its money and the bookings it sells.
type ItemView struct {
	Row       db.CartItem
	Amounts   resource.CartItemAmounts
	Instances []resource.CartInstance
}

// TotalCents is what the cart costs.
func (v CartView) TotalCents() int64 { return v.SubtotalCents - v.DiscountCents }

// Resource is the cart as /v3 shows it.
func (v CartView) Resource() resource.Cart {
	items := make([]resource.CartItem, len(v.Items))
	for i, it := range v.Items {
		var ref *int64
		if len(it.Instances) > 0 {
			ref = it.Instances[0].ReferenceID
		}
		items[i] = resource.NewCartItem(it.Row, it.Amounts, ref, it.Instances)
	}
	var pr *resource.PaymentRequest
	if v.Latest != nil {
		r := resource.NewPaymentRequest(*v.Latest)
		pr = &r
	}
	return resource.NewCart(v.Cart, items, v.SubtotalCents, v.DiscountCents, v.OnlinePayment, pr)
}

// LoadCart reads cart id. An on-demand booking instance shows the booking its pending or paid
// payment request reserved as its reference_id. Errors: ErrCartNotFound.
func LoadCart(ctx context.Context, q *db.Queries, id int64) (CartView, error) {
	c, err := q.GetCart(ctx, id)
	if db.IsNotFound(err) {
		return CartView{}, ErrCartNotFound
	} else if err != nil {
		return CartView{}, fmt.Errorf("cart %d: %w", id, err)
	}
	v := CartView{Cart: c, OnlinePayment: true}
	rows, err := q.CartItems(ctx, id)
	if err != nil {
		return v, err
	}
	latest, err := q.LatestPaymentRequestOfCart(ctx, id)
	if err != nil {
		return v, err
	}
	reserved := map[bookingKey]int64{}
	if len(latest) > 0 {
		v.Latest = &latest[0]
		if s := v.Latest.Status; s == StatusPending || s == StatusPaid {
			if reserved, err = reservedBookings(ctx, q, v.Latest.ID); err != nil {
				return v, err
			}
		}
	}
	var serviceIDs []int64
	for _, r := range rows {
		if inCatalog(r.ItemType) {
			serviceIDs = append(serviceIDs, r.ItemID)
		}
	}
	services, err := loadServices(ctx, q, serviceIDs)
	if err != nil {
		return v, err
	}
	for _, r := range rows {
		it := ItemView{Row: r, Amounts: amounts(r.UnitPriceCents, r.Quantity, r.UnitDiscountCents, r.UnitDiscountType)}
		if it.Instances, err = decodeInstances(r); err != nil {
			return v, err
		}
		for i, in := range it.Instances {
			if in.ReferenceID == nil && in.Data != nil {
				if bookingID, ok := reserved[keyOf(r.ItemID, *in.Data)]; ok {
					it.Instances[i].ReferenceID = &bookingID
				}
			}
		}
		if inCatalog(r.ItemType) {
			s, ok := services[r.ItemID]
			v.OnlinePayment = v.OnlinePayment && ok && s.OnlinePaymentMode != paymentNotAvailable
		}
		v.SubtotalCents += it.Amounts.GrossCents
		v.DiscountCents += it.Amounts.DiscountCents
		v.Items = append(v.Items, it)
	}
	return v, nil
}

// paymentNotAvailable is the service online payment mode that forbids paying online.
const paymentNotAvailable = "NOT_AVAILABLE"

// bookingKey identifies the booking an on-demand instance asks for: a provider is never booked
// twice at one time, so (service, provider, start) names at most one booking of a request.
type bookingKey struct {
	serviceID, providerID, startMs int64
}

func keyOf(serviceID int64, d resource.CartInstanceData) bookingKey {
	t, err := time.Parse(time.RFC3339, d.StartTime)
	if err != nil {
		return bookingKey{}
	}
	return bookingKey{serviceID, d.ProviderID, db.Millis(t)}
}

func reservedBookings(ctx context.Context, q *db.Queries, prID int64) (map[bookingKey]int64, error) {
	bs, err := q.PaymentRequestBookings(ctx, nullInt(prID))
	if err != nil {
		return nil, err
	}
	out := make(map[bookingKey]int64, len(bs))
	for _, b := range bs {
		out[bookingKey{b.ServiceID, b.ProviderID, b.StartAt}] = b.ID
	}
	return out, nil
}

// decodeInstances reads an item's stored instances.
func decodeInstances(it db.CartItem) ([]resource.CartInstance, error) {
	var out []resource.CartInstance
	if err := json.Unmarshal([]byte(it.InstancesJSON), &out); err != nil {
		return nil, fmt.Errorf("cart item %d instances: %w", it.ID, err)
	}
	return out, nil
}
