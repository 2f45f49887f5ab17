package api

import (
	"context"
	"net/http"
	"testing"

	"frontdesk/app/payments"
)

// A shop integration lists the retail products and sells them through a cart by id (issue 10,
// item 5): it sends item_id and quantity, and the cart takes name and price from the catalogue.
func TestCartProductLines(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	f.seedProducts(t)

	resp, raw := f.call("GET", "/v3/products?active=true&search=argan", nil)
	list := decodeAs[struct {
		Data []productResp `json:"data"`
	}](t, wantStatus(t, resp, raw, http.StatusOK))
	if len(list.Data) != 1 {
		t.Fatalf("products search: %s", raw)
	}
	argan := list.Data[0]

	cart := haircutCart()
	cart["items"] = append(cart["items"].([]any), map[string]any{"item_id": argan.ID, "item_type": "product", "quantity": 2})
	c := f.createCart(t, cart)
	if len(c.Items) != 2 || c.Items[1].ItemName != "Argan oil 50 ml" || c.Items[1].TotalPrice != "25000.0" || c.Total != "40000.0" {
		t.Fatalf("cart %+v: want the product line named and priced from the catalogue (2 × 12500) after the haircut (15000 as sent)", c)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM cart_items WHERE cart_id = ? AND item_type = 'product' AND product_id = ?`, c.ID, argan.ID); n != 1 {
		t.Errorf("the product line does not record its product (%d rows)", n)
	}

	// A price that is sent must be the product's; a name that is sent is kept.
	ok := f.createCart(t, map[string]any{"items": []any{map[string]any{"item_id": 1, "item_type": "product", "quantity": 1, "unit_price": "12500.00", "item_name": "Argan (gift)"}}})
	if ok.Items[0].ItemName != "Argan (gift)" || ok.Total != "12500.0" {
		t.Errorf("cart with the product's own price: %+v", ok)
	}
	before := bkCount(t, f, `SELECT count(*) FROM cart_items`)
	for _, c := range []struct {
		name   string
		item   map[string]any
		detail string
	}{
		{"stale price", map[string]any{"item_id": 1, "item_type": "product", "quantity": 1, "unit_price": "9990"}, "items[0].unit_price: must be the product's price, 12500.0 (or leave unit_price out)"},
		{"no such product", map[string]any{"item_id": 99, "item_type": "product", "quantity": 1}, "items[0].item_id: no such product"},
		{"inactive", map[string]any{"item_id": 3, "item_type": "product", "quantity": 1}, "items[0].item_id: the product is not for sale (inactive)"},
		{"over the stock", map[string]any{"item_id": 1, "item_type": "product", "quantity": 6}, "items[0].quantity: only 5 in stock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := f.call("POST", "/v3/carts", map[string]any{"items": []any{c.item}})
			wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", c.detail)
			validateResponse(t, "createCart", resp, raw)
		})
	}
	// A stock that is not counted does not limit.
	f.createCart(t, map[string]any{"items": []any{map[string]any{"item_id": 2, "item_type": "product", "quantity": 1000}}})
	if after := bkCount(t, f, `SELECT count(*) FROM cart_items`); after != before+1 {
		t.Errorf("cart items %d → %d: refusals wrote lines", before, after)
	}

	// Paying takes the quantity off the counted stock, and the sale's cart names the product.
	pr := f.createPaymentRequest(t, c.ID)
	saleID, err := payments.Settle(context.Background(), f.db, pr.ID, payments.MethodCash, f.now)
	if err != nil {
		t.Fatal(err)
	}
	resp, raw = f.call("GET", "/v3/products/1", nil)
	if p := decodeAs[productResp](t, wantStatus(t, resp, raw, http.StatusOK)); p.Stock == nil || *p.Stock != 3 {
		t.Errorf("after selling 2 of 5: %s, want stock 3", raw)
	}
	if n := bkCount(t, f, `SELECT count(*) FROM sales s JOIN cart_items i ON i.cart_id = s.cart_id WHERE s.id = ? AND i.product_id = 1 AND i.quantity = 2`, saleID); n != 1 {
		t.Errorf("the sale's items do not record the product")
	}

	// A product switched off after the cart was made stops the payment request.
	later := f.createCart(t, map[string]any{"items": []any{map[string]any{"item_id": 2, "item_type": "product", "quantity": 1}}})
	bkExec(t, f, `UPDATE products SET active = 0 WHERE id = 2`)
	resp, raw = f.call("POST", "/v3/carts/"+itoa(later.ID)+"/payment_requests", nil)
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "items[0].item_id: the product is not for sale (inactive)")
	validateResponse(t, "createPaymentRequest", resp, raw)
	if n := bkCount(t, f, `SELECT count(*) FROM payment_requests WHERE cart_id = ?`, later.ID); n != 0 {
		t.Errorf("a refused payment request was written")
	}

	// The database is the last word: a product line that names no product, another one or a
	// sold-out one is refused whoever writes it.
	for _, q := range []string{
		`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents) VALUES (1, 1, 'product', 1, 0)`,
		`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents, product_id) VALUES (1, 2, 'product', 1, 0, 1)`,
		`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents, product_id) VALUES (1, 1, 'product', 4, 0, 1)`,
		`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents, product_id) VALUES (1, 1, 'addon', 1, 0, 1)`,
	} {
		if _, err := f.db.Write.Exec(q); err == nil {
			t.Errorf("the database accepted %s", q)
		}
	}
}
