package clients

import (
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Phone numbers that texts can reach (docs/messages.md, "Channels"). A number is read and
// checked with libphonenumber's rules (github.com/nyaruka/phonenumbers): the booking site and
// the admin refuse a number that is not a real number of its country, and whether a stored
// number can receive a text is decided by the same rules when a message is planned and sent.
// /v3 keeps accepting any number in E.164 shape, as the reference does; one of those that is
// not a real number is simply not messageable, which the admin shows.

// PhoneError is a number refused by ParsePhone, with an example of a good one in the region
// it was read in ("" when the region has none).
type PhoneError struct {
	Example string
}

func (e *PhoneError) Error() string {
	if e.Example == "" {
		return "not a valid phone number"
	}
	return "not a valid phone number (for example " + e.Example + ")"
}

// ParsePhone reads a number as a person types it: with "+" and the country code, or, without
// "+", as it is dialled in region (ISO 3166-1 alpha-2; the location's or the business's
// country). It returns the number in E.164, or a *PhoneError when it is not a valid number.
func ParsePhone(s, region string) (string, error) {
	region = strings.ToUpper(strings.TrimSpace(region))
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "00") {
		s = "+" + s[2:]
	}
	n, err := phonenumbers.Parse(s, region)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return "", &PhoneError{Example: PhoneExample(region)}
	}
	return phonenumbers.Format(n, phonenumbers.E164), nil
}

// PhoneExample is a mobile number of region as it is written there with its country code
// ("+56 9 6123 4567" for CL), or "" for a region libphonenumber does not know.
func PhoneExample(region string) string {
	region = strings.ToUpper(strings.TrimSpace(region))
	n := phonenumbers.GetExampleNumberForType(region, phonenumbers.MOBILE)
	if n == nil {
		return ""
	}
	return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
}

// Why a stored number cannot receive a text (TextableReason).
const (
	PhoneNone     = "none"     // no number
	PhoneInvalid  = "invalid"  // not a real number of any country
	PhoneLandline = "landline" // a fixed line, toll-free or premium number: no texts
)

// TextableReason says why the stored number e164 cannot receive a text, or "" when it can: it
// must be a valid number whose type can be a mobile (countries such as the US do not tell
// mobiles from fixed lines by the number; those count as able).
func TextableReason(e164 string) string {
	e164 = strings.TrimSpace(e164)
	if e164 == "" {
		return PhoneNone
	}
	n, err := phonenumbers.Parse(e164, "")
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return PhoneInvalid
	}
	switch phonenumbers.GetNumberType(n) {
	case phonenumbers.MOBILE, phonenumbers.FIXED_LINE_OR_MOBILE, phonenumbers.PERSONAL_NUMBER, phonenumbers.VOIP,
		phonenumbers.UNKNOWN:
		return ""
	}
	return PhoneLandline
}
