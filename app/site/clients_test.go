package site_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A visitor whose email or phone belongs to an active client books for that client; the pages
// they see are the same as anyone's (nothing of the client is shown or changed), and only
// unanswered questions are filled in. A deactivated client is never matched. Validation is the
// same whether or not there is a match.
func TestMatchingClients(t *testing.T) {
	f := newFixture(t)
	ms := start.UnixMilli()
	byEmail := f.exec(`INSERT INTO clients (first_name, last_name, email, phone, created_at, updated_at) VALUES ('Camila', 'Soto', 'camila.rojas@example.com', '+56911111111', ?, ?)`, ms, ms)
	byPhone := f.exec(`INSERT INTO clients (first_name, last_name, phone, created_at, updated_at) VALUES ('Pedro', 'Diaz', '+56922222222', ?, ?)`, ms, ms)
	gone := f.exec(`INSERT INTO clients (first_name, email, active, created_at, updated_at) VALUES ('Old', 'old@example.com', 0, ?, ?)`, ms, ms)
	f.exec(`INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (?, ?, 'pollen')`, byEmail, f.allerg)

	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	book := func(email, phone string) (int64, string) {
		t.Helper()
		form := f.details(haircut, 0, at)
		form.Set("email", email)
		form.Set("phone", phone)
		at = at.Add(time.Hour)
		manage := f.book(haircut, form)
		got := f.bookings()
		return got[len(got)-1].client, f.get(manage + "?done=booked").body
	}
	c1, page1 := book("Camila.Rojas@example.com", "+56 9 3333 3333")
	c2, _ := book("pedro@example.com", "+56 9 2222 2222")
	c3, page3 := book("old@example.com", "+56 9 4444 4444")
	if c1 != byEmail || c2 != byPhone {
		t.Errorf("matched clients %d, %d; want %d by email and %d by phone", c1, c2, byEmail, byPhone)
	}
	if c3 == gone {
		t.Error("a deactivated client was matched")
	}
	if len(page1) == 0 || strip(page1) != strip(page3) {
		t.Error("the page after booking as an existing client differs from a new client's")
	}
	var last, allergies string
	if err := f.db.Read.QueryRow(`SELECT c.last_name, v.value FROM clients c JOIN client_attribute_values v ON v.client_id = c.id
		WHERE c.id = ? AND v.attribute_id = ?`, byEmail, f.allerg).Scan(&last, &allergies); err != nil {
		t.Fatal(err)
	}
	if last != "Soto" || allergies != "pollen" {
		t.Errorf("the matched client was changed: last name %q, allergies %q", last, allergies)
	}
	var filled string
	if err := f.db.Read.QueryRow(`SELECT value FROM client_attribute_values WHERE client_id = ? AND attribute_id = ?`, byPhone, f.allerg).Scan(&filled); err != nil || filled != "none" {
		t.Errorf("the unanswered question of a matched client: %q (%v), want it filled with the answer given", filled, err)
	}
	if n := f.count(`SELECT count(*) FROM events WHERE type = 'client.created'`); n != 1 {
		t.Errorf("%d client.created events, want 1 (only the visitor who matched nobody)", n)
	}

	// The mandatory asked attribute is required, for everybody.
	form := f.details(haircut, 0, at)
	form.Del("attr_" + strconv.FormatInt(f.allerg, 10))
	res := f.post("/book/1/1/details", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-attr_`+strconv.FormatInt(f.allerg, 10)+`"`)
}

// strip removes what differs between the manage pages of two bookings: the token and the
// appointment itself.
func strip(page string) string {
	return summaryRE.ReplaceAllString(manageTokenRE.ReplaceAllString(page, "TOKEN"), "SUMMARY")
}

var summaryRE = regexp.MustCompile(`(?s)<dl class="summary.*?</dl>`)

// A refused answer to a question is explained in the visitor's language, not with the
// validator's English ("This answer is not valid: must be an integer").
func TestAnswerRefusedInVisitorsLanguage(t *testing.T) {
	f := newFixture(t)
	shoe := f.count(`SELECT id FROM custom_attributes WHERE name = 'Shoe size'`)
	f.exec(`INSERT INTO site_attributes (attribute_id) VALUES (?)`, shoe)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	field := "attr_" + strconv.FormatInt(shoe, 10)
	for _, tc := range []struct{ lang, want string }{
		{"en", "Enter a whole number."},
		{"es", "Ingresa un número entero."},
	} {
		f.exec(`UPDATE company SET language = ?`, tc.lang)
		form := f.details(haircut, f.ana, at)
		form.Set(field, "forty")
		res := f.post("/book/1/1/details", form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-`+field+`">`+tc.want+`<`, `value="forty"`)
		if strings.Contains(res.body, "must be") {
			t.Errorf("%s: the refusal quotes the validator's English", tc.lang)
		}
	}
}

// A Spanish visitor writes a decimal with a comma ("72,5"); it is taken as the number it is and
// stored as programs read it ("72.5").
func TestDecimalCommaAnswer(t *testing.T) {
	f := newFixture(t)
	f.exec(`UPDATE company SET language = 'es'`)
	weight := f.exec(`INSERT INTO custom_attributes (name, datatype, mandatory, sort_order) VALUES ('Peso', 'float', 0, 3)`)
	f.exec(`INSERT INTO site_attributes (attribute_id) VALUES (?)`, weight)
	form := f.details(haircut, f.ana, time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	form.Set("attr_"+strconv.FormatInt(weight, 10), "72,5")
	f.book(haircut, form)
	var stored string
	if err := f.db.Read.QueryRow(`SELECT value FROM client_attribute_values WHERE attribute_id = ?`, weight).Scan(&stored); err != nil || stored != "72.5" {
		t.Errorf("stored %q (%v), want 72.5", stored, err)
	}
}

// A phone number typed as it is dialled in the location's country (Chile here) is taken, in
// international form — also the one an existing client was stored with, so they are matched —
// and the form says how numbers without a country code are read.
func TestLocalPhoneNumbers(t *testing.T) {
	f := newFixture(t)
	ms := start.UnixMilli()
	pedro := f.exec(`INSERT INTO clients (first_name, last_name, phone, created_at, updated_at) VALUES ('Pedro', 'Diaz', '+56922222222', ?, ?)`, ms, ms)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	page := f.get(detailsPath(haircut, f.ana, at))
	wantBody(t, page, "With the country code, like +56 9 6123 4567; a number without it is read as one in Chile (+56).")

	for i, tc := range []struct {
		phone, email string
		stored       string
	}{
		{"9 8765 4321", "camila@example.com", "+56987654321"},
		{"56 9 6123 4567", "ines@example.com", "+56961234567"},
		{"2 2123-4567", "tomas@example.com", "+56221234567"},
	} {
		form := f.details(haircut, f.ana, at.Add(time.Duration(i)*time.Hour))
		form.Set("phone", tc.phone)
		form.Set("email", tc.email)
		f.book(haircut, form)
		var phone string
		if err := f.db.Read.QueryRow(`SELECT phone FROM clients WHERE email = ?`, tc.email).Scan(&phone); err != nil || phone != tc.stored {
			t.Errorf("%q typed, stored %q (%v), want %q", tc.phone, phone, err, tc.stored)
		}
	}
	form := f.details(haircut, f.ana, at.Add(5*time.Hour))
	form.Set("email", "pedro.diaz@example.com")
	form.Set("phone", "9 2222 2222")
	f.book(haircut, form)
	if got := f.bookings(); got[len(got)-1].client != pedro {
		t.Errorf("the local number of an existing client booked for client %d, want %d", got[len(got)-1].client, pedro)
	}

	form = f.details(haircut, f.ana, at.Add(6*time.Hour))
	form.Set("phone", "12 34")
	res := f.post("/book/1/1/details", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "This is not a valid phone number. For example: +56 ")

	f.exec(`UPDATE company SET language = 'es'`)
	wantBody(t, f.get(detailsPath(haircut, f.ana, at.Add(7*time.Hour))), "un número sin él se lee como de Chile (+56).")
}
