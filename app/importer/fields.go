package importer

import (
	"database/sql"
	"net/mail"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"frontdesk/app/input"
	"frontdesk/app/money"
)

// maxText is the longest name or short text field, as in Connect v3 (maxLength 255).
const maxText = 255

// maxLongText bounds descriptions, notes and textarea attributes.
const maxLongText = 10000

// text checks a one-line string field: present when required, not longer than max characters,
// without control characters, and without leading or trailing spaces (which would make two
// keys or names look alike).
func (v *validator) text(path, s string, required bool, max int) bool {
	switch {
	case s == "" && required:
		v.ps.add(path, "is required")
	case utf8.RuneCountInString(s) > max:
		v.ps.add(path, "is longer than %d characters", max)
	case strings.TrimSpace(s) != s:
		v.ps.add(path, "%q has leading or trailing spaces", s)
	case strings.ContainsFunc(s, unicode.IsControl):
		v.ps.add(path, "contains control characters (a line break?)")
	default:
		return true
	}
	return false
}

// name checks a name: text (above) that input.CheckName also accepts, so an imported name
// cannot hide or reorder characters any more than one typed in the admin UI.
func (v *validator) name(path, s string, required bool, max int) bool {
	if !v.text(path, s, required, max) {
		return false
	}
	if err := input.CheckName(s); err != nil {
		v.ps.add(path, "%v", err)
		return false
	}
	return true
}

// optName is name for an optional field.
func (v *validator) optName(path string, s *string, max int) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	v.name(path, *s, false, max)
	return sql.NullString{String: *s, Valid: true}
}

// longText checks a multi-line string (descriptions, notes): line breaks and tabs allowed.
func (v *validator) longText(path, s string) bool {
	switch {
	case utf8.RuneCountInString(s) > maxLongText:
		v.ps.add(path, "is longer than %d characters", maxLongText)
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }):
		v.ps.add(path, "contains control characters")
	default:
		return true
	}
	return false
}

// optText checks an optional one-line string field and converts it for storage.
func (v *validator) optText(path string, s *string, max int) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	v.text(path, *s, false, max)
	return sql.NullString{String: *s, Valid: true}
}

// optLongText is optText for multi-line fields.
func (v *validator) optLongText(path string, s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	v.longText(path, *s)
	return sql.NullString{String: *s, Valid: true}
}

// key checks a file-local key and records it in index, refusing a second use in the section.
func (v *validator) key(path, key string, index map[string]int, i int, section string) {
	if !v.text(path, key, true, 100) {
		return
	}
	if strings.ContainsFunc(key, unicode.IsSpace) {
		v.ps.add(path, "%q: keys must not contain spaces", key)
		return
	}
	if first, dup := index[key]; dup {
		v.ps.add(path, "%q is already the key of %s[%d]", key, section, first)
		return
	}
	index[key] = i
}

// ref resolves a reference to a key of section, or records why it cannot.
func (v *validator) ref(path, key string, index map[string]int, section string) (int, bool) {
	if key == "" {
		v.ps.add(path, "is required")
		return 0, false
	}
	i, ok := index[key]
	if !ok {
		v.ps.add(path, "%q is not the key of any entry in %s", key, section)
	}
	return i, ok
}

var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

func (v *validator) phone(path string, s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	if !e164.MatchString(*s) {
		v.ps.add(path, "%q is not a phone number in E.164 form (want e.g. \"+56912345678\")", *s)
	}
	return sql.NullString{String: *s, Valid: true}
}

// email checks an address and returns it in lower case, as Connect v3 stores client emails.
func (v *validator) email(path, s string) string {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || len(s) > maxText {
		v.ps.add(path, "%q is not an email address", s)
	}
	return strings.ToLower(s)
}

// link reports an address the rule of the record it belongs to refuses (catalog.IsLink for a
// location, service or provider, clients.IsWebURL for a client).
func (v *validator) link(path, s string, valid func(string) bool) {
	if !valid(s) {
		v.ps.add(path, "%q is not an absolute http(s) URL", s)
	}
}

// amount reads a decimal money string into cents.
func (v *validator) amount(path, s string) int64 {
	c, err := money.Parse(s)
	if err != nil {
		v.ps.add(path, "%q %v", s, err)
	}
	return int64(c)
}

// percent reads a decimal percentage ("15.5") into hundredths of a percent.
func (v *validator) percent(path, s string) int64 {
	c, err := money.Parse(s)
	if err != nil || c > 10000 {
		v.ps.add(path, "%q is not a percentage between 0 and 100 with at most 2 decimals", s)
	}
	return int64(c)
}

// between checks an integer range.
func (v *validator) between(path string, n, lo, hi int64) {
	if n < lo || n > hi {
		v.ps.add(path, "%d is out of range (want %d to %d)", n, lo, hi)
	}
}

// orDefault returns *p, or def when the field was left out.
func orDefault[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func nullInt(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}
