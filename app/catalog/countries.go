package catalog

import (
	_ "embed"
	"strings"
	"sync"
)

// The location form names countries in the reader's language. The names are CLDR's, kept in a
// small table of our own rather than read from golang.org/x/text/language/display: that package
// holds every language's names of every language, script and region (2.4 MB of the binary) and
// builds its tables at start, for the 250 × 2 names used here.

//go:embed country_names.txt
var countryNamesTxt string

// countryNames is language → alpha-2 code → name, read on first use.
var countryNames = sync.OnceValue(func() map[string]map[string]string {
	out := map[string]map[string]string{}
	var langs []string
	for line := range strings.Lines(countryNamesTxt) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if langs == nil { // the header: "code", then one column per language
			langs = cols[1:]
			for _, l := range langs {
				out[l] = map[string]string{}
			}
			continue
		}
		for i, name := range cols[1:] {
			if i < len(langs) && name != "" {
				out[langs[i]][cols[0]] = name
			}
		}
	}
	return out
})

// CountryName is the name of the country with alpha-2 code in language lang, or "" when the
// table has none.
func CountryName(code, lang string) string {
	return countryNames()[lang][code]
}
