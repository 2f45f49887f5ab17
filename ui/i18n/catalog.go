// Package i18n owns every owner- and customer-facing text and the locale-aware formatting of
// money, dates and times (docs/i18n.md). Texts live in message catalogs, one embedded JSON file
// per language (locales/<language>.json), so adding a language is adding one file. The /v3 API
// and webhook payloads are never translated.
//
// Pages get a Printer from the request context (WithPrinter, From, T); code outside a request
// (emails) makes one with NewPrinter.
package i18n

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

//go:embed locales/*.json
var localeFiles embed.FS

// Default is the language of a business that chose none, and the fallback for a missing text.
const Default = "en"

// entry is one catalog entry: a text, or plural forms chosen by the "count" argument.
type entry struct {
	text   string
	plural map[plural.Form]string
}

// catalog is one language: its messages and the formats under the "_format." keys.
type catalog struct {
	lang     string
	tag      language.Tag
	messages map[string]entry
}

// pluralForms names the CLDR plural categories as catalogs spell them.
var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two, "few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// catalogs parses the embedded locale files once; they are part of the binary, so a broken one
// is a build defect that the package's tests catch.
var catalogs = sync.OnceValue(func() map[string]*catalog {
	all, err := loadCatalogs(localeFiles)
	if err != nil {
		panic(err)
	}
	return all
})

func loadCatalogs(fsys fs.FS) (map[string]*catalog, error) {
	names, err := fs.Glob(fsys, "locales/*.json")
	if err != nil {
		return nil, err
	}
	all := map[string]*catalog{}
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		lang := strings.TrimSuffix(path.Base(name), ".json")
		c, err := parseCatalog(lang, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		all[lang] = c
	}
	if all[Default] == nil {
		return nil, fmt.Errorf("no %s catalog", Default)
	}
	return all, nil
}

func parseCatalog(lang string, raw []byte) (*catalog, error) {
	tag, err := language.Parse(lang)
	if err != nil {
		return nil, fmt.Errorf("file name is not a language tag: %w", err)
	}
	entries, err := decodeFlatObject(raw)
	if err != nil {
		return nil, err
	}
	c := &catalog{lang: lang, tag: tag, messages: make(map[string]entry, len(entries))}
	for key, v := range entries {
		var text string
		if err := json.Unmarshal(v, &text); err == nil {
			c.messages[key] = entry{text: text}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			return nil, fmt.Errorf("%s: want a text or an object of plural forms", key)
		}
		m := entry{plural: map[plural.Form]string{}}
		for name, text := range forms {
			f, ok := pluralForms[name]
			if !ok {
				return nil, fmt.Errorf("%s: unknown plural form %q", key, name)
			}
			m.plural[f] = text
		}
		if _, ok := m.plural[plural.Other]; !ok {
			return nil, fmt.Errorf("%s: plural forms need \"other\"", key)
		}
		c.messages[key] = m
	}
	return c, nil
}

// decodeFlatObject reads the catalog's one object, refusing a key written twice (which
// encoding/json would silently resolve to the last one).
func decodeFlatObject(raw []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("want one JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // inside an object, a token before a value is always its key
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		out[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

// Language is a catalog's name and how it calls itself ("Español").
type Language struct {
	Code string
	Name string
}

// Languages lists the languages there are catalogs for, by code.
func Languages() []Language {
	var out []Language
	for code, c := range catalogs() {
		out = append(out, Language{Code: code, Name: c.messages["_meta.name"].text})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Supported reports whether there is a catalog for lang.
func Supported(lang string) bool { return catalogs()[lang] != nil }
