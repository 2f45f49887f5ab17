package clients

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/db"
)

// Custom attribute datatypes, mirrored by the CHECK on custom_attributes.datatype.
const (
	TypeBoolean   = "boolean"
	TypeCategoric = "categoric"
	TypeDate      = "date"
	TypeDatetime  = "datetime"
	TypeFile      = "file"
	TypeFloat     = "float"
	TypeInteger   = "integer"
	TypeText      = "text"
	TypeTextarea  = "textarea"
)

// Bounds of attribute values stored as text.
const (
	maxTextarea = 10000
	maxURL      = 2048
)

// decimal is the JSON number grammar: what a float attribute accepts (no NaN, Inf, hex or _).
var decimal = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

type template struct {
	db.CustomAttribute
	options []string
}

type templates struct {
	byID map[int64]*template
	list []*template
}

func loadTemplates(ctx context.Context, q *db.Queries) (templates, error) {
	rows, err := q.ListCustomAttributes(ctx)
	if err != nil {
		return templates{}, err
	}
	options, err := q.ListAttributeOptions(ctx)
	if err != nil {
		return templates{}, err
	}
	t := templates{byID: map[int64]*template{}}
	for _, r := range rows {
		tpl := &template{CustomAttribute: r.CustomAttribute}
		t.byID[tpl.ID] = tpl
		t.list = append(t.list, tpl)
	}
	for _, o := range options {
		if tpl := t.byID[o.AttributeID]; tpl != nil {
			tpl.options = append(tpl.options, o.Label)
		}
	}
	return t, nil
}

// attributes validates the given values against their templates and returns them in canonical
// form (nil = clear).
func (v *validator) attributes(values []AttributeValue, t templates) map[int64]*string {
	out := map[int64]*string{}
	for _, a := range values {
		field := fmt.Sprintf("custom_attributes.%d", a.ID)
		tpl := t.byID[a.ID]
		if tpl == nil {
			v.fail(field, "no custom attribute has this id")
			continue
		}
		if _, dup := out[a.ID]; dup {
			v.fail(field, "is given more than once")
			continue
		}
		if a.Value == nil || strings.TrimSpace(*a.Value) == "" {
			out[a.ID] = nil
			continue
		}
		canonical, msg := checkAttribute(tpl, strings.TrimSpace(*a.Value))
		if msg != "" {
			v.fail(field, "%s", msg)
			continue
		}
		out[a.ID] = &canonical
	}
	return out
}

// checkAttribute returns the canonical text of s for the template's datatype, or why s does
// not fit it.
func checkAttribute(t *template, s string) (string, string) {
	if !utf8.ValidString(s) {
		return "", "must be valid UTF-8"
	}
	switch t.Datatype {
	case TypeBoolean:
		switch strings.ToLower(s) {
		case "true", "1":
			return "true", ""
		case "false", "0":
			return "false", ""
		}
		return "", "must be true or false"
	case TypeInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", "must be an integer"
		}
		return strconv.FormatInt(n, 10), ""
	case TypeFloat:
		if !decimal.MatchString(s) {
			return "", "must be a number"
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "", "must be a number within the range of a 64-bit float"
		}
		return s, ""
	case TypeDate:
		d, err := time.Parse(time.DateOnly, s)
		if err != nil || d.Format(time.DateOnly) != s {
			return "", "must be a date as YYYY-MM-DD"
		}
		return s, ""
	case TypeDatetime:
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return "", "must be an RFC 3339 date-time, e.g. 2026-11-21T15:04:05-03:00"
		}
		return s, ""
	case TypeCategoric:
		for _, o := range t.options {
			if strings.EqualFold(o, s) {
				return o, ""
			}
		}
		return "", "must be one of: " + strings.Join(t.options, ", ")
	case TypeFile:
		if msg := checkWebURL(s); msg != "" {
			return "", msg
		}
		return s, ""
	case TypeTextarea:
		if msg := multilineText(s, maxTextarea); msg != "" {
			return "", msg
		}
		return s, ""
	default: // text
		if msg := plainText(s, maxText); msg != "" {
			return "", msg
		}
		return s, ""
	}
}

// multilineText is plainText that allows line breaks and tabs.
func multilineText(s string, max int) string {
	if utf8.RuneCountInString(s) > max {
		return fmt.Sprintf("must be at most %d characters", max)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f }) {
		return "must not contain control characters"
	}
	return ""
}

// checkWebURL accepts absolute http and https URLs.
func checkWebURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || len(s) > maxURL || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		strings.ContainsFunc(s, func(r rune) bool { return r <= 0x20 || r == 0x7f }) {
		return fmt.Sprintf("must be an absolute http or https URL of at most %d characters", maxURL)
	}
	return ""
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }
