package i18n

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
)

// Prefs are the business's formatting choices a Printer applies.
type Prefs struct {
	// Currency is the ISO 4217 code amounts are in (Money); "" means USD.
	Currency string
	// Clock24 prints times as 15:00 rather than 3:00 PM.
	Clock24 bool
}

// Printer turns message keys into texts, and amounts, dates and times into strings, for one
// language and one business's preferences. It is safe for concurrent use.
type Printer struct {
	c     *catalog
	en    *catalog
	prefs Prefs
}

// NewPrinter returns a printer for lang (Default when there is no catalog for it).
func NewPrinter(lang string, prefs Prefs) *Printer {
	all := catalogs()
	c := all[lang]
	if c == nil {
		c = all[Default]
	}
	if prefs.Currency == "" {
		prefs.Currency = "USD"
	}
	return &Printer{c: c, en: all[Default], prefs: prefs}
}

// Lang is the printer's language code ("es").
func (p *Printer) Lang() string { return p.c.lang }

// Prefs are the printer's formatting choices.
func (p *Printer) Prefs() Prefs { return p.prefs }

// T returns the text for key with its {placeholders} filled from args, given as name/value
// pairs: T("bookings.saved", "name", "Ana"). A plural message picks its form by the "count"
// argument. A key missing from the language falls back to English, and a key missing from
// English prints as itself, so a mistake shows on the page (and the catalog tests fail).
func (p *Printer) T(key string, args ...any) string {
	m, ok := p.c.messages[key]
	c := p.c
	if !ok {
		if m, ok = p.en.messages[key]; !ok {
			return key
		}
		c = p.en
	}
	text := m.text
	if m.plural != nil {
		text = m.plural[c.pluralForm(countArg(args))]
		if text == "" {
			text = m.plural[plural.Other]
		}
	}
	return p.fill(text, args)
}

// Msg is a message to be translated later, at the edge that knows the reader's language:
// domain packages return these for user-facing refusals. Its Error text is English.
type Msg struct {
	Key  string
	Args []any
}

// M makes a Msg.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

func (m Msg) Error() string { return NewPrinter(Default, Prefs{}).Msg(m) }

// Msg translates m.
func (p *Printer) Msg(m Msg) string { return p.T(m.Key, m.Args...) }

// fill replaces each {name} in text by its argument; integers get the locale's digit grouping.
// An unknown placeholder stays as written.
func (p *Printer) fill(text string, args []any) string {
	if len(args) == 0 || !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(text, '{')
		if open < 0 {
			break
		}
		close := strings.IndexByte(text[open:], '}')
		if close < 0 {
			break
		}
		name := text[open+1 : open+close]
		b.WriteString(text[:open])
		rest := text[open+close+1:]
		if v, ok := argValue(args, name); ok {
			arg := p.argString(v)
			b.WriteString(arg)
			// A value that ends a sentence with its own period ("1:00 a. m.") takes the
			// sentence's: "… a las 1:00 a. m.", never "a. m..".
			if strings.HasSuffix(arg, ".") && strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "..") {
				rest = rest[1:]
			}
		} else {
			b.WriteString(text[open : open+close+1])
		}
		text = rest
	}
	b.WriteString(text)
	return b.String()
}

func (p *Printer) argString(v any) string {
	switch n := v.(type) {
	case int:
		return p.Integer(int64(n))
	case int64:
		return p.Integer(n)
	case Msg:
		return p.Msg(n)
	case time.Time:
		return p.DateTime(n)
	case Clock:
		return p.Time(time.Time(n))
	case Day:
		return p.DateLong(time.Time(n))
	case List:
		parts := make([]string, len(n))
		for i, v := range n {
			parts[i] = p.argString(v)
		}
		return strings.Join(parts, ", ")
	case time.Duration:
		return p.Duration(n)
	}
	return fmt.Sprint(v)
}

func argValue(args []any, name string) (any, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if args[i] == name {
			return args[i+1], true
		}
	}
	return nil, false
}

func countArg(args []any) int64 {
	v, _ := argValue(args, "count")
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	}
	return 0
}

// pluralForm is the CLDR cardinal category of n in the catalog's language.
func (c *catalog) pluralForm(n int64) plural.Form {
	if n < 0 {
		n = -n
	}
	// MatchPlural takes the integer part and the visible fraction digits, none for a count.
	return plural.Cardinal.MatchPlural(c.tag, int(n), 0, 0, 0, 0)
}
