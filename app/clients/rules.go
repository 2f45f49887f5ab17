package clients

import (
	"errors"
	"time"

	"frontdesk/db"
)

// The rules of a client's values, for a caller that checks values before they are a client's
// (the importer, app/importer, which reports each problem at its place in the file): the same
// rules Create and Update apply, one function each.

// Datatypes are the custom attribute datatypes, mirrored by the CHECK on
// custom_attributes.datatype.
var Datatypes = []string{TypeBoolean, TypeCategoric, TypeDate, TypeDatetime, TypeFile, TypeFloat, TypeInteger, TypeText, TypeTextarea}

// AttributeValueText returns the text stored for s as a value of a custom attribute of datatype
// (with options, for a categoric one), or why s does not fit it.
func AttributeValueText(datatype string, options []string, s string) (string, error) {
	canonical, msg := checkAttribute(&template{CustomAttribute: db.CustomAttribute{Datatype: datatype}, options: options}, s)
	if msg != "" {
		return "", errors.New(msg)
	}
	return canonical, nil
}

// NormalizeCountry returns s as a phone country is stored (upper case), or why it is not an
// ISO 3166-1 alpha-2 code.
func NormalizeCountry(s string) (string, error) {
	out, msg := checkCountry(s)
	if msg != "" {
		return "", errors.New(msg)
	}
	return out, nil
}

// IsWebURL reports whether s may be a client's photo or file answer: an absolute http or https
// URL of at most 2048 characters, without spaces or control characters.
func IsWebURL(s string) bool { return checkWebURL(s) == "" }

// Bounds of a client's numbers.
const (
	MinAge, MaxAge       = 1, 150
	MinGender, MaxGender = 0, 2 // 0 other, 1 female, 2 male
	MinBirthYear         = 1900
)

// ValidBirthDate reports whether day of month (with year, when known; 0 for unknown) is a day
// that month has: 29 February is possible while the year is unknown.
func ValidBirthDate(day, month, year int64) bool {
	if year == 0 {
		year = 2000 // a leap year
	}
	return time.Date(int(year), time.Month(month), int(day), 0, 0, 0, 0, time.UTC).Day() == int(day)
}
