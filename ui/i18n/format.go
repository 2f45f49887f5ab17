package i18n

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The catalogs' "_format." keys: separators, names and patterns of the language. Patterns use
// the same {placeholder} syntax as messages.
const (
	fmtDecimal       = "_format.decimal"
	fmtGroup         = "_format.group"
	fmtMoney         = "_format.money"
	fmtMonths        = "_format.months"
	fmtMonthsShort   = "_format.months_short"
	fmtWeekdays      = "_format.weekdays"
	fmtWeekdaysShort = "_format.weekdays_short"
	fmtDate          = "_format.date"
	fmtDateLong      = "_format.date_long"
	fmtDayShort      = "_format.day_short"
	fmtDateTime      = "_format.datetime"
	fmtTime12        = "_format.time12"
	fmtAM            = "_format.am"
	fmtPM            = "_format.pm"
)

// Integer prints n with the language's digit grouping (15.000 in Spanish).
func (p *Printer) Integer(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := group(strconv.FormatInt(n, 10), p.T(fmtGroup))
	if neg {
		return "-" + s
	}
	return s
}

func group(digits, sep string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Money prints an amount in hundredths of the business currency as people read it: the
// currency's symbol, its own number of minor digits and the language's separators
// (USD 4500 → "$45.00"; CLP 1500000 → "$15.000" in Spanish, "$15,000" in English).
func (p *Printer) Money(cents int64) string { return p.MoneyIn(cents, p.prefs.Currency) }

// MoneyIn is Money in another currency.
func (p *Printer) MoneyIn(cents int64, code string) string {
	scale, symbol := currencyFacts(code)
	neg := cents < 0
	if neg {
		cents = -cents
	}
	// The amount in the currency's smallest unit: hundredths rounded half up when it has
	// fewer minor digits (CLP), padded when it has more (BHD).
	units, pow := cents, int64(1)
	for range scale {
		pow *= 10
	}
	switch {
	case scale < 2:
		div := 100 / pow
		units = (cents + div/2) / div
	case scale > 2:
		units = cents * (pow / 100)
	}
	whole := strconv.FormatInt(units/pow, 10)
	frac := ""
	if scale > 0 {
		frac = strconv.FormatInt(pow+units%pow, 10)[1:]
	}
	amount := group(whole, p.T(fmtGroup))
	if frac != "" {
		amount += p.T(fmtDecimal) + frac
	}
	if r := []rune(symbol); unicode.IsLetter(r[len(r)-1]) {
		symbol += "\u00a0" // "CHF 45.00", not "CHF45.00"
	}
	s := p.fill(p.T(fmtMoney), []any{"symbol", symbol, "amount", amount})
	if neg {
		return "-" + s
	}
	return s
}

// currencyFacts gives a currency's minor digits and the narrow symbol people write in its
// country ("$" for CLP, not "CLP$"): CLDR data from golang.org/x/text. An unknown code prints
// as itself with two decimals.
func currencyFacts(code string) (scale int, symbol string) {
	u, err := currency.ParseISO(code)
	if err != nil {
		return 2, code
	}
	scale, _ = currency.Standard.Rounding(u)
	return scale, message.NewPrinter(language.Und).Sprint(currency.NarrowSymbol(u))
}

// MinorDigits is how many decimals amounts in the currency have (0 for CLP and JPY).
func MinorDigits(code string) int {
	scale, _ := currencyFacts(code)
	return scale
}

// ErrMoney is returned by ParseMoney for text that is not an amount.
var ErrMoney = errors.New("not an amount")

// ParseMoney reads an amount typed in the business currency and language ("15.000" or
// "45,50" in Spanish, "15,000" or "45.50" in English) into hundredths. Digit grouping is
// optional but must be regular; decimals may not exceed the currency's minor digits; the
// other language's decimal point is accepted where it cannot be a grouping ("12.5" in
// Spanish). Negative amounts are refused.
func (p *Printer) ParseMoney(s string) (int64, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	dec, grp := p.T(fmtDecimal), p.T(fmtGroup)
	if s == "" || len(s) > 32 {
		return 0, ErrMoney
	}
	whole, frac, hasFrac := cutLast(s, dec)
	if !hasFrac {
		if g, ok := ungroup(s, grp); ok {
			whole = g
		} else if other := otherDecimal(dec); strings.Count(s, other) == 1 {
			whole, frac, hasFrac = cutLast(s, other)
		}
	}
	whole, ok := ungroup(whole, grp)
	if !ok || whole == "" || !digitsOnly(whole) || (hasFrac && (frac == "" || !digitsOnly(frac))) {
		return 0, ErrMoney
	}
	if len(frac) > 2 || len(frac) > MinorDigits(p.prefs.Currency) {
		return 0, ErrMoney
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e13 {
		return 0, ErrMoney
	}
	f := int64(0)
	if frac != "" {
		f, _ = strconv.ParseInt((frac + "0")[:2], 10, 64)
	}
	return w*100 + f, nil
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// ungroup removes grouping separators that sit every three digits from the right; any other
// use of the separator is not a number.
func ungroup(s, sep string) (string, bool) {
	if !strings.Contains(s, sep) {
		return s, true
	}
	parts := strings.Split(s, sep)
	if len(parts[0]) == 0 || len(parts[0]) > 3 {
		return "", false
	}
	for _, g := range parts[1:] {
		if len(g) != 3 {
			return "", false
		}
	}
	return strings.Join(parts, ""), true
}

func otherDecimal(dec string) string {
	if dec == "," {
		return "."
	}
	return ","
}

func digitsOnly(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Weekday is the day's name ("miércoles").
func (p *Printer) Weekday(d time.Weekday) string { return p.nth(fmtWeekdays, int(d)) }

// WeekdayShort is the day's abbreviation ("mié").
func (p *Printer) WeekdayShort(d time.Weekday) string { return p.nth(fmtWeekdaysShort, int(d)) }

// Month is the month's name ("noviembre").
func (p *Printer) Month(m time.Month) string { return p.nth(fmtMonths, int(m)-1) }

func (p *Printer) nth(key string, i int) string {
	names := strings.Split(p.T(key), ",")
	if i < 0 || i >= len(names) {
		return ""
	}
	return strings.TrimSpace(names[i])
}

// dateArgs are the placeholders date patterns may use.
func (p *Printer) dateArgs(t time.Time) []any {
	return []any{
		"day", strconv.Itoa(t.Day()), "month", p.Month(t.Month()), "month_short", p.nth(fmtMonthsShort, int(t.Month())-1),
		"month_num", strconv.Itoa(int(t.Month())), "year", strconv.Itoa(t.Year()),
		"weekday", p.Weekday(t.Weekday()), "weekday_short", p.WeekdayShort(t.Weekday()),
	}
}

// Date is a compact date ("25 Nov 2026", "25 nov 2026"), in t's location.
func (p *Printer) Date(t time.Time) string { return p.fill(p.T(fmtDate), p.dateArgs(t)) }

// DateLong is a full date ("Wednesday, 25 November 2026", "miércoles, 25 de noviembre de 2026").
func (p *Printer) DateLong(t time.Time) string { return p.fill(p.T(fmtDateLong), p.dateArgs(t)) }

// DayShort is a day within a few weeks ("Wed 25 Nov", "mié 25 nov").
func (p *Printer) DayShort(t time.Time) string { return p.fill(p.T(fmtDayShort), p.dateArgs(t)) }

// Time is the time of day in t's location, on the business's clock ("15:00" or "3:00 PM").
func (p *Printer) Time(t time.Time) string { return p.Clock(t.Hour(), t.Minute()) }

// Clock prints a wall-clock time given as hour and minute.
func (p *Printer) Clock(hour, minute int) string {
	mm := strconv.Itoa(100 + minute)[1:]
	if p.prefs.Clock24 {
		return strconv.Itoa(100 + hour)[1:] + ":" + mm
	}
	ampm := p.T(fmtAM)
	if hour >= 12 {
		ampm = p.T(fmtPM)
	}
	h := hour % 12
	if h == 0 {
		h = 12
	}
	return p.fill(p.T(fmtTime12), []any{"hour", strconv.Itoa(h), "minute", mm, "ampm", ampm})
}

// DateTime is Date and Time together.
func (p *Printer) DateTime(t time.Time) string {
	return p.fill(p.T(fmtDateTime), []any{"date", p.Date(t), "time", p.Time(t)})
}

// TimeOnce is Time, with the offset when the clock shows that time twice on its day
// ("01:30 (UTC−4)" on a fall-back night): the time alone would not say which instant it is.
func (p *Printer) TimeOnce(t time.Time) string {
	if Repeated(t) {
		return p.Time(t) + " (" + Offset(t) + ")"
	}
	return p.Time(t)
}

// Repeated reports whether t's wall-clock time happens twice on its day (a fall-back overlap;
// the shifts tried cover every offset change in use, Lord Howe's 30 minutes included).
func Repeated(t time.Time) bool {
	for _, d := range []time.Duration{-time.Hour, time.Hour, -30 * time.Minute, 30 * time.Minute, -2 * time.Hour, 2 * time.Hour} {
		if u := t.Add(d); u.Hour() == t.Hour() && u.Minute() == t.Minute() && u.Day() == t.Day() {
			return true
		}
	}
	return false
}

// Offset is the package function Offset, for templates that hold a printer.
func (p *Printer) Offset(t time.Time) string { return Offset(t) }

// Offset names t's offset from UTC as people read it on a booking page ("UTC−3",
// "UTC+5:45", "UTC"); with the time it tells apart the two 01:30s of a fall-back night.
func Offset(t time.Time) string {
	_, secs := t.Zone()
	if secs == 0 {
		return "UTC"
	}
	sign := "+"
	if secs < 0 {
		sign, secs = "\u2212", -secs
	}
	s := "UTC" + sign + strconv.Itoa(secs/3600)
	if m := secs % 3600 / 60; m != 0 {
		s += ":" + strconv.Itoa(100 + m)[1:]
	}
	return s
}

// Clock is a message argument printed as the time of day (Printer.Time) in its location; a
// time.Time argument prints as date and time (Printer.DateTime), a time.Duration as Duration.
// Domain packages use them so a message keeps its times until the edge knows the reader's
// language and clock.
type Clock time.Time

// Duration says a length of time in whole days, hours and minutes ("2 h 30 min", "3 days").
func (p *Printer) Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	mins := int64(d.Round(time.Minute) / time.Minute)
	days, hours, minutes := mins/(24*60), mins/60%24, mins%60
	var parts []string
	if days > 0 {
		parts = append(parts, p.T("duration.days", "count", days))
	}
	if hours > 0 {
		parts = append(parts, p.T("duration.hours", "count", hours))
	}
	if minutes > 0 || len(parts) == 0 {
		parts = append(parts, p.T("duration.minutes", "count", minutes))
	}
	return strings.Join(parts, " ")
}

// Day is a message argument printed as a whole date (Printer.DateLong) in its location.
type Day time.Time

// List is a message argument printed as its items, each as an argument would be, joined by
// commas.
type List []any

// DecimalInput rewrites a decimal number typed with the language's decimal comma ("1,5" in
// Spanish) into the point form that programs store and read ("1.5"). Anything else — a point
// already, grouping, text — is returned as typed, for the validator to judge.
func (p *Printer) DecimalInput(s string) string {
	sep := p.T(fmtDecimal)
	if sep == "." || strings.Count(s, sep) != 1 {
		return s
	}
	whole, frac, _ := strings.Cut(strings.TrimSpace(s), sep)
	sign := ""
	if strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		sign, whole = whole[:1], whole[1:]
	}
	if whole == "" || frac == "" || !digitsOnly(whole) || !digitsOnly(frac) {
		return s
	}
	return sign + whole + "." + frac
}

// DateTimeOnce is DateTime with TimeOnce's time: the offset is added when the clock shows that
// time twice on its day.
func (p *Printer) DateTimeOnce(t time.Time) string {
	return p.fill(p.T(fmtDateTime), []any{"date", p.Date(t), "time", p.TimeOnce(t)})
}

// Errors of ParseClock.
var (
	// ErrClock is text that is not a time of day.
	ErrClock = errors.New("not a time of day")
	// ErrClockAmPm is a time a 12-hour clock cannot place without "am" or "pm" (2:30).
	ErrClockAmPm = errors.New("a 12-hour time needs am or pm")
)

// ParseClock reads a time of day typed on the printer's clock, the counterpart of Clock: on a
// 24-hour clock "14:30" or "9:05"; on a 12-hour one "2:30 pm", "2:30 PM", "2:30 p. m." or
// "2 pm". Each clock also reads the other's forms where they cannot be misread: "2:30 pm" on a
// 24-hour clock, "14:30" and "00:15" on a 12-hour one. A 12-hour clock refuses 1:00 to 12:59
// without am or pm (ErrClockAmPm): the reader cannot tell whether morning or evening was meant.
func (p *Printer) ParseClock(s string) (hour, minute int, err error) {
	return ParseClock(s, p.prefs.Clock24)
}

// ParseClock is Printer.ParseClock for code that holds the clock setting, not a printer.
func ParseClock(s string, clock24 bool) (hour, minute int, err error) {
	s = strings.ToLower(strings.TrimSpace(strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)))
	if s == "" || len(s) > 16 {
		return 0, 0, ErrClock
	}
	end := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != ':' })
	num, suffix := s, ""
	if end >= 0 {
		num, suffix = s[:end], strings.NewReplacer(" ", "", ".", "").Replace(s[end:])
	}
	h, m, hasMinutes := strings.Cut(num, ":")
	if len(h) < 1 || len(h) > 2 || !digitsOnly(h) || (hasMinutes && (len(m) != 2 || !digitsOnly(m))) {
		return 0, 0, ErrClock
	}
	hour, _ = strconv.Atoi(h)
	if hasMinutes {
		minute, _ = strconv.Atoi(m)
	}
	if minute > 59 {
		return 0, 0, ErrClock
	}
	switch suffix {
	case "am", "pm":
		if hour < 1 || hour > 12 {
			return 0, 0, ErrClock
		}
		hour %= 12
		if suffix == "pm" {
			hour += 12
		}
		return hour, minute, nil
	case "":
		switch {
		case !hasMinutes || hour > 23:
			return 0, 0, ErrClock
		case !clock24 && hour >= 1 && hour <= 12:
			return 0, 0, ErrClockAmPm
		}
		return hour, minute, nil
	}
	return 0, 0, ErrClock
}
