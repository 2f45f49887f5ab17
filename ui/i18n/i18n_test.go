package i18n

import (
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/feature/plural"
)

// Every language has every key, with the same placeholders, and the plural forms its grammar
// needs: a text added in one catalog only would show English (or the key) to someone.
func TestCatalogsAreComplete(t *testing.T) {
	all := catalogs()
	if len(all) < 2 {
		t.Fatalf("catalogs: %d, want at least English and Spanish", len(all))
	}
	en := all[Default]
	for lang, c := range all {
		for key, m := range en.messages {
			other, ok := c.messages[key]
			if !ok {
				t.Errorf("%s: missing %q", lang, key)
				continue
			}
			if got, want := placeholders(other), placeholders(m); got != want {
				t.Errorf("%s %q: placeholders %s, want %s (as in English)", lang, key, got, want)
			}
			if (m.plural == nil) != (other.plural == nil) {
				t.Errorf("%s %q: plural in one language only", lang, key)
			}
			for n := int64(0); other.plural != nil && n <= 1000; n++ {
				if f := c.pluralForm(n); other.plural[f] == "" {
					t.Errorf("%s %q: no %v form (needed for %d)", lang, key, f, n)
					break
				}
			}
		}
		for key := range c.messages {
			if _, ok := en.messages[key]; !ok {
				t.Errorf("%s: %q is not in the English catalog", lang, key)
			}
		}
	}
}

// placeholders lists the {names} a message uses, over all its forms.
func placeholders(m entry) string {
	texts := []string{m.text}
	for _, t := range m.plural {
		texts = append(texts, t)
	}
	set := map[string]bool{}
	for _, t := range texts {
		for {
			open := strings.IndexByte(t, '{')
			if open < 0 {
				break
			}
			end := strings.IndexByte(t[open:], '}')
			if end < 0 {
				break
			}
			set[t[open+1:open+end]] = true
			t = t[open+end+1:]
		}
	}
	delete(set, "count") // a singular form may spell the number out ("one field")
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return "{" + strings.Join(names, ",") + "}"
}

func TestCatalogFormatErrors(t *testing.T) {
	for name, raw := range map[string]string{
		"duplicate key":    `{"a": "x", "a": "y"}`,
		"not an object":    `["a"]`,
		"number value":     `{"a": 1}`,
		"unknown plural":   `{"a": {"one": "x", "other": "y", "lots": "z"}}`,
		"plural w/o other": `{"a": {"one": "x"}}`,
		"trailing garbage": `{"a": "x"`,
	} {
		if _, err := parseCatalog("en", []byte(raw)); err == nil {
			t.Errorf("%s: parsed, want an error", name)
		}
	}
}

func TestTextsAndPlurals(t *testing.T) {
	en, es := NewPrinter("en", Prefs{}), NewPrinter("es", Prefs{})
	cases := []struct {
		p    *Printer
		key  string
		args []any
		want string
	}{
		{en, "nav.bookings", nil, "Bookings"},
		{es, "nav.bookings", nil, "Reservas"},
		{en, "form.errors", []any{"count", 1}, "Please correct the field marked below."},
		{en, "form.errors", []any{"count", 3}, "Please correct the 3 fields marked below."},
		{es, "form.errors", []any{"count", 1}, "Corrige el campo marcado más abajo."},
		{es, "form.errors", []any{"count", 2}, "Corrige los 2 campos marcados más abajo."},
		{es, "form.whole_number", []any{"min", 5, "max", 1000}, "Ingresa un número entero entre 5 y 1.000."},
		{en, "form.whole_number", []any{"min", int64(0), "max", int64(525600)}, "Enter a whole number from 0 to 525,600."},
		{en, "no.such.key", nil, "no.such.key"},
		{es, "account.language.business", []any{"language", "English", "ignored", 1}, "El idioma del negocio (English)"},
		{es, "form.whole_number", []any{"min", 5}, "Ingresa un número entero entre 5 y {max}."},
	}
	for _, c := range cases {
		if got := c.p.T(c.key, c.args...); got != c.want {
			t.Errorf("%s T(%q, %v) = %q, want %q", c.p.Lang(), c.key, c.args, got, c.want)
		}
	}
	if got := NewPrinter("xx", Prefs{}).Lang(); got != Default {
		t.Errorf("a language without a catalog: printer in %q, want %q", got, Default)
	}
	if got := es.Msg(M("nav.clients")); got != "Clientes" {
		t.Errorf("Msg: %q", got)
	}
	if got := M("nav.clients").Error(); got != "Clients" {
		t.Errorf("Msg.Error (English): %q", got)
	}
}

