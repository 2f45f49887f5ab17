package mcp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"frontdesk/app/booking"
)

// Models are bad at date arithmetic, so the resolve_date tool does it: a phrase a customer
// says, in English or Spanish, becomes a date in the location's own calendar (its "today").
// The rules are in docs/mcp.md ("Dates"); the choices where people disagree:
//
//   - "Tuesday", "this Tuesday", "el martes" is the nearest Tuesday from today on (today if
//     today is a Tuesday, with a note);
//   - "next Tuesday", "el próximo martes", "el martes que viene" is the first Tuesday after
//     today; when that falls in the current week (Monday to Sunday), some people mean the one a
//     week later, and a note gives that date too;
//   - "Tuesday next week", "el martes de la semana que viene" is the Tuesday of next week;
//   - "next week" is its Monday (with a note to ask which day), "this weekend" its Saturday;
//   - a day and month without a year is the next such date from today on;
//   - 4/5 is refused unless one reading is impossible (25/12 can only be 25 December).

// resolvedDate is what a phrase means.
type resolvedDate struct {
	Date booking.Date
	// Minute is a time of day the phrase carried ("tomorrow at 5pm"), or -1.
	Minute int
	Note   string
}

// dateError is a phrase that is not understood; its message tells the model what would be.
type dateError struct{ msg string }

func (e *dateError) Error() string { return e.msg }

const datePhraseHelp = `use YYYY-MM-DD or a phrase such as "today", "tomorrow", "next Tuesday", ` +
	`"in 3 days", "April 4", "mañana", "el próximo martes", "4 de abril"`

// resolveDate reads phrase relative to today (the location's local date).
func resolveDate(phrase string, today booking.Date) (resolvedDate, error) {
	s := normalizePhrase(phrase)
	if s == "" {
		return resolvedDate{}, &dateError{"is empty; " + datePhraseHelp}
	}
	out := resolvedDate{Minute: -1}
	var timeNote string
	s, out.Minute, timeNote = cutTimeOfDay(s)
	s = cutPartOfDay(s)
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "for "), "para "))
	s = trimWords(s, "on", "the", "el", "la", "este", "esta")
	if a, b, ambiguous := ambiguousSlashDate(s, today); ambiguous {
		return resolvedDate{}, &dateError{fmt.Sprintf("%q could be %s or %s; ask the customer, then write the month as a word or use YYYY-MM-DD", strings.TrimSpace(phrase), longDate(a), longDate(b))}
	}
	d, note, ok := resolveWords(s, today)
	if !ok {
		return resolvedDate{}, &dateError{fmt.Sprintf("%q is not a date I understand; %s", strings.TrimSpace(phrase), datePhraseHelp)}
	}
	out.Date = d
	out.Note = joinNotes(note, timeNote)
	if d.Before(today) {
		out.Note = joinNotes(out.Note, "that date is in the past")
	}
	return out, nil
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// normalizePhrase lower-cases, drops accents ("mañana" → "manana", "sábado" → "sabado"),
// turns punctuation into spaces and collapses spaces.
func normalizePhrase(s string) string {
	if len(s) > maxPhrase*4 {
		s = s[:maxPhrase*4]
	}
	return fold(s)
}

// fold lower-cases s, drops its accents, turns punctuation into spaces and collapses spaces:
// what searches and date phrases compare.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		folded = strings.ToLower(s)
	}
	folded = strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == '/' || r == ':':
			return r
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return r
		}
		return ' '
	}, folded)
	return strings.Join(strings.Fields(folded), " ")
}

// trimWords drops leading filler words.
func trimWords(s string, words ...string) string {
	for changed := true; changed; {
		changed = false
		for _, w := range words {
			if strings.HasPrefix(s, w+" ") {
				s, changed = strings.TrimSpace(s[len(w)+1:]), true
			}
		}
	}
	return s
}

// datePatterns are the resolver's patterns, compiled on first use rather than at start (they
// are memory an idle server need not hold).
type datePatterns struct {
	timeSuffix, partOfDay                                    *regexp.Regexp
	reISODate, reSlashDate, reRelative, reFromNow, reWeekday *regexp.Regexp
	reMonthFirst, reDayFirst                                 *regexp.Regexp
}

