package resource

import (
	"strconv"

	"frontdesk/db"
)

// Cart is the Connect v3 Cart. payment_request (the cart's latest payment request, or null) is
// an addition: the checkout guide tells clients to read the cart and inspect its request before
// raising a new one, and this is where they find it.
type Cart struct {
	ID             int64           `json:"id"`
	UUID           string          `json:"uuid"`
	ClientID       *int64          `json:"client_id"`
	LocationID     *int64          `json:"location_id"`
	Total          string          `json:"total"`
	Subtotal       string          `json:"subtotal"`
	Discount       string          `json:"discount"`
	Note           *string         `json:"note"`
	OnlinePayment  bool            `json:"online_payment"`
	Items          []CartItem      `json:"items"`
	PaymentRequest *PaymentRequest `json:"payment_request"`
	CreatedAt      string          `json:"created_at"`
	UpdatedAt      string          `json:"updated_at"`
}

// CartItem is one line of a cart. id is a string, as in the reference. reference_id is the
// booking the line sells: the existing booking it named, or the one its payment request
// reserved; null otherwise.
type CartItem struct {
	ID               string         `json:"id"`
	ItemID           int64          `json:"item_id"`
	ItemType         string         `json:"item_type"`
	ItemName         *string        `json:"item_name"`
	Quantity         int64          `json:"quantity"`
	UnitPrice        string         `json:"unit_price"`
	TotalPrice       string         `json:"total_price"`
	UnitDiscount     *string        `json:"unit_discount"`
	UnitDiscountType *string        `json:"unit_discount_type"`
	TotalDiscount    *string        `json:"total_discount"`
	Discount         *string        `json:"discount"`
	ReferenceID      *int64         `json:"reference_id"`
	Instances        []CartInstance `json:"instances"`
}

// CartInstance is a per-unit instance of an item: for services, the booking it sells.
type CartInstance struct {
	InstanceType string            `json:"instance_type"`
	ReferenceID  *int64            `json:"reference_id"`
	Data         *CartInstanceData `json:"data"`
}

// CartInstanceData describes a booking to make when the payment request is raised.
type CartInstanceData struct {
	StartTime      string `json:"start_time"`
	ProviderID     int64  `json:"provider_id"`
	CreativeSource string `json:"creative_source"`
}

// CartItemAmounts are an item's computed money, in cents: the price of all units before the
// discount, and the discount on all units.
type CartItemAmounts struct {
	GrossCents, DiscountCents int64
}

// NewCartItem builds an item from its row, its computed amounts, the booking it sells (if
// known) and its instances as they stand now.
func NewCartItem(it db.CartItem, a CartItemAmounts, referenceID *int64, instances []CartInstance) CartItem {
	discount := Money(a.DiscountCents)
	if instances == nil {
		instances = []CartInstance{}
	}
	return CartItem{
		ID:               strconv.FormatInt(it.ID, 10),
		ItemID:           it.ItemID,
		ItemType:         it.ItemType,
		ItemName:         NullString(it.ItemName),
		Quantity:         it.Quantity,
		UnitPrice:        Money(it.UnitPriceCents),
		TotalPrice:       Money(a.GrossCents - a.DiscountCents),
		UnitDiscount:     NullMoney(it.UnitDiscountCents),
		UnitDiscountType: NullString(it.UnitDiscountType),
		TotalDiscount:    &discount,
		Discount:         &discount,
		ReferenceID:      referenceID,
		Instances:        instances,
	}
}

// NewCart builds a cart from its row, its items and computed totals (cents), whether every item
// may be paid online, and its latest payment request (nil for none).
func NewCart(c db.Cart, items []CartItem, subtotalCents, discountCents int64, onlinePayment bool, pr *PaymentRequest) Cart {
	if items == nil {
		items = []CartItem{}
	}
	return Cart{
		ID:             c.ID,
		UUID:           c.UUID,
		ClientID:       NullInt(c.ClientID),
		LocationID:     NullInt(c.LocationID),
		Total:          Money(subtotalCents - discountCents),
		Subtotal:       Money(subtotalCents),
		Discount:       Money(discountCents),
		Note:           NullString(c.Note),
		OnlinePayment:  onlinePayment,
		Items:          items,
		PaymentRequest: pr,
		CreatedAt:      Timestamp(c.CreatedAt),
		UpdatedAt:      Timestamp(c.UpdatedAt),
	}
}
