package site

import (
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/text/language"

	"frontdesk/app/middleware"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The visitor's language (docs/booking-site.md, "Languages"). Pages are written in the
// language the visitor chose with the switch every page carries — a plain link, remembered in
// a cookie — else the first of their browser's languages (Accept-Language) the site has a
// catalog for, else the business's. Only the pages follow the visitor: emails keep the
// business's language (a booking's client is not told apart by who typed it).

// langCookie remembers the language a visitor chose: "en", "es"… and nothing else.
const langCookie = "frontdesk_lang"

// langParam in a page's query switches the language: the answer sets the cookie and sends the
// visitor back to the same page without it.
const langParam = "lang"

// languageMatcher matches a browser's Accept-Language against the catalogs.
var languageMatcher = sync.OnceValues(func() (language.Matcher, []i18n.Language) {
	langs := i18n.Languages()
	tags := make([]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = language.Make(l.Code)
	}
	return language.NewMatcher(tags), langs
})

// visitorLanguage is the language to write the request's pages in.
func visitorLanguage(r *http.Request, business string) string {
	if c, err := r.Cookie(langCookie); err == nil && i18n.Supported(c.Value) {
		return c.Value
	}
	if accept := r.Header.Get("Accept-Language"); accept != "" {
		if prefs, _, err := language.ParseAcceptLanguage(accept); err == nil && len(prefs) > 0 {
			m, langs := languageMatcher()
			if _, i, conf := m.Match(prefs...); conf != language.No {
				return langs[i].Code
			}
		}
	}
	return business
}

// switchLanguage answers a GET that asks for a language (?lang=es): it remembers the choice and
// sends the visitor back to the page without the parameter. It reports whether it answered.
func switchLanguage(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	q := r.URL.Query()
	if !q.Has(langParam) {
		return false
	}
	lang := q.Get(langParam)
	q.Del(langParam)
	back := r.URL.Path
	if len(q) > 0 {
		back += "?" + q.Encode()
	}
	if i18n.Supported(lang) {
		c := &http.Cookie{
			Name: langCookie, Value: lang, Path: "/book", MaxAge: 365 * 24 * 60 * 60, HttpOnly: true,
			SameSite: http.SameSiteLaxMode,
		}
		if middleware.IsHTTPS(r) {
			// Inside the owner's website the site is a third party: a partitioned cookie is
			// kept for that website alone, where browsers keep one at all.
			c.Secure, c.SameSite, c.Partitioned = true, http.SameSiteNoneMode, true
		}
		http.SetCookie(w, c)
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
	return true
}

// languageLinks are the page's switch: every other language, as a link to this page in it.
func languageLinks(r *http.Request, current string) []ui.SiteLanguage {
	_, langs := languageMatcher()
	var out []ui.SiteLanguage
	for _, l := range langs {
		if l.Code == current {
			continue
		}
		q := r.URL.Query()
		q.Set(langParam, l.Code)
		out = append(out, ui.SiteLanguage{Code: l.Code, Name: l.Name, URL: (&url.URL{Path: r.URL.Path, RawQuery: q.Encode()}).String()})
	}
	return out
}
