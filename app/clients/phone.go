package clients

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// People write a local number the way they dial it at home: "9 8765 4321" in Chile, "020 7946
// 0018" in London. Where the country is known — the booking site knows its location's — such a
// number is put into international form instead of being refused for its missing "+".

//go:embed calling_codes.txt
var callingCodesTxt string

// callingPlan is how a country's numbers are dialled at home.
type callingPlan struct {
	code    string // the calling code, without "+"
	trunk   string // the national prefix dialled before a number at home, "" for none
	lengths []int  // the possible lengths of a national significant number
}

// callingPlans is alpha-2 country code → plan, read on first use.
var callingPlans = sync.OnceValue(func() map[string]callingPlan {
	out := map[string]callingPlan{}
	for line := range strings.Lines(callingCodesTxt) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			continue
		}
		plan := callingPlan{code: cols[1], trunk: cols[2]}
		for _, l := range strings.Split(cols[3], ",") {
			if n, err := strconv.Atoi(l); err == nil {
				plan.lengths = append(plan.lengths, n)
			}
		}
		out[cols[0]] = plan
	}
	return out
})

// NormalizePhoneIn is NormalizePhone for a number written in country (ISO 3166-1 alpha-2). A
// number without "+" is read as that country dials it: with the calling code but no "+"
// ("56 9 8765 4321") when what follows the code has the length of a national number there;
// else as a national number, its trunk prefix dropped ("020 7946 0018" in GB →
// +442079460018, "9 8765 4321" in CL → +56987654321). A number that fits neither, or a country
// the table does not know, is refused as NormalizePhone refuses it.
func NormalizePhoneIn(s, country string) (string, error) {
	digits := stripPhone(s)
	if plan, ok := callingPlans()[strings.ToUpper(country)]; ok && digits != "" && !strings.HasPrefix(digits, "+") && onlyDigits(digits) {
		if rest, ok := strings.CutPrefix(digits, plan.code); ok && slices.Contains(plan.lengths, len(rest)) {
			digits = "+" + digits
		} else {
			national := digits
			if rest, ok := strings.CutPrefix(national, plan.trunk); ok && plan.trunk != "" && slices.Contains(plan.lengths, len(rest)) {
				national = rest
			}
			if slices.Contains(plan.lengths, len(national)) {
				digits = "+" + plan.code + national
			}
		}
	}
	return NormalizePhone(digits)
}

// CallingCode is country's calling code without "+" ("56" for CL), or "" when the table has
// none.
func CallingCode(country string) string { return callingPlans()[strings.ToUpper(country)].code }

func onlyDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
