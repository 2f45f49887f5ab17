package catalog

import (
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"frontdesk/ui/i18n"
)

// The table of country names says what CLDR says, for every country the form offers and every
// language there is a catalog for: a new language needs its column in country_names.txt.
func TestCountryNamesAreCLDRs(t *testing.T) {
	for _, l := range i18n.Languages() {
		names := display.Regions(language.Make(l.Code))
		for _, c := range Countries() {
			want := names.Name(language.MustParseRegion(c.Code))
			if got := CountryName(c.Code, l.Code); got != want {
				t.Errorf("CountryName(%q, %q) = %q, want CLDR's %q", c.Code, l.Code, got, want)
			}
		}
	}
	if got := CountryName("CL", "xx"); got != "" {
		t.Errorf("CountryName in a language without a column = %q, want \"\"", got)
	}
}
