package i18n

import (
	"encoding/json"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
	"time"
)

// Adding a language is adding one file (docs/i18n.md): a Portuguese catalog made by copying
// en.json and changing its texts loads beside en and es, with its own formats and CLDR plural
// rules, and nothing else is needed.
func TestThirdLanguageIsOneFile(t *testing.T) {
	files := fstest.MapFS{}
	for _, lang := range []string{"en", "es"} {
		raw, err := fs.ReadFile(localeFiles, "locales/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		files["locales/"+lang+".json"] = &fstest.MapFile{Data: raw}
	}
	raw, err := os.ReadFile("locales/en.json")
	if err != nil {
		t.Fatal(err)
	}
	var pt map[string]any
	if err := json.Unmarshal(raw, &pt); err != nil {
		t.Fatal(err)
	}
	pt["_meta.name"] = "Português"
	pt["_format.decimal"], pt["_format.group"] = ",", "."
	pt["nav.bookings"] = "Reservas"
	pt["bookings.clients_match"] = map[string]string{"one": "Um cliente corresponde.", "other": "{count} clientes correspondem."}
	data, err := json.Marshal(pt)
	if err != nil {
		t.Fatal(err)
	}
	files["locales/pt.json"] = &fstest.MapFile{Data: data}

	all, err := loadCatalogs(files)
	if err != nil {
		t.Fatal(err)
	}
	c := all["pt"]
	if c == nil || c.messages["_meta.name"].text != "Português" {
		t.Fatalf("the third catalog did not load: %v", c)
	}
	p := &Printer{c: c, en: all[Default], prefs: Prefs{Currency: "EUR", Clock24: true}}
	if got := p.T("nav.bookings"); got != "Reservas" {
		t.Errorf("got %q, want Reservas", got)
	}
	if got := p.T("bookings.clients_match", "count", 1000); got != "1.000 clientes correspondem." {
		t.Errorf("got %q, want the plural form with the language's grouping", got)
	}
	if got := p.Time(time.Date(2026, 11, 25, 15, 5, 0, 0, time.UTC)); got != "15:05" {
		t.Errorf("got %q", got)
	}
	// Every key of en exists in the copy, so the completeness test would hold for it too.
	for key := range all[Default].messages {
		if _, ok := c.messages[key]; !ok {
			t.Errorf("%s missing from the copied catalog", key)
		}
	}
}
