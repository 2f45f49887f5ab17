package clients

import (
	"database/sql"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/input"
	"frontdesk/db"
)

// maxText bounds every text field, as the reference's maxLength does.
const maxText = 255

// e164 is the phone format the reference requires: a plus, a non-zero digit, 7–15 digits in all.
var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// validator collects field errors so a form can show all of them at once.
type validator struct{ errs Errors }

func (v *validator) fail(field, format string, args ...any) {
	v.errs = append(v.errs, newFieldError(field, fmt.Sprintf(format, args...)))
}

// text applies a string field to dst: trimmed, bounded, no control characters; empty or null
// clears it when the column is optional.
func (v *validator) text(field string, in Field[string], dst *sql.NullString, check func(string) (string, string)) {
	if !in.Set {
		return
	}
	s := strings.TrimSpace(in.V)
	if in.Null || s == "" {
		*dst = sql.NullString{}
		return
	}
	if msg := plainText(s, maxText); msg != "" {
		v.fail(field, "%s", msg)
		return
	}
	if check != nil {
		var msg string
		if s, msg = check(s); msg != "" {
			v.fail(field, "%s", msg)
			return
		}
	}
	*dst = sql.NullString{String: s, Valid: true}
}

// integer applies an optional integer field within [lo, hi].
func (v *validator) integer(field string, in Field[int64], dst *sql.NullInt64, lo, hi int64) {
	if !in.Set {
		return
	}
	if in.Null {
		*dst = sql.NullInt64{}
		return
	}
	if in.V < lo || in.V > hi {
		v.fail(field, "must be between %d and %d", lo, hi)
		return
	}
	*dst = sql.NullInt64{Int64: in.V, Valid: true}
}

// plainText reports why s is not acceptable single-line text, or "".
func plainText(s string, max int) string {
	switch {
	case !utf8.ValidString(s):
		return "must be valid UTF-8"
	case utf8.RuneCountInString(s) > max:
		return fmt.Sprintf("must be at most %d characters", max)
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "must not contain control characters"
	}
	return ""
}

// checkName refuses what input.CheckName refuses: characters that hide or reorder a name.
func checkName(s string) (string, string) {
	if err := input.CheckName(s); err != nil {
		return "", err.Error()
	}
	return s, ""
}

func checkEmail(s string) (string, string) {
	s = strings.ToLower(s)
	addr, err := mail.ParseAddress(s)
	_, domain, _ := strings.Cut(s, "@")
	if err != nil || addr.Address != s || strings.ContainsAny(s, " \"") || !strings.Contains(domain, ".") ||
		strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", "must be a valid email address"
	}
	return s, ""
}

func checkPhone(s string) (string, string) {
	if !e164.MatchString(s) {
		return "", "must be in E.164 format, e.g. +56912345678"
	}
	return s, ""
}

func checkCountry(s string) (string, string) {
	s = strings.ToUpper(s)
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return "", "must be an ISO 3166-1 alpha-2 country code, e.g. CL"
	}
	return s, ""
}

func checkURL(s string) (string, string) {
	if msg := checkWebURL(s); msg != "" {
		return "", msg
	}
	return s, ""
}

// merge applies in to the stored client c (and its attribute values before) and validates the
// result as a whole. It returns the row to store and the attribute values to write (nil value =
// clear), or Errors.
func merge(c db.Client, before map[int64]string, in Input, t templates, o Options, now time.Time) (db.Client, map[int64]*string, error) {
	var v validator
	if in.FirstName.Set {
		s := strings.TrimSpace(in.FirstName.V)
		switch {
		case in.FirstName.Null || s == "":
			v.fail("first_name", "is required")
		case plainText(s, maxText) != "":
			v.fail("first_name", "%s", plainText(s, maxText))
		case input.CheckName(s) != nil:
			v.fail("first_name", "%v", input.CheckName(s))
		default:
			c.FirstName = s
		}
	} else if c.ID == 0 {
		v.fail("first_name", "is required")
	}
	v.text("last_name", in.LastName, &c.LastName, checkName)
	v.text("email", in.Email, &c.Email, checkEmail)
	v.text("phone", in.Phone, &c.Phone, checkPhone)
	v.text("second_phone", in.SecondPhone, &c.SecondPhone, checkPhone)
	v.text("identification_number", in.IdentificationNumber, &c.IdentificationNumber, nil)
	v.text("address", in.Address, &c.Address, nil)
	v.text("district", in.District, &c.District, nil)
	v.text("city", in.City, &c.City, nil)
	var region sql.NullString
	v.text("region", in.Region, &region, nil)
	if in.Region.Set {
		c.Region = region.String // the reference's region is a non-null string: cleared is ""
	}
	v.integer("age", in.Age, &c.Age, MinAge, MaxAge)
	if in.Gender.Set {
		if in.Gender.Null || in.Gender.V < MinGender || in.Gender.V > MaxGender {
			v.fail("gender", "must be 0 (other), 1 (female) or 2 (male)")
		} else {
			c.Gender = in.Gender.V
		}
	}
	v.integer("birth_day", in.BirthDay, &c.BirthDay, 1, 31)
	v.integer("birth_month", in.BirthMonth, &c.BirthMonth, 1, 12)
	v.integer("birth_year", in.BirthYear, &c.BirthYear, MinBirthYear, int64(now.Year()))
	v.text("record_number", in.RecordNumber, &c.RecordNumber, nil)
	v.text("photo", in.Photo, &c.Photo, checkURL)
	v.text("nationality", in.Nationality, &c.Nationality, nil)
	v.text("phone_country", in.PhoneCountry, &c.PhoneCountry, checkCountry)
	if in.Active.Set && !in.Active.Null {
		c.Active = in.Active.V
	}
	if len(v.errs) == 0 {
		checkBirthDate(&v, c)
		if !c.LastName.Valid && !c.Email.Valid && !c.Phone.Valid {
			v.fail("last_name", "at least one of last_name, email or phone is required")
		}
	}
	attrs := v.attributes(in.CustomAttributes, t)
	if o.RequireMandatory {
		for _, tpl := range t.list {
			if !tpl.Mandatory {
				continue
			}
			value, given := attrs[tpl.ID]
			_, stored := before[tpl.ID]
			if (given && value == nil) || (!given && !stored) {
				v.fail(fmt.Sprintf("custom_attributes.%d", tpl.ID), "%s is required", tpl.Name)
			}
		}
	}
	if len(v.errs) > 0 {
		return c, nil, v.errs
	}
	return c, attrs, nil
}

// checkBirthDate refuses a day the month does not have (31 April; 29 February of a common year,
// or of any year when the year is unknown is allowed).
func checkBirthDate(v *validator, c db.Client) {
	if !c.BirthDay.Valid || !c.BirthMonth.Valid {
		return
	}
	if !ValidBirthDate(c.BirthDay.Int64, c.BirthMonth.Int64, c.BirthYear.Int64) { // 0: year unknown
		v.fail("birth_day", "month %d has no day %d", c.BirthMonth.Int64, c.BirthDay.Int64)
	}
}
