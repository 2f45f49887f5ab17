package clients

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
	"frontdesk/ui/i18n"
)

var testNow = time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC)

// open returns a migrated database with two templates (1 text, 2 mandatory categoric with
// options Curly and Straight) and client 1 (Maria Lopez, record C-0001, Hair type Curly).
func open(t *testing.T) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	for _, s := range []string{
		`INSERT INTO custom_attributes (id, name, datatype, sort_order, mandatory) VALUES (1, 'Stylist', 'text', 1, 0), (2, 'Hair type', 'categoric', 2, 1)`,
		`INSERT INTO attribute_options (attribute_id, label, sort_order) VALUES (2, 'Curly', 1), (2, 'Straight', 2)`,
		`INSERT INTO clients (id, first_name, last_name, record_number, created_at, updated_at) VALUES (1, 'Maria', 'Lopez', 'C-0001', 0, 0)`,
		`INSERT INTO client_attribute_values (client_id, attribute_id, value) VALUES (1, 2, 'Curly')`,
	} {
		if _, err := d.Write.Exec(s); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
	}
	return d
}

func countEvents(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.Read.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func str(s string) *string { return &s }

func TestCreateCollectsEveryFieldError(t *testing.T) {
	d := open(t)
	_, err := Create(context.Background(), d, testNow, Input{
		FirstName: Value("Ana"), Email: Value("nope"), Phone: Value("123"), Age: Value[int64](0),
		SecondPhone: Value("+1"), Photo: Value("file:///etc/passwd"), PhoneCountry: Value("Chile"),
		CustomAttributes: []AttributeValue{{ID: 2, Value: str("Wavy")}, {ID: 7, Value: str("x")}},
	}, Options{})
	var got Errors
	if !errors.As(err, &got) {
		t.Fatalf("got %v, want Errors", err)
	}
	want := Errors{
		newFieldError("email", "must be a valid email address"),
		newFieldError("phone", "must be in E.164 format, e.g. +56912345678"),
		newFieldError("second_phone", "must be in E.164 format, e.g. +56912345678"),
		newFieldError("age", "must be between 1 and 150"),
		newFieldError("photo", "must be an absolute http or https URL of at most 2048 characters"),
		newFieldError("phone_country", "must be an ISO 3166-1 alpha-2 country code, e.g. CL"),
		newFieldError("custom_attributes.2", "must be one of: Curly, Straight"),
		newFieldError("custom_attributes.7", "no custom attribute has this id"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	if n := countEvents(t, d); n != 0 {
		t.Fatalf("got %d events after a refused create, want 0", n)
	}
}

func TestRequireMandatory(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	in := Input{FirstName: Value("Ana"), LastName: Value("Diaz")}
	if _, err := Create(ctx, d, testNow, in, Options{}); err != nil {
		t.Fatalf("API-style create without the mandatory attribute: %v", err)
	}
	_, err := Create(ctx, d, testNow, in, Options{RequireMandatory: true})
	if want := (Errors{newFieldError("custom_attributes.2", "Hair type is required")}); !reflect.DeepEqual(err, want) {
		t.Fatalf("admin-style create: got %v, want %v", err, want)
	}
	in.CustomAttributes = []AttributeValue{{ID: 2, Value: str("straight")}}
	c, err := Create(ctx, d, testNow, in, Options{RequireMandatory: true})
	if err != nil || len(c.CustomAttributes) != 1 || *c.CustomAttributes[0].Value != "Straight" {
		t.Fatalf("got %+v, %v; want Hair type Straight", c.CustomAttributes, err)
	}
	// Client 1 has a stored value: a change elsewhere passes, clearing it does not.
	if _, err := Update(ctx, d, testNow, 1, Input{City: Value("Lima")}, Options{RequireMandatory: true}); err != nil {
		t.Fatalf("update keeping the stored value: %v", err)
	}
	_, err = Update(ctx, d, testNow, 1, Input{CustomAttributes: []AttributeValue{{ID: 2}}}, Options{RequireMandatory: true})
	if want := (Errors{newFieldError("custom_attributes.2", "Hair type is required")}); !reflect.DeepEqual(err, want) {
		t.Fatalf("clearing a mandatory value: got %v, want %v", err, want)
	}
}

func TestRecordNumberIsUnique(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	_, err := Create(ctx, d, testNow, Input{FirstName: Value("Ana"), LastName: Value("X"), RecordNumber: Value("C-0001")}, Options{})
	if want := (Errors{newFieldError("record_number", "is already used by another client")}); !reflect.DeepEqual(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	// Keeping one's own number is fine.
	if _, err := Update(ctx, d, testNow, 1, Input{RecordNumber: Value("C-0001"), City: Value("Lima")}, Options{}); err != nil {
		t.Fatalf("keeping the own record number: %v", err)
	}
	if n := countEvents(t, d); n != 1 {
		t.Fatalf("got %d events, want 1 (the update)", n)
	}
}

func TestReactivateAndAdminFields(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	if _, err := Deactivate(ctx, d, testNow, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Deactivate(ctx, d, testNow, 1); !errors.Is(err, ErrAlreadyDeactivated) {
		t.Fatalf("second deactivation: got %v, want ErrAlreadyDeactivated", err)
	}
	later := testNow.Add(time.Hour)
	c, err := Update(ctx, d, later, 1, Input{Active: Value(true), SecondPhone: Value("+56911112222"),
		PhoneCountry: Value("cl"), Nationality: Value("Chilean"), Photo: Value("https://img.example.com/m.jpg")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Active || *c.SecondPhone != "+56911112222" || *c.PhoneCountry != "CL" || *c.Nationality != "Chilean" ||
		*c.Photo != "https://img.example.com/m.jpg" || c.UpdatedAt != "2026-11-21T16:00:00Z" {
		t.Fatalf("got %+v", c)
	}
	var types []string
	rows, _ := d.Read.Query(`SELECT type FROM events ORDER BY created_at, rowid`)
	for rows.Next() {
		var s string
		rows.Scan(&s)
		types = append(types, s)
	}
	rows.Close()
	if want := []string{EventUpdated, EventUpdated}; !reflect.DeepEqual(types, want) {
		t.Fatalf("got events %v, want %v", types, want)
	}
}

func TestMissingClient(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	if _, err := Update(ctx, d, testNow, 99, Input{City: Value("X")}, Options{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("update: got %v, want ErrNotFound", err)
	}
	if _, err := Deactivate(ctx, d, testNow, 99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deactivate: got %v, want ErrNotFound", err)
	}
	if _, err := Load(ctx, d.R, 99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load: got %v, want ErrNotFound", err)
	}
}

func TestNullAndEmptyClear(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	c, err := Update(ctx, d, testNow, 1, Input{Email: Value("m@example.com"), City: Value("Lima")}, Options{})
	if err != nil || c.Email != "m@example.com" || *c.City != "Lima" {
		t.Fatalf("got %+v, %v", c, err)
	}
	c, err = Update(ctx, d, testNow, 1, Input{Email: Null[string](), City: Value("  ")}, Options{})
	if err != nil || c.Email != "" || c.City != nil || *c.LastName != "Lopez" {
		t.Fatalf("got email %q city %v last name %v, %v; want cleared, cleared, kept", c.Email, c.City, c.LastName, err)
	}
}

// Every message the validators write has the owner's words in the catalogs: none falls back to
// the generic text that quotes the English detail.
func TestFieldErrorsHaveCatalogTexts(t *testing.T) {
	for _, msg := range []string{
		"is required", "must be at most 255 characters", "must not contain control characters", "must be valid UTF-8",
		"must be between 1 and 150", "must be a valid email address", "must be in E.164 format, e.g. +56912345678",
		"must be an ISO 3166-1 alpha-2 country code, e.g. CL", "must be 0 (other), 1 (female) or 2 (male)",
		"at least one of last_name, email or phone is required", "month 2 has no day 30", "is already used by another client",
		"must be true or false", "must be an integer", "must be a number", "must be a number within the range of a 64-bit float",
		"must be a date as YYYY-MM-DD", "must be an RFC 3339 date-time, e.g. 2026-11-21T15:04:05-03:00",
		"must be one of: Curly, Straight", "must be an absolute http or https URL of at most 2048 characters",
		"no custom attribute has this id", "is given more than once", "Allergies is required",
	} {
		if got := fieldMsg(msg); got.Key == "clients.err.other" {
			t.Errorf("%q has no catalog text", msg)
		}
	}
	es := i18n.NewPrinter("es", i18n.Prefs{})
	if got, want := es.Msg(fieldMsg("month 2 has no day 30")), "El mes 2 no tiene día 30."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A year's bounds are not grouped like amounts ("entre 1.900 y 2.026").
	for _, tc := range []struct {
		p    *i18n.Printer
		want string
	}{{es, "Ingresa un año entre 1900 y 2026."}, {i18n.NewPrinter("en", i18n.Prefs{}), "Enter a year from 1900 to 2026."}} {
		if got := tc.p.Msg(newFieldError("birth_year", "must be between 1900 and 2026").Msg); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
