package importer

import (
	"context"
	"strings"
	"testing"
)

// vendorFiles are client exports as each system writes them, by the columns docs/data.md
// relies on, with the cases a real list has: a quoted name with a comma, a person already stored,
// a row repeated, a row without a name, a national phone number, a byte-order mark, a
// semicolon-separated file.
var vendorFiles = map[string]string{
	"square": "\uFEFFFirst Name,Last Name,Email Address,Phone Number,Street Address 1,Street Address 2,City,State,Birthday,Reference ID,Memo,Email Subscription Status\r\n" +
		"Ana,\"Pérez, Jr\",Ana.Perez@Example.com,+56 9 1111 2222,Huérfanos 1160,Of. 2,Santiago,RM,03-14,SQ-1,likes tea,Subscribed\r\n" +
		"María,López,maria.lopez@example.com,,,,,,,,,\r\n" +
		",,nobody@example.com,,,,,,,,,\r\n" +
		"Bea,Soto,,9 8765 4321,,,,,1990-02-28,,,\r\n" +
		"Ana,Pérez,ana.perez@example.com,,,,,,,,,\r\n",
	"fresha": "Client ID;First Name;Last Name;Full Name;Mobile Number;Telephone;Email;Gender;Date of Birth;Address;City;Blocked\n" +
		"101;Carla;Ruiz;Carla Ruiz;+34 612 345 678;;carla@example.es;Female;1985-07-01;Gran Vía 1;Madrid;false\n" +
		"102;Dan;;Dan;+12125550123;;;Male;;;;false\n",
	"simplybook": "Name,Email,Phone,Address 1,City,Zip\n" +
		"Eva María Gómez,eva@example.com,+56922223333,Calle 1,Valparaíso,2340000\n" +
		"Félix,felix@example.com,,,,\n",
}

