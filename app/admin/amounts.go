package admin

import (
	"net/http"

	"frontdesk/app/money"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Amounts an owner types are read in their language and the business currency by the one
// parser, i18n.Printer.ParseMoney ("15.000" is fifteen thousand pesos in Spanish, "12,50" twelve
// and a half euros), and handed to the domain packages as the decimal strings they validate
// ("15000", "12.5"). Stored amounts go back into a form the same way round (amountInput).

// unreadableAmount is what an amount the language cannot read becomes: a text every domain
// validator refuses, so nothing is written and the other fields are still checked in the same
// round; the field's own message, set first, is the one shown.
const unreadableAmount = "unreadable"

// readAmounts rewrites the amounts of a submitted input (field name → the input's string) from
// the owner's language to decimal strings. An empty amount stays empty (the domain decides
// whether it is required). It reports whether every amount was read.
func readAmounts(r *http.Request, f *ui.Form, amounts map[string]*string) bool {
	p := i18n.From(r.Context())
	ok := true
	for name, v := range amounts {
		if *v == "" {
			continue
		}
		cents, err := p.ParseMoney(*v)
		if err != nil {
			f.SetError(name, translate(r, "form.amount", "example", amountExample(p)))
			*v, ok = unreadableAmount, false
			continue
		}
		*v = money.Cents(cents).String()
	}
	return ok
}

// showAmounts writes stored decimal amounts into a form as the owner types them.
func showAmounts(r *http.Request, f *ui.Form, names ...string) {
	p := i18n.From(r.Context())
	for _, name := range names {
		if c, err := money.Parse(f.Get(name)); err == nil && f.Get(name) != "" {
			f.Set(name, amountInput(p, int64(c)))
		}
	}
}

// amountExample is an amount as the owner would type it: 12.50 (or 12,50), or 15000 in a
// currency without minor units.
func amountExample(p *i18n.Printer) string {
	if i18n.MinorDigits(p.Prefs().Currency) == 0 {
		return amountInput(p, 1500000)
	}
	return amountInput(p, 1250)
}
