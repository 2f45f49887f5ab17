package payments

import (
	"database/sql"

	"frontdesk/app/money"
	"frontdesk/app/resource"
)

// unitDiscount is the discount on one unit in cents: the amount, or the percentage of the unit
// price rounded half up.
func unitDiscount(price int64, discount sql.NullInt64, kind sql.NullString) int64 {
	switch {
	case !discount.Valid:
		return 0
	case kind.Valid && kind.String == DiscountPercentage:
		return int64(money.Cents(price).Percent(discount.Int64))
	default:
		return discount.Int64
	}
}

// amounts is an item's money: all units before the discount, and the discount on all units.
// Validation bounds price (money.MaxCents) and quantity, so the products fit in an int64.
func amounts(price, quantity int64, discount sql.NullInt64, kind sql.NullString) resource.CartItemAmounts {
	return resource.CartItemAmounts{
		GrossCents:    price * quantity,
		DiscountCents: unitDiscount(price, discount, kind) * quantity,
	}
}

// LineNetCents is what a cart line sells for: all its units at their price less each unit's
// discount (the reports share a sale's payment among its lines by it).
func LineNetCents(price, quantity int64, discount sql.NullInt64, kind sql.NullString) int64 {
	a := amounts(price, quantity, discount, kind)
	return a.GrossCents - a.DiscountCents
}
