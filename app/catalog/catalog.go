// Package catalog validates and saves what the owner edits in the admin UI's catalog pages:
// services, categories, locations (with opening hours and closures), providers (with weekly
// hours, breaks and time off) and custom attribute templates. The catalog has no write API
// (docs/api.md lists it read-only), so these functions are its only writers besides the importer.
//
// Every write is one db.InTx transaction that validates against the current rows and writes
// the service.updated events its change causes in the same transaction (service_events.go).
// Inputs are the owner's text as typed, in structs whose `form` tags name the form fields;
// a refused input returns Invalid, keyed by those names, and writes nothing.
package catalog

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"frontdesk/app/fail"
	"frontdesk/app/input"
	"frontdesk/app/money"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// ErrNotFound: the record to change does not exist (any more).
var ErrNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "record", Message: "catalog: not found"}

// Invalid is a refused input: one message per form field, keyed by the field's form name.
// Nothing was written. Fields are English texts; Msgs (products.go) are catalog messages the
// page translates (package frontdesk/ui/i18n).
type Invalid struct {
	Fields map[string]string
	Msgs   map[string]i18n.Msg
}

// Fail is the refusal as the shared vocabulary says it: invalid, naming the first field at
// fault in the order of the field names.
func (e *Invalid) Fail() *fail.Error {
	var first string
	for k := range e.Fields {
		if first == "" || k < first {
			first = k
		}
	}
	for k := range e.Msgs {
		if first == "" || k < first {
			first = k
		}
	}
	if m, ok := e.Msgs[first]; ok {
		return &fail.Error{Code: fail.CodeInvalid, Field: first, Message: m.Error(), Msg: m}
	}
	return &fail.Error{Code: fail.CodeInvalid, Field: first, Message: e.Fields[first]}
}

func (e *Invalid) Error() string {
	all := map[string]string{}
	for k, v := range e.Fields {
		all[k] = v
	}
	for k, m := range e.Msgs {
		all[k] = m.Error()
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+all[k])
	}
	return "invalid input: " + strings.Join(parts, "; ")
}

// problems collects field messages while an input is checked; the first message per field wins.
type problems map[string]string

func (p problems) add(field, format string, args ...any) {
	if _, ok := p[field]; !ok {
		p[field] = fmt.Sprintf(format, args...)
	}
}

// err is nil when nothing was recorded.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &Invalid{Fields: p}
}

// Bounds of free text. MaxName bounds every name and one-line text of the catalog (a location's
// address lines, a closure's reason); the importer holds a file to it too.
const (
	MaxName        = 200
	maxDescription = 2000
	maxURL         = 2048
)

// text checks a one-line text field and returns it trimmed.
func (p problems) text(field, s string, required bool, max int) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "" && required:
		p.add(field, "Enter this (up to %d characters).", max)
	case utf8.RuneCountInString(s) > max:
		p.add(field, "Use at most %d characters.", max)
	case !utf8.ValidString(s) || strings.ContainsFunc(s, isControl):
		p.add(field, "Remove the control characters.")
	}
	return s
}

// name checks a name (one-line text that must look like what it is: input.CheckName) and
// returns it trimmed.
func (p problems) name(field, s string, required bool, max int) string {
	s = p.text(field, s, required, max)
	if _, bad := p[field]; !bad {
		if m, ok := NameProblem(input.CheckName(s)); ok {
			// The catalog's messages are still English text; this one comes from the message
			// catalog so it is translated when they are.
			p.add(field, "%s", m.Error())
		}
	}
	return s
}

// NameProblem is the owner-facing message for a name input.CheckName refused (err), and true;
// for any other error, false.
func NameProblem(err error) (i18n.Msg, bool) {
	var ne *input.NameError
	if !errors.As(err, &ne) {
		return i18n.Msg{}, false
	}
	code := fmt.Sprintf("U+%04X", ne.Rune)
	switch ne.Kind {
	case input.KindBidi:
		return i18n.M("guard.name.bidi", "code", code), true
	case input.KindControl:
		return i18n.M("guard.name.control", "code", code), true
	default:
		return i18n.M("guard.name.invisible", "code", code), true
	}
}

// longText is text for multi-line fields (line breaks and tabs allowed).
func (p problems) longText(field, s string, max int) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	switch {
	case utf8.RuneCountInString(s) > max:
		p.add(field, "Use at most %d characters.", max)
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && isControl(r) }):
		p.add(field, "Remove the control characters.")
	}
	return s
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// clip shortens what the owner typed for quoting in a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// whole reads a whole number in [lo, hi]; an empty field is def.
func (p problems) whole(field, s string, def, lo, hi int64) int64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		p.add(field, "Enter a whole number from %d to %d.", lo, hi)
		return def
	}
	return n
}

// amount reads a decimal money string ("12.50") into cents.
func (p problems) amount(field, s string) int64 {
	c, err := money.Parse(strings.TrimSpace(s))
	if err != nil {
		p.add(field, "Enter an amount like 15000 or 12.50 (at most 2 decimals).")
	}
	return int64(c)
}

// link checks an absolute http(s) URL.
func (p problems) link(field, s string) string {
	s = strings.TrimSpace(s)
	if !IsLink(s) {
		p.add(field, "Enter an absolute http or https address (up to %d characters).", maxURL)
	}
	return s
}

// IsLink reports whether s is what the catalog stores as a picture's address: an absolute
// http or https URL of at most 2048 characters, without spaces or control characters.
func IsLink(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && len(s) <= maxURL &&
		!strings.ContainsFunc(s, func(r rune) bool { return r <= 0x20 || r == 0x7f })
}

// email checks an address and returns it in lower case ("" stays "").
func (p problems) email(field, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || len(s) > MaxName {
		p.add(field, "Enter an email address like name@example.com.")
	}
	return strings.ToLower(s)
}

var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// phone reads a phone number in international form, ignoring the spaces, dashes, dots and
// parentheses people type, and stores it as E.164 ("+56 9 1234 5678" → "+56912345678").
func (p problems) phone(field, s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" -.()\u00a0", r) {
			return -1
		}
		return r
	}, s)
	if s != "" && !e164.MatchString(s) {
		p.add(field, "Enter the number in international form with the country code, like +56 9 1234 5678.")
	}
	return s
}

// ids reads the ids of a multiple choice, each of which must be in known.
func (p problems) ids(field string, raw []string, known map[int64]bool) []int64 {
	var out []int64
	for _, s := range raw {
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || !known[id] {
			p.add(field, "Choose from the list.")
			continue
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// optionalID reads one optional choice ("" = none) that must be in known.
func (p problems) optionalID(field, s string, known map[int64]bool) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || !known[id] {
		p.add(field, "Choose from the list.")
		return 0, false
	}
	return id, true
}

// companyID is the installation's company id for payloads, 0 before the business is set up.
func companyID(ctx context.Context, q *db.Queries) (int64, error) {
	c, err := q.GetCompany(ctx)
	if db.IsNotFound(err) {
		return 0, nil
	}
	return c.ID, err
}

// newUUID returns a random (version 4) UUID for new locations and services.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// FormatIDs renders ids for a multiple-choice form field.
func FormatIDs(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

func formatID(id int64, valid bool) string {
	if !valid {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: true} }
