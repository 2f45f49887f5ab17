package catalog

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"frontdesk/ui/i18n"
)

// Every field text this package writes has a catalog message (so the admin shows it in the
// owner's language): each format literal given to problems.add, and each text the hours
// parser returns, is found by FieldMsg.
func TestFieldTextsHaveCatalogMessages(t *testing.T) {
	formats := regexp.MustCompile(`(?:\.add\([^,]+, |fmt\.Sprintf\(|return (?:nil, |Span\{\}, |out, )?)"([A-Z0-9“%][^"]*\.)"`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "messages.go" {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range formats.FindAllStringSubmatch(string(src), -1) {
			text := strings.NewReplacer("%ss", "ranges", "%d", "7", "%s", "x", "%g", "1.5").Replace(m[1])
			n++
			if got := FieldMsg(text); got.Key == "catalog.err.other" {
				t.Errorf("%s: %q has no catalog message", name, m[1])
			}
		}
	}
	if n < 25 {
		t.Fatalf("found only %d field texts: the scanner is broken", n)
	}
	es := i18n.NewPrinter("es", i18n.Prefs{})
	if got, want := es.Msg(FieldMsg("Enter a whole number from 5 to 240.")), "Ingresa un número entero entre 5 y 240."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
