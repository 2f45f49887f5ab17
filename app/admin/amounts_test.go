package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Amounts in the admin are the business currency printed for the business language, and the
// service and product forms read what an owner types in that language: "15.000" is fifteen
// thousand pesos in Spanish, "12,50" twelve and a half euros; a value with more decimals than
// the currency has is refused with an example, together with the form's other problems.
func TestAmountsFollowTheLanguage(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	stored := func(table, name string) int64 {
		t.Helper()
		var cents int64
		if err := d.Read.QueryRow(`SELECT price_cents FROM `+table+` WHERE name = ?`, name).Scan(&cents); err != nil {
			t.Fatal(err)
		}
		return cents
	}
	business := func(lang, currency string) {
		t.Helper()
		f := businessForm()
		f.Set("language", lang)
		f.Set("currency", currency)
		wantRedirect(t, c.post(t, "/settings/business", f), "/settings/business")
	}

	business("es", "clp")
	svc := serviceForm("Corte")
	svc.Set("price", "15.000")
	wantRedirect(t, c.post(t, "/catalog/services", svc), "/catalog/services")
	if got := stored("services", "Corte"); got != 1500000 {
		t.Errorf("Spanish CLP price 15.000 stored as %d hundredths, want 1500000", got)
	}
	wantBody(t, c.get(t, "/catalog/services"), "$15.000")
	wantRedirect(t, c.post(t, "/catalog/products", url.Values{"name": {"Champú"}, "price": {"2.990"}}), "/catalog/products")
	wantBody(t, c.get(t, "/catalog/products"), "$2.990")

	bad := serviceForm("")
	bad.Set("price", "15000,5")
	res := c.post(t, "/catalog/services", bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-price"`, "15000", `data-testid="error-name"`) // every problem at once
	if strings.Contains(between(res.Body, `data-testid="error-price"`, "</"), "12") {
		t.Errorf("the CLP example has decimals: %q", between(res.Body, `data-testid="error-price"`, "</"))
	}

	business("es", "eur")
	svc = serviceForm("Tinte")
	svc.Set("price", "1.234,5")
	wantRedirect(t, c.post(t, "/catalog/services", svc), "/catalog/services")
	if got := stored("services", "Tinte"); got != 123450 {
		t.Errorf("Spanish EUR price 1.234,5 stored as %d, want 123450", got)
	}
	wantBody(t, c.get(t, "/catalog/services"), "€1.234,50")
	var id string
	if err := d.Read.QueryRow(`SELECT id FROM services WHERE name = 'Tinte'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/catalog/services/"+id), `value="1234,50"`) // the form shows it as it is typed

	business("en", "usd")
	wantBody(t, c.get(t, "/catalog/services"), "$1,234.50", "$15,000.00")
	wantBody(t, c.get(t, "/catalog/services/"+id), `value="1234.50"`)
	svc = serviceForm("Trim")
	svc.Set("price", "1,234.56")
	wantRedirect(t, c.post(t, "/catalog/services", svc), "/catalog/services")
	if got := stored("services", "Trim"); got != 123456 {
		t.Errorf("English USD price 1,234.56 stored as %d, want 123456", got)
	}
}
