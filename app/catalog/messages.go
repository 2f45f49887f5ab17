package catalog

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"frontdesk/ui/i18n"
)

// fieldTexts give the catalog message of each English field text this package writes
// (Invalid.Fields), by its format: the admin pages show the owner's language (docs/i18n.md)
// through FieldMsg. The format's verbs become the message's arguments {a1}, {a2}, … in order.
var fieldTexts = []struct {
	format string
	msg    i18n.Msg
}{
	{"Choose the country from the list.", i18n.M("catalog.err.country")},
	{"%d client(s) have a value for this field, so its type cannot change. Add a new field instead.", i18n.M("catalog.err.datatype_used")},
	{"Choose a type from the list.", i18n.M("catalog.err.datatype")},
	{"Enter a date like 2026-12-25.", i18n.M("catalog.err.date")},
	{"Enter a percentage from 0 to 100, like 15 or 12.5.", i18n.M("catalog.err.percentage")},
	{"Enter the discount, or untick “Has a discount”.", i18n.M("catalog.err.discount")},
	{"Enter the duration in minutes (5 to 1439).", i18n.M("catalog.err.duration")},
	{"Choose the provider's main location.", i18n.M("catalog.err.main_location")},
	{providerNotifyText, i18n.M("catalog.err.provider_notify_email")},
	{providerAgendaText, i18n.M("catalog.err.provider_agenda_time")},
	{"Enter the amount paid online for a partial payment.", i18n.M("catalog.err.online_amount")},
	{"The amount paid online cannot be more than the price.", i18n.M("catalog.err.online_amount_max")},
	{"Choose from the list.", i18n.M("catalog.err.choose")},
	{"List the choices, one per line.", i18n.M("catalog.err.options")},
	{"Use at most %d choices.", i18n.M("catalog.err.options_max")},
	{"“%s” is chosen by clients, so it must stay a choice.", i18n.M("catalog.err.option_used")},
	{"“%s” is listed twice.", i18n.M("catalog.err.option_twice")},
	{"Choose the time zone from the list.", i18n.M("catalog.err.timezone")},
	{"The end must be after the start.", i18n.M("catalog.err.end_after_start")},
	{"These hours overlap those at %s on %s; a provider cannot work at two locations at once.", i18n.M("catalog.err.hours_overlap_location")},
	{"%s does not exist in %s: the clocks skip it. Choose another time.", i18n.M("catalog.err.skipped_time")},
	{"Enter a date and time like 2026-12-24 09:00.", i18n.M("catalog.err.datetime")},
	{"Enter a whole number from %d to %d.", i18n.M("catalog.err.whole_number")},
	{"Enter an absolute http or https address (up to %d characters).", i18n.M("catalog.err.url")},
	{"Enter an amount like 15000 or 12.50 (at most 2 decimals).", i18n.M("catalog.err.amount")},
	{"Enter an email address like name@example.com.", i18n.M("catalog.err.email")},
	{"Enter decimal degrees from %g to %g, like -33.4255.", i18n.M("catalog.err.degrees")},
	{"Enter the number in international form with the country code, like +56 9 1234 5678.", i18n.M("catalog.err.phone")},
	{"Enter this (up to %d characters).", i18n.M("catalog.err.required")},
	{"Remove the control characters.", i18n.M("catalog.err.control")},
	{"Tick this location under Locations, or clear these hours.", i18n.M("catalog.err.hours_location")},
	{"Use at most %d characters.", i18n.M("catalog.err.too_long")},
	{"Write the opening ranges only, like 09:00-13:00, 14:00-19:00.", i18n.M("catalog.err.hours_ranges")},
	{"Put the breaks of a shift in one pair of parentheses, like 09:00-18:00 (13:00-14:00).", i18n.M("catalog.err.hours_breaks")},
	{"The break %s is not inside its shift %s.", i18n.M("catalog.err.break_outside")},
	{"The range %s ends before it starts.", i18n.M("catalog.err.range_backwards")},
	{"The ranges %s and %s overlap.", i18n.M("catalog.err.ranges_overlap")},
	{"The breaks %s and %s overlap.", i18n.M("catalog.err.breaks_overlap")},
	{"The shifts %s and %s overlap.", i18n.M("catalog.err.shifts_overlap")},
	{"“%s” is not a time range; write it like 09:00-13:00.", i18n.M("catalog.err.not_range")},
	{"“%s” could be morning or evening: add am or pm, like 9:00 am-1:00 pm.", i18n.M("catalog.err.range_ampm")},
	{"24:00 can only end a range.", i18n.M("catalog.err.midnight_start")},
	{"The location is already closed on %s.", i18n.M("catalog.err.closed_already")},
	{"Each keyword can have at most %d characters; “%s” is longer.", i18n.M("catalog.err.keyword_long")},
	{"Use at most %d keywords.", i18n.M("catalog.err.keywords_max")},
	{"Choose a location.", i18n.M("catalog.err.resource_location")},
	{"Choose room or equipment.", i18n.M("catalog.err.resource_kind")},
	{"Give both times, or neither for no processing time.", i18n.M("catalog.err.processing_both")},
	{"The processing must start after at least 5 minutes and end at least 5 minutes before the service's %d minutes are over.", i18n.M("catalog.err.processing_inside")},
	// A warning, not a refusal (ProviderSaved.Warnings).
	{"On %s the hours at %s and at %s overlap on the clock. The two locations are in different time zones (%s, %s), so check that they do not overlap in real time.", i18n.M("catalog.warn.hours_overlap_zones")},
}

// fieldPatterns are fieldTexts' formats as anchored patterns, built on first use (not at start:
// they are memory an idle server need not hold).
var fieldPatterns = sync.OnceValue(func() []*regexp.Regexp {
	verb := regexp.MustCompile(`%[dsg]`)
	out := make([]*regexp.Regexp, len(fieldTexts))
	for i, t := range fieldTexts {
		parts := verb.Split(t.format, -1)
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		out[i] = regexp.MustCompile("^" + strings.Join(parts, "(.+?)") + "$")
	}
	return out
})

// FieldMsg is the catalog message of a field text of Invalid.Fields; a text of no known
// format (none should be: a test checks them) is kept as the detail of a generic message.
func FieldMsg(text string) i18n.Msg {
	for i, re := range fieldPatterns() {
		m := re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		var args []any
		for j, v := range m[1:] {
			args = append(args, fmt.Sprintf("a%d", j+1), v)
		}
		return i18n.M(fieldTexts[i].msg.Key, args...)
	}
	return i18n.M("catalog.err.other", "detail", text)
}
