package clients

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"frontdesk/ui/i18n"
)

// The owner's words for a field error (docs/i18n.md): the API answers with FieldError.Message,
// the admin UI with FieldError.Msg, found here from the English message the validators write.
// A message not in the table is shown as the English detail inside a generic text. The table
// is built on first use, not at start: its patterns are memory an idle server need not hold.
var fieldTexts = sync.OnceValue(func() []fieldText {
	return []fieldText{
		{regexp.MustCompile(`^is required$`), i18n.M("clients.err.required"), nil},
		{regexp.MustCompile(`^must be at most (\d+) characters$`), i18n.M("clients.err.too_long"), []string{"max"}},
		{regexp.MustCompile(`^must not contain control characters$`), i18n.M("clients.err.control"), nil},
		{regexp.MustCompile(`^must be valid UTF-8$`), i18n.M("clients.err.control"), nil},
		{regexp.MustCompile(`^must be between (\d+) and (\d+)$`), i18n.M("clients.err.between"), []string{"min", "max"}},
		{regexp.MustCompile(`^must be a valid email address$`), i18n.M("clients.err.email"), nil},
		{regexp.MustCompile(`^must be in E\.164 format`), i18n.M("clients.err.phone"), nil},
		{regexp.MustCompile(`^must be an ISO 3166-1 alpha-2 country code`), i18n.M("clients.err.country"), nil},
		{regexp.MustCompile(`^must be 0 \(other\), 1 \(female\) or 2 \(male\)$`), i18n.M("clients.err.gender"), nil},
		{regexp.MustCompile(`^at least one of last_name, email or phone is required$`), i18n.M("clients.err.contact"), nil},
		{regexp.MustCompile(`^month (\d+) has no day (\d+)$`), i18n.M("clients.err.no_such_day"), []string{"month", "day"}},
		{regexp.MustCompile(`^is already used by another client$`), i18n.M("clients.err.record_taken"), nil},
		{regexp.MustCompile(`^must be true or false$`), i18n.M("clients.err.boolean"), nil},
		{regexp.MustCompile(`^must be an integer$`), i18n.M("clients.err.integer"), nil},
		{regexp.MustCompile(`^must be a number`), i18n.M("clients.err.number"), nil},
		{regexp.MustCompile(`^must be a date as YYYY-MM-DD$`), i18n.M("clients.err.date"), nil},
		{regexp.MustCompile(`^must be an RFC 3339 date-time`), i18n.M("clients.err.datetime"), nil},
		{regexp.MustCompile(`^must be one of: (.*)$`), i18n.M("clients.err.one_of"), []string{"options"}},
		{regexp.MustCompile(`^must be an absolute http or https URL of at most (\d+) characters$`), i18n.M("clients.err.url"), []string{"max"}},
		{regexp.MustCompile(`^no custom attribute has this id$`), i18n.M("clients.err.no_attribute"), nil},
		{regexp.MustCompile(`^is given more than once$`), i18n.M("clients.err.twice"), nil},
		{regexp.MustCompile(`^(.+) is required$`), i18n.M("clients.err.attribute_required"), []string{"name"}},
	}
})

type fieldText struct {
	re   *regexp.Regexp
	msg  i18n.Msg
	args []string // names of the submatches, as the message's arguments
}

// fieldMsg is message as a catalog message.
func fieldMsg(message string) i18n.Msg {
	for _, t := range fieldTexts() {
		m := t.re.FindStringSubmatch(message)
		if m == nil {
			continue
		}
		var args []any
		for i, name := range t.args {
			var v any = m[i+1]
			if n, err := strconv.ParseInt(m[i+1], 10, 64); err == nil {
				v = n
			}
			args = append(args, name, v)
		}
		return i18n.M(t.msg.Key, args...)
	}
	return i18n.M("clients.err.other", "detail", message)
}

// newFieldError is a FieldError with its catalog message.
func newFieldError(field, message string) FieldError {
	msg := fieldMsg(message)
	if field == "birth_year" && msg.Key == "clients.err.between" {
		// A year is written without digit grouping: "1900", never "1.900" or "1,900".
		msg = i18n.M("clients.err.year", "min", fmt.Sprint(msg.Args[1]), "max", fmt.Sprint(msg.Args[3]))
	}
	return FieldError{Field: field, Message: message, Msg: msg}
}
