package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"
)

// TestHostileCarts sends malformed, invalid and hostile carts. Each gets its documented 4xx
// (never a 500), matches both OpenAPI documents, and leaves nothing behind: no cart, no item,
// no booking, no event, and the existing cart unchanged.
func TestHostileCarts(t *testing.T) {
	f := newFixture(t)
	f.enablePayments(t)
	existing := f.createCart(t, haircutCart())
	_, before := f.call("GET", "/v3/carts/"+itoa(existing.ID), nil)

	// item is a one-item cart whose item has fields (`,"k":v…`) in place of the defaults: a key
	// sent twice is refused on its own, so overrides replace rather than repeat.
	item := func(fields string) string {
		it := map[string]json.RawMessage{"item_id": raw(`1`), "item_type": raw(`"service"`), "unit_price": raw(`"100"`), "quantity": raw(`1`)}
		if fields != "" {
			var over map[string]json.RawMessage
			if err := json.Unmarshal([]byte("{"+strings.TrimPrefix(fields, ",")+"}"), &over); err != nil {
				t.Fatalf("fields %s: %v", fields, err)
			}
			maps.Copy(it, over)
		}
		b, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		return `{"client_id":1,"location_id":1,"items":[` + string(b) + `]}`
	}
	instance := func(inst string) string { return item(`,"instances":[` + inst + `]`) }
	ondemand := `{"instance_type":"booking","reference_id":null,"data":{"start_time":"` + benTuesday10 + `","provider_id":2}}`
	many := strings.TrimSuffix(strings.Repeat(`{"item_id":1,"item_type":"service","unit_price":"1","quantity":1},`, 101), ",")
	cases := []hostileCart{
		{"malformed", `{"items":`, 400, "invalid_body", "malformed_json"},
		{"array", `[{"items":[]}]`, 400, "invalid_body", "expected_object"},
		{"empty body", ``, 400, "invalid_body", "expected_object"},
		{"items not an array", `{"items":"haircut"}`, 400, "invalid_body", "items: expected array"},
		{"item not an object", `{"items":[1]}`, 400, "invalid_body", "items: expected object"},
		{"item id string", `{"items":[{"item_id":"1","item_type":"service","unit_price":"1","quantity":1}]}`, 400, "invalid_body", "items.item_id: expected integer"},
		{"price bool", item(`,"unit_price":true`), 400, "invalid_body", "items.unit_price: expected string"},
		{"price object", item(`,"unit_price":{"$gt":0}`), 400, "invalid_body", "items.unit_price: expected string"},
		{"quantity overflow", item(`,"quantity":9223372036854775808`), 400, "invalid_body", "items.quantity: expected integer"},
		{"2 MiB", `{"note":"` + strings.Repeat("n", 2<<20) + `"}`, 413, "payload_too_large", "body_exceeds_1048576_bytes"},
		{"POST: no items", `{"client_id":1}`, 422, "unprocessable_entity", "items: at least one item is required"},
		{"POST: null items", `{"items":null}`, 422, "unprocessable_entity", "items: at least one item is required"},
		{"empty items", `{"items":[]}`, 422, "unprocessable_entity", "items: at least one item is required"},
		{"too many items", `{"items":[` + many + `]}`, 422, "unprocessable_entity", "items: at most 100 items"},
		{"no item type", `{"items":[{"item_id":1,"unit_price":"1","quantity":1}]}`, 422, "item_invalid_type", "items[0].item_type: is required"},
		{"unknown item type", item(`,"item_type":"voucher"`), 422, "item_invalid_type", "*"},
		{"no item id", `{"items":[{"item_type":"product","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "items[0].item_id: is required and must be a positive integer"},
		{"unknown service", item(`,"item_id":999`), 422, "unprocessable_entity", "items[0].item_id: no such service"},
		{"inactive service", item(`,"item_id":5`), 422, "unprocessable_entity", "items[0].item_id: the service is inactive"},
		{"zero quantity", item(`,"quantity":0`), 422, "unprocessable_entity", "items[0].quantity: must be between 1 and 1000"},
		{"huge quantity", item(`,"quantity":1001`), 422, "unprocessable_entity", "items[0].quantity: must be between 1 and 1000"},
		{"no price", `{"items":[{"item_id":1,"item_type":"service","quantity":1}]}`, 422, "unprocessable_entity", "items[0].unit_price: is required"},
		{"negative price", item(`,"unit_price":"-1"`), 422, "unprocessable_entity", "*"},
		{"three decimals", item(`,"unit_price":"1.234"`), 422, "unprocessable_entity", "*"},
		{"exponent", item(`,"unit_price":1e5`), 422, "unprocessable_entity", "*"},
		{"words", item(`,"unit_price":"ten"`), 422, "unprocessable_entity", "*"},
		{"SQL in price", item(`,"unit_price":"1; DROP TABLE carts"`), 422, "unprocessable_entity", "*"},
		{"price beyond bounds", item(`,"unit_price":"9999999999999.99"`), 422, "unprocessable_entity", "*"},
		{"line too large", item(`,"unit_price":"999999999999.99","quantity":1000`), 422, "unprocessable_entity", "items[0].unit_price: unit price times quantity is too large"},
		{"cart too large", `{"items":[{"item_id":7,"item_type":"addon","unit_price":"999999999999","quantity":1},{"item_id":7,"item_type":"addon","unit_price":"999999999999","quantity":1}]}`, 422, "unprocessable_entity", "items: the cart total is too large"},
		{"discount above price", item(`,"unit_discount":"101"`), 422, "unprocessable_entity", "items[0].unit_discount: must not exceed the unit price"},
		{"percentage above 100", item(`,"unit_discount":"100.01","unit_discount_type":"percentage"`), 422, "unprocessable_entity", "items[0].unit_discount: a percentage must be at most 100"},
		{"unknown discount type", item(`,"unit_discount":"1","unit_discount_type":"bogo"`), 422, "unprocessable_entity", "*"},
		{"discount type alone", item(`,"unit_discount_type":"amount"`), 422, "unprocessable_entity", "items[0].unit_discount_type: is set without a unit_discount"},
		{"long item name", item(`,"item_name":"` + strings.Repeat("é", 256) + `"`), 422, "unprocessable_entity", "items[0].item_name: must be at most 255 characters"},
		{"instances on an addon", `{"items":[{"item_id":7,"item_type":"addon","unit_price":"1","quantity":1,"instances":[` + ondemand + `]}]}`, 422, "unprocessable_entity", "items[0].instances: only service items have instances"},
		{"more instances than units", instance(ondemand + "," + ondemand), 422, "unprocessable_entity", "items[0].instances: at most one booking per unit (quantity 1)"},
		{"instance type", instance(`{"instance_type":"class","data":{"start_time":"` + benTuesday10 + `","provider_id":2}}`), 422, "unprocessable_entity", `items[0].instances[0].instance_type: must be "booking"`},
		{"reference and data", instance(`{"instance_type":"booking","reference_id":1,"data":{"start_time":"` + benTuesday10 + `","provider_id":2}}`), 422, "unprocessable_entity", "*"},
		{"no start time", instance(`{"instance_type":"booking","data":{"provider_id":2}}`), 422, "unprocessable_entity", "items[0].instances[0].data.start_time: is required when reference_id is null"},
		{"start time words", instance(`{"instance_type":"booking","data":{"start_time":"tomorrow at ten","provider_id":2}}`), 422, "invalid_start_time", "*"},
		{"start time without offset", instance(`{"instance_type":"booking","data":{"start_time":"2026-11-24T13:00:00","provider_id":2}}`), 422, "invalid_start_time", "*"},
		{"no provider", instance(`{"instance_type":"booking","data":{"start_time":"` + benTuesday10 + `"}}`), 422, "unprocessable_entity", "items[0].instances[0].data.provider_id: is required and must be a positive integer"},
		{"unknown booking", instance(`{"instance_type":"booking","reference_id":999}`), 422, "unprocessable_entity", "items[0].instances[0].reference_id: no such booking"},
		{"negative booking", instance(`{"instance_type":"booking","reference_id":-1}`), 422, "unprocessable_entity", "items[0].instances[0].reference_id: must be a positive integer"},
		{"POST: booking without client", `{"location_id":1,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1,"instances":[` + ondemand + `]}]}`, 422, "unprocessable_entity", "client_id: is required when an item books a service"},
		{"POST: booking without location", `{"client_id":1,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1,"instances":[` + ondemand + `]}]}`, 422, "unprocessable_entity", "location_id: is required when an item books a service"},
		{"unknown client", `{"client_id":999,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "client_id: no such client"},
		{"negative client", `{"client_id":-3,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "client_id: must be a positive integer"},
		{"unknown location", `{"location_id":999,"items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "location_id: no such location"},
		{"long note", `{"note":"` + strings.Repeat("n", 5001) + `","items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "note: must be at most 5000 characters"},
		{"NUL in note", `{"note":"a\u0000b","items":[{"item_id":1,"item_type":"service","unit_price":"1","quantity":1}]}`, 422, "unprocessable_entity", "body: strings must not contain NUL characters"},
	}
	for _, c := range []hostileCart{
		{"PATCH: clear the client of a booking cart", `{"client_id":null}`, 422, "unprocessable_entity", "client_id: is required when an item books a service"},
		{"PATCH: clear the location of a booking cart", `{"location_id":null}`, 422, "unprocessable_entity", "location_id: is required when an item books a service"},
		{"PATCH: null items", `{"items":null}`, 422, "unprocessable_entity", "items: cannot be null"},
	} {
		cases = append(cases, c)
	}
	count := func() [4]int {
		return [4]int{f.count("carts"), f.count("cart_items"), f.count("bookings"), f.count("events")}
	}
	for _, c := range cases {
		for _, method := range c.methods() {
			t.Run(method+" "+c.name, func(t *testing.T) {
				path, operation := "/v3/carts", "createCart"
				if method == "PATCH" {
					path, operation = "/v3/carts/"+itoa(existing.ID), "updateCart"
				}
				was := count()
				resp, raw := f.call(method, path, c.body)
				wantError(t, resp, raw, c.status, c.code, c.detail)
				validateResponse(t, operation, resp, raw)
				if now := count(); now != was {
					t.Errorf("got (carts, items, bookings, events) %v after a refused %s, want %v", now, method, was)
				}
			})
		}
	}
	if _, after := f.call("GET", "/v3/carts/"+itoa(existing.ID), nil); string(after) != string(before) {
		t.Errorf("the existing cart changed:\n got %s\nwant %s", after, before)
	}
}

// TestCartPathIDs: ids that cannot exist are the reference's not-found answers.
func TestCartPathIDs(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		method, path, operation, code, detail string
	}{
		{"GET", "/v3/carts/abc", "getCart", "cart_not_found", ""},
		{"GET", "/v3/carts/0", "getCart", "cart_not_found", ""},
		{"GET", "/v3/carts/99999999999999999999", "getCart", "cart_not_found", ""},
		{"POST", "/v3/carts/-1/payment_requests", "createPaymentRequest", "cart_not_found", ""},
		{"PATCH", "/v3/payment_requests/x/cancel", "cancelPaymentRequest", "payment_request_not_found", ""},
		{"GET", "/v3/sales/abc", "getSale", "not_found", "sale"},
	} {
		t.Run(fmt.Sprint(tc.method, " ", tc.path), func(t *testing.T) {
			resp, raw := f.call(tc.method, tc.path, nil)
			wantError(t, resp, raw, http.StatusNotFound, tc.code, tc.detail)
			validateResponse(t, tc.operation, resp, raw)
		})
	}
}

// hostileCart is one refused body; a name starting "POST:" or "PATCH:" is sent only with that
// method (PATCH leaves what it is not sent alone), others with both.
type hostileCart struct {
	name         string
	body         string
	status       int
	code, detail string
}

func (c hostileCart) methods() []string {
	for _, m := range []string{"POST", "PATCH"} {
		if strings.HasPrefix(c.name, m+":") {
			return []string{m}
		}
	}
	return []string{"POST", "PATCH"}
}