var patterns = sync.OnceValue(func() *datePatterns {
	return &datePatterns{
		// "at 5pm", "at 17:30", "a las 5", "a la 1 pm", "5:30 pm", "17:00" at the end.
		timeSuffix: regexp.MustCompile(`(?:^|\s)(?:(?:at|@|a las|a la|alas)\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm|a m|p m|hrs|h)?$`),
		// A trailing bare number is a time only after "at"/"a las" or with minutes or am/pm.
		partOfDay: regexp.MustCompile(`\s+(?:in the (?:morning|afternoon|evening)|morning|afternoon|evening|night|` +
			`(?:por|en|de) la (?:manana|tarde|noche)|temprano)$`),
		reISODate:   regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})$`),
		reSlashDate: regexp.MustCompile(`^(\d{1,2})[/-](\d{1,2})(?:[/-](\d{2}|\d{4}))?$`),
		reRelative:  regexp.MustCompile(`^(?:in|within|en|dentro de) (\w+) (days?|weeks?|dias?|semanas?)$`),
		reFromNow:   regexp.MustCompile(`^(\w+) (days?|weeks?) (?:from (?:now|today)|later)$`),
		reWeekday:   regexp.MustCompile(`^(this |coming |this coming |next |proximo |el proximo )?([a-z]+)( next week| de la semana que viene| de la proxima semana| que viene| proximo| after next)?$`),
		// "april 4", "april 4th", "april 4 2027", "4 april", "4th of april", "4 de abril de 2027",
		// optionally after a weekday ("saturday april 4", "sabado 4 de abril").
		reMonthFirst: regexp.MustCompile(`^(?:([a-z]+) )?([a-z]+) (\d{1,2})(?:st|nd|rd|th)?(?: (\d{4}))?$`),
		reDayFirst:   regexp.MustCompile(`^(?:([a-z]+) )?(\d{1,2})(?:st|nd|rd|th)?(?: of| de)? ([a-z]+)(?:(?: de)? (\d{4}))?$`),
	}
})

// cutTimeOfDay removes a time of day at the end of s and returns it in minutes (-1 if none).
func cutTimeOfDay(s string) (rest string, minute int, note string) {
	m := patterns().timeSuffix.FindStringSubmatchIndex(s)
	if m == nil {
		return s, -1, ""
	}
	whole := s[m[0]:m[1]]
	hasLead := strings.Contains(whole, "at ") || strings.Contains(whole, "@") || strings.Contains(whole, "a la")
	hasMinutes := m[4] >= 0
	suffix := ""
	if m[6] >= 0 {
		suffix = strings.ReplaceAll(s[m[6]:m[7]], " ", "")
	}
	if !hasLead && !hasMinutes && suffix != "am" && suffix != "pm" {
		return s, -1, "" // "april 4", "in 3": a number, not a time
	}
	h, _ := strconv.Atoi(s[m[2]:m[3]])
	mins := 0
	if hasMinutes {
		mins, _ = strconv.Atoi(s[m[4]:m[5]])
	}
	if h > 23 || mins > 59 || (suffix == "am" || suffix == "pm") && (h == 0 || h > 12) {
		return s, -1, ""
	}
	switch {
	case suffix == "pm" && h < 12:
		h += 12
	case suffix == "am" && h == 12:
		h = 0
	case suffix != "am" && suffix != "pm" && h >= 1 && h <= 12 && !strings.HasPrefix(s[m[2]:m[3]], "0"):
		note = fmt.Sprintf("%d without am/pm could be %02d:%02d or %02d:%02d; ask if unsure", h, h%12, mins, h%12+12, mins)
		if h == 12 {
			note = ""
		}
	}
	return strings.TrimSpace(s[:m[0]]), h*60 + mins, note
}

func cutPartOfDay(s string) string {
	if s == "manana" { // "mañana" alone is tomorrow, not "the morning"
		return s
	}
	return strings.TrimSpace(patterns().partOfDay.ReplaceAllString(s, ""))
}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "sun": time.Sunday, "domingo": time.Sunday,
	"monday": time.Monday, "mon": time.Monday, "lunes": time.Monday,
	"tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday, "martes": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday, "miercoles": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "jueves": time.Thursday,
	"friday": time.Friday, "fri": time.Friday, "viernes": time.Friday,
	"saturday": time.Saturday, "sat": time.Saturday, "sabado": time.Saturday,
}

var months = map[string]time.Month{
	"january": 1, "jan": 1, "enero": 1, "february": 2, "feb": 2, "febrero": 2,
	"march": 3, "mar": 3, "marzo": 3, "april": 4, "apr": 4, "abril": 4, "may": 5, "mayo": 5,
	"june": 6, "jun": 6, "junio": 6, "july": 7, "jul": 7, "julio": 7,
	"august": 8, "aug": 8, "agosto": 8, "september": 9, "sep": 9, "sept": 9, "septiembre": 9, "setiembre": 9,
	"october": 10, "oct": 10, "octubre": 10, "november": 11, "nov": 11, "noviembre": 11,
	"december": 12, "dec": 12, "diciembre": 12,
}

var numbers = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30,
	"un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
	"ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "catorce": 14, "quince": 15, "treinta": 30,
}

var fixedDays = map[string]int{
	"today": 0, "tonight": 0, "now": 0, "hoy": 0, "ahora": 0, "esta noche": 0, "noche": 0,
	"tomorrow": 1, "tmrw": 1, "tmr": 1, "manana": 1,
	"day after tomorrow": 2, "the day after tomorrow": 2, "pasado manana": 2,
	"yesterday": -1, "ayer": -1, "anteayer": -2,
}

// resolveWords resolves s, already normalised and stripped of time and filler.
func resolveWords(s string, today booking.Date) (booking.Date, string, bool) {
	if n, ok := fixedDays[s]; ok {
		return today.AddDays(n), "", true
	}
	switch s {
	case "next week", "la proxima semana", "proxima semana", "la semana que viene", "semana que viene", "la otra semana":
		return mondayAfter(today), "next week starts on this Monday; ask the customer which day", true
	case "this weekend", "weekend", "fin de semana", "este fin de semana", "el fin de semana":
		return nextWeekday(today, time.Saturday, true), "read as the Saturday; Sunday is the day after", true
	case "next weekend", "el proximo fin de semana", "el fin de semana que viene":
		return nextWeekday(mondayAfter(today), time.Saturday, true), "read as the Saturday; Sunday is the day after", true
	}
	if m := patterns().reISODate.FindStringSubmatch(s); m != nil {
		d, ok := civil(m[1], m[2], m[3])
		return d, "", ok
	}
	if m := patterns().reRelative.FindStringSubmatch(s); m != nil {
		return relative(today, m[1], m[2])
	}
	if m := patterns().reFromNow.FindStringSubmatch(s); m != nil {
		return relative(today, m[1], m[2])
	}
	if m := patterns().reWeekday.FindStringSubmatch(s); m != nil {
		if wd, ok := weekdays[m[2]]; ok {
			d, note := weekdayDate(today, wd, strings.TrimSpace(m[1]), strings.TrimSpace(m[3]))
			return d, note, true
		}
	}
	if m := patterns().reMonthFirst.FindStringSubmatch(s); m != nil {
		if mo, ok := months[m[2]]; ok {
			return dayMonth(today, m[1], m[3], mo, m[4])
		}
	}
	if m := patterns().reDayFirst.FindStringSubmatch(s); m != nil {
		if mo, ok := months[m[3]]; ok {
			return dayMonth(today, m[1], m[2], mo, m[4])
		}
	}
	if m := patterns().reSlashDate.FindStringSubmatch(s); m != nil {
		return slashDate(today, m[1], m[2], m[3], false)
	}
	return booking.Date{}, "", false
}

func civil(y, m, d string) (booking.Date, bool) {
	yy, _ := strconv.Atoi(y)
	mm, _ := strconv.Atoi(m)
	dd, _ := strconv.Atoi(d)
	out := booking.Date{Year: yy, Month: time.Month(mm), Day: dd}
	return out, out.IsValid()
}

func relative(today booking.Date, count, unit string) (booking.Date, string, bool) {
	n, ok := numbers[count]
	if !ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil || n < 0 || n > 3660 {
			return booking.Date{}, "", false
		}
	}
	if strings.HasPrefix(unit, "week") || strings.HasPrefix(unit, "semana") {
		n *= 7
	}
	return today.AddDays(n), "", true
}

// nextWeekday is the first wd on or after d (orToday) or strictly after d.
func nextWeekday(d booking.Date, wd time.Weekday, orToday bool) booking.Date {
	n := (int(wd) - int(d.Weekday()) + 7) % 7
	if n == 0 && !orToday {
		n = 7
	}
	return d.AddDays(n)
}

// mondayAfter is the Monday that starts the week after d's (weeks run Monday to Sunday).
func mondayAfter(d booking.Date) booking.Date { return nextWeekday(d, time.Monday, false) }

func weekdayDate(today booking.Date, wd time.Weekday, before, after string) (booking.Date, string) {
	name := wd.String()
	switch {
	case after == "next week" || after == "de la semana que viene" || after == "de la proxima semana":
		return nextWeekday(mondayAfter(today), wd, true), ""
	case after == "after next":
		return nextWeekday(today, wd, false).AddDays(7), ""
	case before == "next" || before == "proximo" || before == "el proximo" || after == "que viene" || after == "proximo":
		d := nextWeekday(today, wd, false)
		if d.Before(mondayAfter(today)) {
			return d, fmt.Sprintf("read as the first %s after today; if the customer means the %s of next week, that is %s", name, name, d.AddDays(7))
		}
		return d, ""
	}
	d := nextWeekday(today, wd, true)
	if d == today {
		return d, fmt.Sprintf("today is a %s; next week's is %s", name, d.AddDays(7))
	}
	return d, ""
}

// dayMonth is day/month (and year, or the next such date from today on), checking a weekday
// said with it.
func dayMonth(today booking.Date, weekday, day string, month time.Month, year string) (booking.Date, string, bool) {
	dd, _ := strconv.Atoi(day)
	var d booking.Date
	if year != "" {
		yy, _ := strconv.Atoi(year)
		d = booking.Date{Year: yy, Month: month, Day: dd}
	} else {
		d = booking.Date{Year: today.Year, Month: month, Day: dd}
		if d.IsValid() && d.Before(today) || !d.IsValid() && month == time.February && dd == 29 {
			d.Year++
			for !d.IsValid() && d.Year < today.Year+8 { // 29 February: the next leap year
				d.Year++
			}
		}
	}
	if !d.IsValid() {
		return booking.Date{}, "", false
	}
	if weekday == "" {
		return d, "", true
	}
	wd, ok := weekdays[weekday]
	if !ok {
		return booking.Date{}, "", false
	}
	if wd != d.Weekday() {
		return d, fmt.Sprintf("%s is a %s, not a %s; check with the customer", d, d.Weekday(), wd), true
	}
	return d, "", true
}

// longDate is "4 May 2027 (2027-05-04)", for telling readings apart.
func longDate(d booking.Date) string {
	return fmt.Sprintf("%d %s %d (%s)", d.Day, d.Month, d.Year, d)
}

// ambiguousSlashDate reports the two readings of 4/5 when both are dates.
func ambiguousSlashDate(s string, today booking.Date) (booking.Date, booking.Date, bool) {
	m := patterns().reSlashDate.FindStringSubmatch(s)
	if m == nil {
		return booking.Date{}, booking.Date{}, false
	}
	a, _, okA := slashDate(today, m[1], m[2], m[3], true)
	b, _, okB := slashDate(today, m[2], m[1], m[3], true)
	return a, b, okA && okB && a != b
}

// slashDate reads 25/12, 12/25 and 25/12/2026 when only one reading is a date.
// dayFirst reads only a/b as day/month.
func slashDate(today booking.Date, a, b, year string, dayFirst bool) (booking.Date, string, bool) {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	var candidates []booking.Date
	readings := [][2]int{{x, y}, {y, x}}
	if dayFirst {
		readings = readings[:1]
	}
	for _, dm := range readings {
		if dm[1] < 1 || dm[1] > 12 {
			continue
		}
		yr := ""
		if year != "" {
			yr = year
			if len(yr) == 2 {
				yr = "20" + yr
			}
		}
		if d, _, ok := dayMonth(today, "", strconv.Itoa(dm[0]), time.Month(dm[1]), yr); ok {
			candidates = append(candidates, d)
		}
	}
	if len(candidates) == 0 || len(candidates) == 2 && candidates[0] != candidates[1] {
		return booking.Date{}, "", false // impossible, or day and month cannot be told apart
	}
	return candidates[0], "", true
}

// maxPhrase bounds a date phrase, in characters.
const maxPhrase = 100