// The money table of docs/i18n.md: each currency with its own minor digits and symbol, the
// language's separators.
func TestMoney(t *testing.T) {
	cases := []struct {
		lang, currency string
		cents          int64
		want           string
	}{
		{"en", "USD", 4500, "$45.00"},
		{"es", "USD", 4500, "$45,00"},
		{"en", "USD", 123456789, "$1,234,567.89"},
		{"es", "USD", 123456789, "$1.234.567,89"},
		{"en", "CLP", 1500000, "$15,000"},
		{"es", "CLP", 1500000, "$15.000"},
		{"es", "CLP", 1500050, "$15.001"}, // hundredths of a peso round half up
		{"es", "CLP", 1500049, "$15.000"},
		{"en", "EUR", 4550, "€45.50"},
		{"es", "EUR", 4550, "€45,50"},
		{"en", "JPY", 150000, "¥1,500"},
		{"es", "JPY", 150000, "¥1.500"},
		{"en", "CHF", 4500, "CHF\u00a045.00"},
		{"en", "BHD", 4500, "BHD\u00a045.000"},
		{"en", "USD", 0, "$0.00"},
		{"en", "USD", -4500, "-$45.00"},
		{"en", "ZZZ", 4500, "ZZZ\u00a045.00"},
	}
	for _, c := range cases {
		p := NewPrinter(c.lang, Prefs{Currency: c.currency})
		if got := p.Money(c.cents); got != c.want {
			t.Errorf("%s %s %d: %q, want %q", c.lang, c.currency, c.cents, got, c.want)
		}
	}
}

