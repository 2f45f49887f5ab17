package payments

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// RequestView is a payment request with what the admin UI and the checkout page show of it.
type RequestView struct {
	Request      db.PaymentRequest
	Cart         CartView
	Bookings     []db.PaymentRequestBookingsRow // the bookings it reserved
	BusinessName string
	Currency     string
	ClientName   string // "" without a client
	LocationName string // "" without a location
	Zone         *time.Location
	SaleID       int64 // the cart's paid sale, 0 for none
}

// Line is one item of a payment request as its pages list it — the owner's (app/admin) and the
// paying customer's (app/customer): its name, quantity and total in the business's money, and
// when each service booked with it takes place, in the location's zone.
type Line struct {
	Name     string
	Quantity int64
	Total    string
	// Bookings says when the booked services take place ("Tue 24 Nov, 10:00").
	Bookings []string
}

// Lines are v's items as its pages list them, written by p.
func (v RequestView) Lines(p *i18n.Printer) []Line {
	out := make([]Line, 0, len(v.Cart.Items))
	for _, it := range v.Cart.Items {
		l := Line{
			Name: it.Row.ItemName.String, Quantity: it.Row.Quantity,
			Total: p.Money(it.Amounts.GrossCents - it.Amounts.DiscountCents),
		}
		// A member's discount is its own line, after the item at its full price.
		var member *Line
		if it.Row.MemberPlanID.Valid && it.Amounts.DiscountCents > 0 {
			l.Total = p.Money(it.Amounts.GrossCents)
			member = &Line{Name: p.T("memberships.member_discount_line", "percent", it.Row.UnitDiscountCents.Int64/100),
				Quantity: 1, Total: p.Money(-it.Amounts.DiscountCents)}
		}
		if l.Name == "" {
			l.Name = it.Row.ItemType + " " + strconv.FormatInt(it.Row.ItemID, 10)
		}
		for _, in := range it.Instances {
			if in.Data == nil {
				continue
			}
			if t, err := time.Parse(time.RFC3339, in.Data.StartTime); err == nil {
				local := t.In(v.Zone)
				l.Bookings = append(l.Bookings, p.DateLong(local)+", "+p.Time(local)+" ("+p.Offset(local)+")")
			}
		}
		out = append(out, l)
		if member != nil {
			out = append(out, *member)
		}
	}
	return out
}

// AtDesk makes v what settling it at the desk at now charges (deskMemberDiscount), for the
// desk's page before it is settled: a pending request's lines with the member's discount they
// would get, and its amount less it. Nothing is written.
func (v *RequestView) AtDesk(ctx context.Context, q *db.Queries, now time.Time) error {
	if v.Status(now) != StatusPending {
		return nil
	}
	rows := make([]db.CartItem, len(v.Cart.Items))
	for i, it := range v.Cart.Items {
		rows[i] = it.Row
	}
	gained, err := deskDiscounts(ctx, q, v.Cart.Cart.ClientID, rows)
	if err != nil {
		return err
	}
	for _, g := range gained {
		for i, it := range v.Cart.Items {
			if it.Row.ID != g.ID {
				continue
			}
			a := amounts(g.UnitPriceCents, g.Quantity, g.UnitDiscountCents, g.UnitDiscountType)
			v.Cart.Items[i].Row, v.Cart.Items[i].Amounts = g, a
			v.Cart.DiscountCents += a.DiscountCents
			v.Request.AmountCents = max(v.Request.AmountCents-a.DiscountCents, 0)
		}
	}
	return nil
}

// Status is the request's status as of now: a pending request past its expiry is expired,
// whether or not the worker has recorded it yet.
func (v RequestView) Status(now time.Time) string {
	if v.Request.Status == StatusPending && due(v.Request, now) {
		return StatusExpired
	}
	return v.Request.Status
}

// LoadRequest reads request id. Errors: ErrPaymentRequestNotFound.
func LoadRequest(ctx context.Context, q *db.Queries, id int64) (RequestView, error) {
	pr, err := q.GetPaymentRequest(ctx, id)
	if db.IsNotFound(err) {
		return RequestView{}, ErrPaymentRequestNotFound
	} else if err != nil {
		return RequestView{}, err
	}
	return loadRequestView(ctx, q, pr)
}

// LoadCheckout reads the request behind checkout URL /pay/{uuid}. Errors:
// ErrPaymentRequestNotFound (also for anything that is not a UUID).
func LoadCheckout(ctx context.Context, q *db.Queries, uuid string) (RequestView, error) {
	if !isUUID(uuid) {
		return RequestView{}, ErrPaymentRequestNotFound
	}
	pr, err := q.GetPaymentRequestByUUID(ctx, strings.ToLower(uuid))
	if db.IsNotFound(err) {
		return RequestView{}, ErrPaymentRequestNotFound
	} else if err != nil {
		return RequestView{}, err
	}
	return loadRequestView(ctx, q, pr)
}

func loadRequestView(ctx context.Context, q *db.Queries, pr db.PaymentRequest) (RequestView, error) {
	v := RequestView{Request: pr, Zone: time.UTC}
	var err error
	if v.Cart, err = LoadCart(ctx, q, pr.CartID); err != nil {
		return v, err
	}
	if v.Bookings, err = q.PaymentRequestBookings(ctx, nullInt(pr.ID)); err != nil {
		return v, err
	}
	if settings, err := q.CartPaymentSettings(ctx); err == nil {
		v.BusinessName, v.Currency = settings.Name, settings.Currency
	} else if !db.IsNotFound(err) {
		return v, err
	}
	c := v.Cart.Cart
	if c.ClientID.Valid {
		n, err := q.CartClientName(ctx, c.ClientID.Int64)
		if err != nil {
			return v, fmt.Errorf("client %d: %w", c.ClientID.Int64, err)
		}
		v.ClientName = strings.TrimSpace(n.FirstName + " " + n.LastName.String)
	}
	if c.LocationID.Valid {
		l, err := q.CartLocation(ctx, c.LocationID.Int64)
		if err != nil {
			return v, fmt.Errorf("location %d: %w", c.LocationID.Int64, err)
		}
		v.LocationName = l.Name
		if v.Zone, err = booking.LoadZone(l.Timezone); err != nil {
			return v, err
		}
	}
	sales, err := q.PaidSaleOfCart(ctx, c.ID)
	if err != nil {
		return v, err
	}
	if len(sales) > 0 {
		v.SaleID = sales[0]
	}
	return v, nil
}

// isUUID reports whether s has the 8-4-4-4-12 hexadecimal shape of a UUID.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'):
			return false
		}
	}
	return true
}
