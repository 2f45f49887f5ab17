package clients

import (
	"errors"
	"strings"
	"testing"
)

// TestParsePhone reads numbers of CL, AR, MX, ES, US and GB as people write them, with and
// without the country code, in the region of the location the booking is at.
func TestParsePhone(t *testing.T) {
	for _, tc := range []struct{ in, region, want string }{
		{"+56 9 6123 4567", "CL", "+56961234567"},
		{"9 6123 4567", "CL", "+56961234567"},
		{"56961234567", "CL", "+56961234567"},
		{"+54 9 11 2345-6789", "AR", "+5491123456789"},
		{"011 15 2345-6789", "AR", "+5491123456789"},
		{"+52 55 1234 5678", "MX", "+525512345678"},
		{"55 1234 5678", "MX", "+525512345678"},
		{"+34 612 34 56 78", "ES", "+34612345678"},
		{"612 34 56 78", "ES", "+34612345678"},
		{"0034 612 34 56 78", "ES", "+34612345678"},
		{"+1 (201) 555-0123", "US", "+12015550123"},
		{"(201) 555-0123", "US", "+12015550123"},
		{"+44 7400 123456", "GB", "+447400123456"},
		{"07400 123456", "GB", "+447400123456"},
		{"+44 7400 123456", "CL", "+447400123456"}, // a foreign number keeps its country
	} {
		got, err := ParsePhone(tc.in, tc.region)
		if err != nil || got != tc.want {
			t.Errorf("ParsePhone(%q, %s) = %q, %v; want %q", tc.in, tc.region, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, region string }{
		{"123", "CL"}, {"9 6123", "CL"}, {"+56 1 2345", "CL"}, {"hello", "US"}, {"+44 7400 12", "GB"}, {"", "ES"},
	} {
		_, err := ParsePhone(tc.in, tc.region)
		var pe *PhoneError
		if !errors.As(err, &pe) || pe.Example == "" || !strings.Contains(err.Error(), pe.Example) {
			t.Errorf("ParsePhone(%q, %s) = %v; want a refusal with an example", tc.in, tc.region, err)
		}
	}
	if ex := PhoneExample("ES"); !strings.HasPrefix(ex, "+34 6") {
		t.Errorf("PhoneExample(ES) = %q, want a Spanish mobile", ex)
	}
}

// TestTextableReason: a stored number can receive a text only if it is a real number that can
// be a mobile; E.164-shaped numbers the API accepts but no country has are not.
func TestTextableReason(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"+56961234567", ""},
		{"+12015550123", ""}, // the US does not tell mobiles by the number
		{"+447400123456", ""},
		{"+442079460018", PhoneLandline}, // London fixed line
		{"+34912345678", PhoneLandline},  // Madrid fixed line
		{"+5600000000", PhoneInvalid},
		{"+999123456789", PhoneInvalid},
		{"", PhoneNone},
	} {
		if got := TextableReason(tc.in); got != tc.want {
			t.Errorf("TextableReason(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
