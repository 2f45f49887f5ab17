package clients

import "testing"

// A number typed without "+" is read as the country of the reader dials it; with "+" the
// country does not matter; what fits no reading is refused as before.
func TestNormalizePhoneIn(t *testing.T) {
	for _, tc := range []struct{ in, country, want string }{
		{"9 8765 4321", "CL", "+56987654321"},     // a Chilean mobile, as dialled in Chile
		{"2 2123 4567", "cl", "+56221234567"},     // a Santiago landline; the code in any case
		{"56 9 8765 4321", "CL", "+56987654321"},  // the calling code without "+"
		{"+56 9 8765 4321", "US", "+56987654321"}, // "+" wins over the country
		{"020 7946 0018", "GB", "+442079460018"},  // the trunk 0 dropped
		{"06 6982 1234", "IT", "+390669821234"},   // Italy keeps its leading 0
		{"(212) 555-0134", "US", "+12125550134"},  // North America
		{"1 212 555 0134", "US", "+12125550134"},  // … with the trunk 1
		{"8 916 123-45-67", "RU", "+79161234567"}, // Russia's trunk 8
		{"612 34 56 78", "ES", "+34612345678"},    // Spain: no trunk prefix
		{"+1 212 555 0134", "", "+12125550134"},   // no country: as NormalizePhone
	} {
		got, err := NormalizePhoneIn(tc.in, tc.country)
		if err != nil || got != tc.want {
			t.Errorf("NormalizePhoneIn(%q, %q) = %q, %v; want %q", tc.in, tc.country, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, country string }{
		{"987654321", ""},        // no country to read it in
		{"987654321", "XX"},      // a country the table does not know
		{"12 34", "CL"},          // no Chilean number is that short
		{"9 8765 4321 x2", "CL"}, // not digits
		{"", "CL"},
	} {
		if got, err := NormalizePhoneIn(tc.in, tc.country); err == nil {
			t.Errorf("NormalizePhoneIn(%q, %q) = %q, want it refused", tc.in, tc.country, got)
		}
	}
}

// The table knows every country a location can be in that has a calling code, with sane rows.
func TestCallingPlans(t *testing.T) {
	plans := callingPlans()
	if len(plans) < 240 {
		t.Fatalf("%d countries in calling_codes.txt, want every one", len(plans))
	}
	for code, p := range plans {
		if len(code) != 2 || p.code == "" || !onlyDigits(p.code) || !onlyDigits(p.trunk) || len(p.lengths) == 0 {
			t.Errorf("%s: %+v", code, p)
		}
	}
	if p := plans["CL"]; p.code != "56" || p.trunk != "" {
		t.Errorf("CL: %+v", p)
	}
}
