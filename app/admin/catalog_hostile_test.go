package admin_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestCatalogHostileInput: whatever arrives in a catalog form — control characters, markup,
// huge values, ids that do not exist — the answer is a page with the problems (422) or not
// found (404), never a 500, and nothing is written. The same fields each sent twice are refused
// before any handler (400: which copy was meant cannot be known), except the checkbox groups.
func TestCatalogHostileInput(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	loc := addLocation(t, c, "Centro", "America/Santiago")
	d := openDB(t, ts)
	count := func() string {
		t.Helper()
		var n string
		err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM services) || '/' || (SELECT count(*) FROM categories) || '/' ||
			(SELECT count(*) FROM locations) || '/' || (SELECT count(*) FROM providers) || '/' || (SELECT count(*) FROM custom_attributes) || '/' ||
			(SELECT count(*) FROM location_closures) || '/' || (SELECT count(*) FROM provider_time_off) || '/' || (SELECT count(*) FROM events)`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()

	huge := strings.Repeat("9", 15_000) // 26 fields twice: just under the 1 MiB body limit
	values := []string{"\x00\x01", "<script>alert(1)</script>", huge, "-1.5", "99999999999999999999999", "1e9", " ", "NaN", "24:00-24:00 ((", "٣"}
	fields := []string{"name", "price", "duration", "discount", "keywords", "category_id", "location_id", "provider_ids", "image_0",
		"online_payment_mode", "online_payment_amount", "order", "timezone", "country_code", "hours_1", "latitude", "phone",
		"public_name", "location_ids", "service_ids", "hours_" + loc + "_1", "datatype", "options", "date", "from", "to"}
	paths := []struct {
		path string
		want int
	}{
		{"/catalog/services", http.StatusUnprocessableEntity},
		{"/catalog/categories", http.StatusUnprocessableEntity},
		{"/catalog/locations", http.StatusUnprocessableEntity},
		{"/catalog/providers", http.StatusUnprocessableEntity},
		{"/catalog/custom-attributes", http.StatusUnprocessableEntity},
		{"/catalog/locations/" + loc + "/closures", http.StatusUnprocessableEntity},
		{"/catalog/services/77", http.StatusNotFound},
		{"/catalog/providers/77/time-off", http.StatusNotFound},
	}
	for _, v := range values {
		for _, copies := range []int{1, 2} {
			form := url.Values{}
			for _, f := range fields {
				form[f] = slices.Repeat([]string{v}, copies)
			}
			for _, p := range paths {
				res := c.post(t, p.path, form)
				want := p.want
				if copies == 2 {
					want = http.StatusBadRequest
					wantBody(t, res, "more than once")
				}
				if res.Status != want {
					t.Errorf("POST %s with %.20q ×%d: got %d, want %d\n%.1500s", p.path, v, copies, res.Status, want, res.Body)
				}
				if strings.Contains(res.Body, "<script>alert(1)") {
					t.Errorf("POST %s: the page echoes markup unescaped", p.path)
				}
			}
		}
	}
	if after := count(); after != before {
		t.Errorf("got row counts %s after refused input, want %s", after, before)
	}
}
