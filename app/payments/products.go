package payments

import (
	"context"
	"fmt"
	"slices"

	"frontdesk/app/money"
	"frontdesk/db"
)

// Product lines (docs/api.md, "Products"): a cart item of item_type "product" names a product
// of the catalogue by item_id. Its name (when item_name is absent) and its unit price come from
// the product; a unit_price that is sent must be that price, so a stale price is caught rather
// than charged. The product must be active and, when its stock is counted, have the quantity
// in stock. The line records the product (cart_items.product_id), and a paid sale takes the
// quantity off the counted stock. The rule is checked when the cart is written (on the read
// pool, then again inside the write transaction), when a payment request is raised, and by the
// cart_items_product_insert trigger.

// loadProducts reads the products the product lines name, by id.
func loadProducts(ctx context.Context, q *db.Queries, items []ItemInput) (map[int64]db.Product, error) {
	var ids []int64
	for _, it := range items {
		if it.ItemType == itemProduct && it.ItemID > 0 {
			ids = append(ids, it.ItemID)
		}
	}
	out := map[int64]db.Product{}
	if len(ids) == 0 {
		return out, nil
	}
	slices.Sort(ids)
	rows, err := q.ProductsByIDs(ctx, slices.Compact(ids))
	if err != nil {
		return nil, fmt.Errorf("cart products: %w", err)
	}
	for _, p := range rows {
		out[p.ID] = p
	}
	return out, nil
}

// productLine checks a product line against its product and returns its unit price. sent is
// the unit price the client sent (0 when absent: it.UnitPrice == "").
func productLine(path string, it ItemInput, products map[int64]db.Product, sent money.Cents) (money.Cents, error) {
	p, ok := products[it.ItemID]
	switch {
	case !ok:
		return 0, invalid(path+".item_id", "no such product")
	case it.UnitPrice != "" && int64(sent) != p.PriceCents:
		return 0, invalid(path+".unit_price", "must be the product's price, %s (or leave unit_price out)", money.Cents(p.PriceCents))
	}
	return money.Cents(p.PriceCents), checkProductStock(path, p, it.Quantity)
}

// checkProductStock: the product is for sale and has quantity in a counted stock.
func checkProductStock(path string, p db.Product, quantity int64) error {
	switch {
	case !p.Active:
		return invalid(path+".item_id", "the product is not for sale (inactive)")
	case p.Stock.Valid && p.Stock.Int64 < quantity:
		return invalid(path+".quantity", "only %d in stock", p.Stock.Int64)
	}
	return nil
}

// recheckProducts checks product lines against the products as they are now: inside a cart's
// write transaction (lines about to be stored) and when a payment request is raised (lines
// stored earlier: a product may have been switched off or sold out since). items carry the
// lines' type, item id and quantity.
func recheckProducts(ctx context.Context, q *db.Queries, items []ItemInput) error {
	products, err := loadProducts(ctx, q, items)
	if err != nil {
		return err
	}
	for i, it := range items {
		if it.ItemType != itemProduct {
			continue
		}
		path := fmt.Sprintf("items[%d]", i)
		p, ok := products[it.ItemID]
		if !ok {
			return invalid(path+".item_id", "no such product")
		}
		if err := checkProductStock(path, p, it.Quantity); err != nil {
			return err
		}
	}
	return nil
}

// lineUses are the type, item id and quantity of lines about to be stored, for recheckProducts.
func lineUses(lines []line) []ItemInput {
	out := make([]ItemInput, len(lines))
	for i, l := range lines {
		out[i] = ItemInput{ItemType: l.row.ItemType, ItemID: l.row.ItemID, Quantity: l.row.Quantity}
	}
	return out
}

// storedUses are the same of a stored cart's lines.
func storedUses(items []ItemView) []ItemInput {
	out := make([]ItemInput, len(items))
	for i, it := range items {
		out[i] = ItemInput{ItemType: it.Row.ItemType, ItemID: it.Row.ItemID, Quantity: it.Row.Quantity}
	}
	return out
}

// productTrigger translates the database's own refusal of a product line (the trigger of
// migration 00222), which only a change racing this write can cause.
func productTrigger(err error) error {
	if db.IsConstraint(err, "cart_item_product_invalid") {
		return invalid("items", "a product changed while the cart was written (inactive or out of stock); read it and try again")
	}
	return err
}

// takeStock takes what a paid cart sold off the counted stock of its products.
func takeStock(ctx context.Context, q *db.Queries, items []db.CartItem, now int64) error {
	for _, it := range items {
		if !it.ProductID.Valid {
			continue
		}
		err := q.TakeProductStock(ctx, db.TakeProductStockParams{Quantity: it.Quantity, UpdatedAt: now, ID: it.ProductID.Int64})
		if err != nil {
			return fmt.Errorf("take stock of product %d: %w", it.ProductID.Int64, err)
		}
	}
	return nil
}
