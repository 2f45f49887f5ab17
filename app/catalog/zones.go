package catalog

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// Go has no API that lists time zones, and the binary must not read the host's
// /usr/share/zoneinfo (docs/contract.md: everything is embedded), so the pickers' lists ship inside it.

//go:embed zones.txt
var zonesTxt string

//go:embed countries.txt
var countriesTxt string

// Country is an ISO 3166-1 country: alpha-2 code and English name.
type Country struct {
	Code string
	Name string
}

// The lists are read on first use, not at start.
var (
	zones     = sync.OnceValue(func() []string { return readLines(zonesTxt) })
	countries = sync.OnceValue(func() []Country { return readCountries(countriesTxt) })
)

// Zones returns the IANA time zones the location form offers, sorted.
func Zones() []string { return slices.Clone(zones()) }

// Countries returns the countries the location form offers, sorted by name.
func Countries() []Country { return slices.Clone(countries()) }

// IsZone reports whether name is one of Zones.
func IsZone(name string) bool {
	_, ok := slices.BinarySearch(zones(), name)
	return ok
}

// CountryByCode looks a country up by its alpha-2 code.
func CountryByCode(code string) (Country, bool) {
	for _, c := range countries() {
		if c.Code == code {
			return c, true
		}
	}
	return Country{}, false
}

func readLines(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return out
}

func readCountries(s string) []Country {
	var out []Country
	for _, line := range readLines(s) {
		code, name, _ := strings.Cut(line, "\t")
		out = append(out, Country{Code: code, Name: name})
	}
	slices.SortFunc(out, func(a, b Country) int { return strings.Compare(a.Name, b.Name) })
	return out
}
