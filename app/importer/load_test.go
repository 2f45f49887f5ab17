package importer

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

// The documented example imports, and each field lands where the format says.
func TestLoadExample(t *testing.T) {
	d := openDB(t)
	sum, err := Load(context.Background(), d, []byte(exampleFile(t)), testNow)
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{Company: "Studio Ana", Locations: 2, Categories: 2, Services: 4, Providers: 2, CustomAttributes: 2, Clients: 2,
		Timetable: 1, Sessions: 1, Bookings: 6, Products: 2, Sales: 2, Packs: 1}
	if sum != want {
		t.Fatalf("got summary %+v, want %+v", sum, want)
	}
	if got, want := sum.String(), `imported "Studio Ana": 2 locations, 2 categories, 4 services, 2 providers, 2 custom attributes, 2 clients, 1 timetable entry, 1 class session, 6 bookings, 2 products, 2 sales, 1 pack`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	utc := func(s string) int64 {
		t.Helper()
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return db.Millis(ts)
	}
	checks := []struct {
		name  string
		query string
		want  any
	}{
		{"company policies and defaults", `SELECT currency || ' ' || slot_step_min || ' ' || min_notice_min || ' ' || max_advance_days || ' ' || can_cancel FROM company`, "CLP 15 60 90 1"},
		{"location zone and country", `SELECT l.timezone || ' ' || c.code FROM locations l JOIN countries c ON c.id = l.country_id WHERE l.name = 'Studio Ana Centro'`, "America/Santiago CL"},
		{"two opening ranges on monday", `SELECT count(*) FROM location_hours h JOIN locations l ON l.id = h.location_id WHERE l.name = 'Studio Ana Centro' AND day_id = 1`, int64(2)},
		{"close at 24:00", `SELECT close_min FROM location_hours WHERE day_id = 6`, int64(1440)},
		{"relative closure", `SELECT group_concat(date, ' ') FROM (SELECT date FROM location_closures ORDER BY date)`, "2026-12-08 2026-12-25"},
		{"service money and payment", `SELECT price_cents || ' ' || has_discount || ' ' || discount_bp || ' ' || online_payment_mode || ' ' || online_payment_cents FROM services WHERE name = 'Haircut'`, "1500000 1 1000 MANDATORY_PARTIAL 500000"},
		{"service keywords and category", `SELECT s.keywords_json || ' ' || c.name FROM services s JOIN categories c ON c.id = s.category_id WHERE s.name = 'Haircut'`, `["cut","hair"] Hair`},
		{"service images", `SELECT count(*) FROM service_images`, int64(1)},
		{"category order defaults to position", `SELECT group_concat(name || '=' || sort_order, ' ') FROM categories`, "Hair=1 Advice=5"},
		{"provider main location is the first", `SELECT l.name FROM providers p JOIN locations l ON l.id = p.location_id WHERE p.public_name = 'Ana'`, "Studio Ana Centro"},
		{"provider locations", `SELECT count(*) FROM provider_locations`, int64(3)},
		{"provider services", `SELECT count(*) FROM service_providers`, int64(5)},
		{"shift location defaults to the only one", `SELECT l.name FROM provider_hours h JOIN providers p ON p.id = h.provider_id JOIN locations l ON l.id = h.location_id WHERE p.public_name = 'Ben'`, "Studio Ana Centro"},
		{"breaks", `SELECT start_min || '-' || end_min FROM provider_breaks`, "780-840"},
		{"whole-day time off, to inclusive", `SELECT starts_at || ' ' || ends_at FROM provider_time_off WHERE reason = 'Holidays'`,
			itoa(utc("2026-12-28T03:00:00Z")) + " " + itoa(utc("2027-01-01T03:00:00Z"))},
		{"attribute group", `SELECT g.name FROM custom_attributes a JOIN attribute_groups g ON g.id = a.group_id`, "Preferences"},
		{"attribute options", `SELECT group_concat(label, ',') FROM attribute_options`, "Straight,Curly"},
		{"client email in lower case", `SELECT email FROM clients WHERE first_name = 'María'`, "maria.lopez@example.com"},
		{"preferred channel", `SELECT c.first_name || ' ' || p.channel FROM client_message_prefs p JOIN clients c ON c.id = p.client_id`, "María sms"},
		{"attribute values as text", `SELECT group_concat(value, ',') FROM (SELECT value FROM client_attribute_values ORDER BY attribute_id)`, "Curly,true"},
		{"local start in the location's zone", `SELECT start_at || ' ' || end_at || ' ' || block_end_at || ' ' || price_cents || ' ' || status_id FROM bookings WHERE notes IS NULL AND status_id = 1 AND service_id = 1`,
			itoa(utc("2026-12-01T13:00:00Z")) + " " + itoa(utc("2026-12-01T13:30:00Z")) + " " + itoa(utc("2026-12-01T13:40:00Z")) + " 1500000 1"},
		{"relative start", `SELECT start_at || ' ' || end_at || ' ' || status_id FROM bookings WHERE notes = 'First colour'`,
			itoa(utc("2026-11-30T13:00:00Z")) + " " + itoa(utc("2026-11-30T14:30:00Z")) + " 2"},
		{"instant start with explicit end and price", `SELECT start_at || ' ' || end_at || ' ' || price_cents FROM bookings WHERE location_id = 2`,
			itoa(utc("2026-12-02T16:00:00Z")) + " " + itoa(utc("2026-12-02T16:30:00Z")) + " 0"},
		{"bookings marked as imported", `SELECT group_concat(DISTINCT source) FROM bookings`, "import"},
		{"no webhook events", `SELECT count(*) FROM events`, int64(0)},
		{"keys remembered", `SELECT (SELECT count(*) FROM import_keys) + (SELECT count(*) FROM import_class_keys)`, int64(16)},
		{"timetable entry", `SELECT day_id || ' ' || start_min || ' ' || room || ' ' || valid_from || ' ' || coalesce(valid_to, '-') FROM class_timetable`, "2 1080 Studio 2026-11-24 -"},
		{"a year of Tuesdays, the cancelled one kept", `SELECT count(*) || ' ' || sum(status = 'cancelled') FROM class_sessions WHERE timetable_id IS NOT NULL`, "53 1"},
		{"the one-off", `SELECT start_at || ' ' || capacity FROM class_sessions WHERE timetable_id IS NULL`, itoa(utc("2026-12-23T21:00:00Z")) + " 10"},
		{"seats in the Tuesday session", `SELECT count(DISTINCT b.session_id) || ' ' || count(*) || ' ' || min(s.start_at) FROM bookings b JOIN class_sessions s ON s.id = b.session_id`,
			"1 2 " + itoa(utc("2026-12-01T21:00:00Z"))},
		{"products", `SELECT group_concat(name || '|' || coalesce(sku, '-') || '|' || price_cents || '|' || coalesce(stock, '-') || '|' || active, ' / ') FROM (SELECT * FROM products ORDER BY id)`,
			"Argan oil 50 ml|ARG-50|1250000|14|1 / Wide-tooth comb|-|399000|-|1"},
		{"product keys remembered", `SELECT group_concat(key, ',') FROM (SELECT key FROM import_product_keys ORDER BY record_id)`, "argan,comb"},
		{"sales with their carts", `SELECT group_concat(s.status || '|' || s.paid_cents || '|' || s.pending_cents || '|' || coalesce(s.paid_at, '-') || '|' || s.created_at || '|' || k.client_id, ' / ')
	FROM (SELECT * FROM sales ORDER BY id) s JOIN carts k ON k.id = s.cart_id`,
			"paid|2899000|0|" + itoa(utc("2026-11-20T15:05:00Z")) + "|" + itoa(utc("2026-11-20T15:00:00Z")) + "|1 / partially_paid|3000000|3000000|-|" + itoa(testNow.UnixMilli()) + "|1"},
		{"sale lines", `SELECT group_concat(item_type || '|' || item_id || '|' || coalesce(product_id, '-') || '|' || quantity || '|' || unit_price_cents, ' / ') FROM (SELECT * FROM cart_items ORDER BY id)`,
			"product|1|1|2|1250000 / product|2|2|1|399000 / service|1|-|1|6000000"},
		{"payments", `SELECT group_concat(sale_id || '|' || amount_cents || '|' || payment_method_id, ' / ') FROM (SELECT * FROM transactions ORDER BY id)`,
			"1|2899000|2 / 2|3000000|1"},
		{"pack of its sale", `SELECT client_id || '|' || service_id || '|' || sessions_total || '|' || price_cents || '|' || sale_id || '|' || expires_at FROM client_packs`,
			"1|1|4|6000000|2|" + itoa(utc("2027-06-01T04:00:00Z"))},
		{"booking of the pack and sale, its list price and creation", `SELECT pack_id || '|' || sale_id || '|' || list_price_cents || '|' || created_at FROM bookings WHERE pack_id IS NOT NULL`,
			"1|2|1400000|" + itoa(utc("2026-11-20T15:00:00Z"))},
		{"sale and pack keys remembered", `SELECT group_concat(kind || ':' || key, ',') FROM (SELECT * FROM import_sale_keys ORDER BY kind, key)`, "pack:maria-cuts,sale:sale-1,sale:sale-2"},
		{"stock not touched by history", `SELECT stock FROM products WHERE sku = 'ARG-50'`, int64(14)},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			var got any
			if err := d.Read.QueryRow(c.query).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if s, ok := got.([]byte); ok {
				got = string(s)
			}
			if got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Import only adds: a second run of the same file is refused and writes nothing; a file that
// leaves the company out and uses new keys adds to the business, once.
func TestLoadAppendsOnce(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	example := exampleFile(t)
	if _, err := Load(ctx, d, []byte(example), testNow); err != nil {
		t.Fatal(err)
	}

	before := tableCounts(t, d)
	_, err := Load(ctx, d, []byte(example), testNow)
	got := problemsOf(t, err)
	for _, want := range []string{
		`company: this database already has a business ("Studio Ana")`,
		`locations[0].key: "centro" was already imported on 2026-11-23 12:00 UTC (location id 1)`,
		`products[0].key: "argan" was already imported on 2026-11-23 12:00 UTC (product id 1)`,
	} {
		if !hasProblem(got, want) {
			t.Errorf("got problems\n  %s\nwant one starting with\n  %s", strings.Join(got, "\n  "), want)
		}
	}
	wantSameCounts(t, tableCounts(t, d), before)
	// The problem list stops at 20, so a stored record number and SKU are checked with files of
	// their own.
	_, err = Load(ctx, d, []byte(`{"clients": [{"key": "maria-2", "first_name": "María", "record_number": "C-0001"}]}`), testNow)
	if got := problemsOf(t, err); !hasProblem(got, `clients[0].record_number: "C-0001" is already the record number of client id 1`) {
		t.Errorf("got problems %q, want the stored record number named", got)
	}
	_, err = Load(ctx, d, []byte(`{"products": [{"key": "argan-2", "name": "Argan oil", "sku": "arg-50", "price": "1"}]}`), testNow)
	if got := problemsOf(t, err); !hasProblem(got, `products[0].sku: "arg-50" is already the SKU of product id 1`) {
		t.Errorf("got problems %q, want the stored SKU named", got)
	}
	_, err = Load(ctx, d, []byte(`{"clients": [{"key": "eva", "first_name": "Eva"}], "locations": [{"key": "sur", "name": "Sur",
		"timezone": "America/Santiago", "country": {"code": "CL", "name": "Chile"}}],
		"services": [{"key": "nails", "name": "Nails", "price": "1", "duration": 30}],
		"sales": [{"key": "sale-1", "location": "sur", "status": "paid", "paid": "1", "pending": "0", "lines": [{"type": "service", "quantity": 1, "unit_price": "1"}]}],
		"packs": [{"key": "maria-cuts", "client": "eva", "service": "nails", "sessions": 1, "price": "0"}]}`), testNow)
	if got := problemsOf(t, err); !hasProblem(got, `sales[0].key: "sale-1" was already imported on 2026-11-23 12:00 UTC (sale id 1)`) ||
		!hasProblem(got, `packs[0].key: "maria-cuts" was already imported on 2026-11-23 12:00 UTC (pack id 1)`) {
		t.Errorf("got problems %q, want the stored sale and pack keys named", got)
	}
	wantSameCounts(t, tableCounts(t, d), before)

	addition := `{
		"locations": [{"key": "norte", "name": "Studio Ana Norte", "timezone": "America/Santiago", "country": {"code": "CL", "name": "Chile"}}],
		"clients": [{"key": "pedro", "first_name": "Pedro"}],
		"custom_attributes": [{"key": "since", "name": "Client since", "datatype": "date", "group": "Preferences"}]
	}`
	sum, err := Load(ctx, d, []byte(addition), testNow)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.String(), "imported 1 location, 1 custom attribute, 1 client"; got != want {
		t.Errorf("got summary %q, want %q", got, want)
	}
	var groups int64
	if err := d.Read.QueryRow(`SELECT count(*) FROM attribute_groups`).Scan(&groups); err != nil {
		t.Fatal(err)
	}
	if groups != 1 {
		t.Errorf("got %d attribute groups, want the existing \"Preferences\" reused", groups)
	}

	before = tableCounts(t, d)
	_, err = Load(ctx, d, []byte(addition), testNow)
	if got := problemsOf(t, err); !hasProblem(got, `locations[0].key: "norte" was already imported`) {
		t.Errorf("got problems %q, want the repeated addition refused", got)
	}
	wantSameCounts(t, tableCounts(t, d), before)
}