func TestLoadClientsCSV(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"square": {
			"line 2: create Ana Pérez, Jr ana.perez@example.com +56911112222",
			"line 3: skip: already a client (id 1, the same email)",
			"line 4: skip: no name",
			"line 5: create Bea Soto  +56987654321",
			"line 6: skip: same email as line 2",
		},
		"fresha": {
			"line 2: create Carla Ruiz carla@example.es +34612345678",
			"line 3: skip: already a client (id 2, the same phone)",
		},
		"simplybook": {
			"line 2: create Eva María Gómez eva@example.com +56922223333",
			"line 3: create Félix felix@example.com ",
		},
	}
	for _, vendor := range Vendors {
		t.Run(vendor, func(t *testing.T) {
			raw := []byte(vendorFiles[vendor])
			before := tableCounts(t, d)
			dry, err := LoadClientsCSV(ctx, d, vendor, raw, testNow, true)
			if err != nil {
				t.Fatal(err)
			}
			wantSameCounts(t, tableCounts(t, d), before) // a dry run writes nothing
			var got []string
			for _, r := range dry.Rows {
				if r.Create {
					got = append(got, strings.Join([]string{"line", itoa(int64(r.Line)) + ":", "create", r.Name, r.Email, r.Phone}, " "))
				} else {
					got = append(got, "line "+itoa(int64(r.Line))+": skip: "+r.Reason)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want[vendor], "\n") {
				t.Errorf("dry run:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want[vendor], "\n"))
			}
			done, err := LoadClientsCSV(ctx, d, vendor, raw, testNow, false)
			if err != nil {
				t.Fatal(err)
			}
			if done.Created != dry.Created || tableCounts(t, d)["clients"] != before["clients"]+int64(done.Created) {
				t.Errorf("created %d (dry run said %d); clients %d → %d", done.Created, dry.Created, before["clients"], tableCounts(t, d)["clients"])
			}
		})
	}
	var got string
	if err := d.Read.QueryRow(`SELECT first_name || '|' || last_name || '|' || address || '|' || city || '|' || region || '|' || birth_day || '-' || birth_month || '|' || record_number
	FROM clients WHERE email = 'ana.perez@example.com'`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "Ana|Pérez, Jr|Huérfanos 1160 Of. 2|Santiago|RM|14-3|SQ-1" {
		t.Errorf("Square's row became %q", got)
	}
	if err := d.Read.QueryRow(`SELECT gender || '|' || birth_year || '|' || city FROM clients WHERE email = 'carla@example.es'`).Scan(&got); err != nil || got != "1|1985|Madrid" {
		t.Errorf("Fresha's row became %q (%v)", got, err)
	}
	if err := d.Read.QueryRow(`SELECT first_name || '|' || last_name FROM clients WHERE email = 'eva@example.com'`).Scan(&got); err != nil || got != "Eva|María Gómez" {
		t.Errorf("SimplyBook's full name became %q (%v)", got, err)
	}
	// The same file again creates nothing new: everyone is a client now.
	again, err := LoadClientsCSV(ctx, d, "square", []byte(vendorFiles["square"]), testNow, false)
	if err != nil || again.Created != 0 {
		t.Errorf("the same file again: created %d, %v", again.Created, err)
	}
}

// A file with a row that cannot be imported is refused whole, each problem at its line, and
// writes nothing; so is a file that is not a client list.
func TestLoadClientsCSVRefuses(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		vendor, file string
		want         []string
	}{
		{"square", "First Name,Email Address,Phone Number\r\nGood,good@example.com,\r\nBad,not-an-email,\r\nWorse,,12\r\n",
			[]string{`line 3 (email): "not-an-email" is not an email address`, `line 4 (phone): "12" is not a phone number in E.164 form`}},
		{"fresha", "First Name,Email\nToo long," + strings.Repeat("x", 300) + "@example.com\n", []string{`line 2 (email): `}},
		{"simplybook", "Email,Phone\na@example.com,+56911112222\n", []string{`line 1: no name column: a simplybook client export has "client name" or "first name" or "full name" or "name"`}},
		{"square", "First Name,Email Address\n\"Ann,a@example.com\n", []string{`line 2: extraneous or missing " in quoted-field`}},
		{"fresha", "", []string{`the file is empty`}},
		{"simplybook", "Name\n\xff\n", []string{`the file is not valid UTF-8`}},
	}
	before := tableCounts(t, d)
	for _, tc := range tests {
		_, err := LoadClientsCSV(ctx, d, tc.vendor, []byte(tc.file), testNow, false)
		got := problemsOf(t, err)
		for _, w := range tc.want {
			if !hasProblem(got, w) {
				t.Errorf("%s %q: got\n  %s\nwant one starting with\n  %s", tc.vendor, tc.file, strings.Join(got, "\n  "), w)
			}
		}
		wantSameCounts(t, tableCounts(t, d), before)
	}
}

// Headers are matched whatever their case, spacing, underscores or byte-order mark, in a
// client list and in an appointments file alike.
func TestVendorHeaderVariants(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := Load(ctx, d, []byte(exampleFile(t)), testNow); err != nil {
		t.Fatal(err)
	}
	r, err := LoadClientsCSV(ctx, d, "square", []byte("\uFEFF  FIRST   NAME ;email_address;Phone  Number\nIvo;ivo@example.com;+56911112299\n"), testNow, true)
	if err != nil || len(r.Ignored) != 0 || r.Created != 1 || r.Rows[0].Email != "ivo@example.com" || r.Rows[0].Phone != "+56911112299" {
		t.Errorf("client list: %+v, %v", r, err)
	}
	r, err = LoadVendorCSV(ctx, d, "simplybook", []byte("\uFEFFstart_date,START TIME,service,Service  Provider,client_name\n2026-12-10,10:00,Haircut,Ben,Ivo Paz\n"), testNow, SwitchOptions{DryRun: true})
	if err != nil || !r.Appointments || len(r.Ignored) != 0 || r.Created != 1 {
		t.Errorf("appointments: %+v, %v", r, err)
	}
}