func TestParseMoney(t *testing.T) {
	cases := []struct {
		lang, currency, in string
		want               int64 // -1: refused
	}{
		{"en", "USD", "45", 4500},
		{"en", "USD", "45.5", 4550},
		{"en", "USD", "45.50", 4550},
		{"en", "USD", "1,234.56", 123456},
		{"en", "USD", "1,234", 123400},
		{"es", "USD", "45,50", 4550},
		{"es", "USD", "1.234,56", 123456},
		{"es", "USD", "12.5", 1250},      // a point that cannot be grouping is the decimal
		{"es", "CLP", "15.000", 1500000}, // grouping, not fifteen
		{"es", "CLP", "15000", 1500000},
		{"en", "CLP", "15,000", 1500000},
		{"es", "CLP", "15000,5", -1}, // pesos have no decimals
		{"en", "JPY", "1.5", -1},
		{"en", "USD", "45.555", -1},
		{"en", "USD", "1,23.00", -1},
		{"en", "USD", "-5", -1},
		{"en", "USD", "", -1},
		{"en", "USD", "abc", -1},
		{"en", "USD", "12..5", -1},
		{"es", "USD", " 45,5 ", 4550},
		{"es", "EUR", "1.234,5", 123450},
		{"en", "EUR", "1,234.5", 123450},
		{"es", "JPY", "1.500", 150000},
		{"en", "JPY", "1,500", 150000},
		{"es", "JPY", "1500,5", -1},
	}
	for _, c := range cases {
		p := NewPrinter(c.lang, Prefs{Currency: c.currency})
		got, err := p.ParseMoney(c.in)
		if c.want < 0 {
			if err == nil {
				t.Errorf("%s %s %q: %d, want refused", c.lang, c.currency, c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %s %q: %d, %v; want %d", c.lang, c.currency, c.in, got, err, c.want)
		}
	}
}

func TestDatesAndTimes(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	at := time.Date(2026, 11, 25, 15, 5, 0, 0, santiago)
	en24, en12 := NewPrinter("en", Prefs{Clock24: true}), NewPrinter("en", Prefs{})
	es24, es12 := NewPrinter("es", Prefs{Clock24: true}), NewPrinter("es", Prefs{})
	cases := []struct{ got, want string }{
		{en24.Date(at), "25 Nov 2026"},
		{es24.Date(at), "25 nov 2026"},
		{en24.DateLong(at), "Wednesday, 25 November 2026"},
		{es24.DateLong(at), "miércoles, 25 de noviembre de 2026"},
		{en24.DayShort(at), "Wed 25 Nov"},
		{es24.DayShort(at), "mié 25 nov"},
		{en24.Time(at), "15:05"},
		{en12.Time(at), "3:05 PM"},
		{es12.Time(at), "3:05 p. m."},
		{en12.Clock(0, 30), "12:30 AM"},
		{en12.Clock(12, 0), "12:00 PM"},
		{en24.Clock(7, 0), "07:00"},
		{es24.DateTime(at), "25 nov 2026, 15:05"},
		{en24.Weekday(time.Sunday), "Sunday"},
		{es24.Month(time.January), "enero"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
}

// The two 23:30s of the Santiago fall-back night are told apart by their offsets.
func TestOffset(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	kathmandu, _ := time.LoadLocation("Asia/Kathmandu")
	// 2026-04-05 00:00 local (UTC−3) falls back to 2026-04-04 23:00 (UTC−4).
	first := time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC).In(santiago)
	second := first.Add(time.Hour)
	if first.Format("15:04") != "23:30" || second.Format("15:04") != "23:30" {
		t.Fatalf("fixture: %s and %s are not both 23:30", first, second)
	}
	cases := []struct{ got, want string }{
		{Offset(first), "UTC\u22123"},
		{Offset(second), "UTC\u22124"},
		{Offset(time.Date(2026, 1, 1, 0, 0, 0, 0, kathmandu)), "UTC+5:45"},
		{Offset(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), "UTC"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// A time the clock shows twice on its day carries its offset, in Santiago's hour and Lord
// Howe's half hour; any other time is the time alone.
func TestTimeOnce(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	lordHowe, _ := time.LoadLocation("Australia/Lord_Howe")
	p := NewPrinter("en", Prefs{Clock24: true})
	// Santiago falls back at 2026-04-05 00:00 (UTC−3) to 23:00 (UTC−4); Lord Howe at
	// 2026-04-05 02:00 (UTC+11) to 01:30 (UTC+10:30).
	first := time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC).In(santiago)
	howe := time.Date(2026, 4, 4, 14, 45, 0, 0, time.UTC).In(lordHowe)
	cases := []struct {
		t    time.Time
		want string
	}{
		{first, "23:30 (UTC\u22123)"},
		{first.Add(time.Hour), "23:30 (UTC\u22124)"},
		{first.Add(-2 * time.Hour), "21:30"},
		{howe, "01:45 (UTC+11)"},
		{howe.Add(30 * time.Minute), "01:45 (UTC+10:30)"},
		{time.Date(2026, 1, 1, 1, 45, 0, 0, lordHowe), "01:45"},
	}
	for _, c := range cases {
		if got := p.TimeOnce(c.t); got != c.want {
			t.Errorf("TimeOnce(%s) = %q, want %q", c.t, got, c.want)
		}
	}
}

func TestPluralRulesComeFromCLDR(t *testing.T) {
	// French counts 0 as singular; English and Spanish do not. A third catalog gets its own
	// language's rules without code.
	fr := &catalog{tag: mustTag("fr")}
	es := &catalog{tag: mustTag("es")}
	if fr.pluralForm(0) != plural.One || es.pluralForm(0) != plural.Other || es.pluralForm(1) != plural.One {
		t.Fatal("plural forms do not follow CLDR")
	}
}

// A number typed with the language's decimal comma is read as the number it is; anything
// else is left for the validator.
func TestDecimalInput(t *testing.T) {
	es, en := NewPrinter("es", Prefs{}), NewPrinter("en", Prefs{})
	for _, tc := range []struct {
		p        *Printer
		in, want string
	}{
		{es, "1,5", "1.5"}, {es, "-0,25", "-0.25"}, {es, " 72,3 ", "72.3"}, {es, "1.5", "1.5"},
		{es, "1.234,5", "1.234,5"}, {es, "1,2,3", "1,2,3"}, {es, ",5", ",5"}, {es, "a,b", "a,b"},
		{en, "1,5", "1,5"}, {en, "1.5", "1.5"},
	} {
		if got := tc.p.DecimalInput(tc.in); got != tc.want {
			t.Errorf("%s: DecimalInput(%q) = %q, want %q", tc.p.Lang(), tc.in, got, tc.want)
		}
	}
}

// A value that ends with a period (Spanish 12-hour times: "1:00 a. m.") at the end of a
// sentence does not double it.
func TestNoDoublePeriod(t *testing.T) {
	es := NewPrinter("es", Prefs{Clock24: false})
	at := time.Date(2027, 4, 4, 1, 0, 0, 0, time.UTC)
	got := es.T("explain.msg.time_off", "provider", "Ana", "from", at, "to", at)
	if strings.Contains(got, "..") || !strings.HasSuffix(got, "a. m.") {
		t.Errorf("got %q, want one period after a. m.", got)
	}
}

// A time typed on the business's clock reads back as the time Clock printed, in either
// language; the other clock's forms are read where they cannot be misread, and a 12-hour clock
// refuses 1:00–12:59 without am or pm.
func TestParseClock(t *testing.T) {
	en24, en12 := NewPrinter("en", Prefs{Clock24: true}), NewPrinter("en", Prefs{})
	es24, es12 := NewPrinter("es", Prefs{Clock24: true}), NewPrinter("es", Prefs{})
	for _, p := range []*Printer{en24, en12, es24, es12} {
		for _, hm := range [][2]int{{0, 0}, {0, 30}, {9, 5}, {12, 0}, {12, 45}, {14, 30}, {23, 59}} {
			text := p.Clock(hm[0], hm[1])
			h, m, err := p.ParseClock(text)
			if err != nil || h != hm[0] || m != hm[1] {
				t.Errorf("%s 24h=%v: ParseClock(%q) = %d:%02d, %v; want %d:%02d", p.Lang(), p.Prefs().Clock24, text, h, m, err, hm[0], hm[1])
			}
		}
	}
	cases := []struct {
		p    *Printer
		in   string
		h, m int
		err  error
	}{
		{en24, "14:30", 14, 30, nil}, {en24, " 9:05 ", 9, 5, nil}, {en24, "2:30 pm", 14, 30, nil}, {en24, "2 PM", 14, 0, nil},
		{en24, "12 am", 0, 0, nil}, {en24, "12:10 p.m.", 12, 10, nil},
		{en12, "2:30 pm", 14, 30, nil}, {en12, "2:30pm", 14, 30, nil}, {en12, "2:30 P.M.", 14, 30, nil}, {en12, "14:30", 14, 30, nil},
		{en12, "00:15", 0, 15, nil}, {es12, "2:30 p. m.", 14, 30, nil}, {es12, "11:00 a. m.", 11, 0, nil},
		{en12, "2:30", 0, 0, ErrClockAmPm}, {en12, "12:00", 0, 0, ErrClockAmPm}, {es12, "10:00", 0, 0, ErrClockAmPm},
		{en24, "", 0, 0, ErrClock}, {en24, "14", 0, 0, ErrClock}, {en24, "24:00", 0, 0, ErrClock}, {en24, "9:60", 0, 0, ErrClock},
		{en24, "13 pm", 0, 0, ErrClock}, {en24, "0 am", 0, 0, ErrClock}, {en24, "9:5", 0, 0, ErrClock}, {en24, "9:00 xm", 0, 0, ErrClock},
		{en24, "123:00", 0, 0, ErrClock}, {en24, "9:00:00", 0, 0, ErrClock}, {en24, "-9:00", 0, 0, ErrClock}, {en24, "noon", 0, 0, ErrClock},
	}
	for _, c := range cases {
		h, m, err := c.p.ParseClock(c.in)
		if err != c.err || (err == nil && (h != c.h || m != c.m)) {
			t.Errorf("%s 24h=%v: ParseClock(%q) = %d:%02d, %v; want %d:%02d, %v", c.p.Lang(), c.p.Prefs().Clock24, c.in, h, m, err, c.h, c.m, c.err)
		}
	}
}

// DateTimeOnce is the date and time of DateTime, with the offset on a time the clock shows
// twice.
func TestDateTimeOnce(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	p := NewPrinter("es", Prefs{Clock24: true})
	first := time.Date(2026, 4, 5, 2, 30, 0, 0, time.UTC).In(santiago)
	if got, want := p.DateTimeOnce(first), "4 abr 2026, 23:30 (UTC\u22123)"; got != want {
		t.Errorf("DateTimeOnce = %q, want %q", got, want)
	}
	if got, want := p.DateTimeOnce(first.Add(-2*time.Hour)), p.DateTime(first.Add(-2*time.Hour)); got != want {
		t.Errorf("DateTimeOnce = %q, want DateTime's %q", got, want)
	}
}
