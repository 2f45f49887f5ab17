package admin_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"frontdesk/app/owner"
	"frontdesk/db"
	"frontdesk/ui"
)

// englishWords are words of the admin's English UI that Spanish text never contains as words
// (case-insensitive). The test data is chosen so that no name contains one of them.
var englishWords = strings.Fields(`the and with without for from your you this that these are is was
	has have not none never only any all new edit save saved cancel delete remove add back next previous
	search filter filters settings booking bookings client clients service services provider providers
	location locations category categories payment payments sales product products owner owners
	account business webhook's key keys event events delivery deliveries attempt attempts
	today tomorrow yesterday day week month hours minutes minute hour open closed break breaks
	name email phone password language notes status price duration description active inactive
	create created update updated send sent resend test show hide choose when where which why what
	free busy blocked confirmed reserved attended cancelled paid pending expired failed succeeded missed
	sign out in setup of to at by on or per more less than yes`)

// catalogTexts reads a catalog file: key → texts (a plural entry gives each of its forms).
func catalogTexts(t *testing.T, lang string) map[string][]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "ui", "i18n", "locales", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for key, v := range entries {
		var text string
		if json.Unmarshal(v, &text) == nil {
			out[key] = []string{text}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			t.Fatalf("%s: %s: %v", lang, key, err)
		}
		for _, f := range forms {
			out[key] = append(out[key], f)
		}
	}
	return out
}

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// englishFragments are the pieces of English catalog texts a Spanish page must not contain:
// each text is cut at its placeholders, and a piece counts when it has at least two words or
// one word of six letters or more (shorter single words — "OK", "Email", "Total" — are too
// often shared by both languages or by data to be evidence), and when no Spanish text
// contains it (a name the Spanish catalog uses as well, like "Stripe" or "API key", is not
// English in a Spanish page). Format keys are conventions, not texts.
func englishFragments(t *testing.T) []string {
	t.Helper()
	en, es := catalogTexts(t, "en"), catalogTexts(t, "es")
	var spanish strings.Builder
	for _, texts := range es {
		for _, s := range texts {
			spanish.WriteString(s)
			spanish.WriteString("\n")
		}
	}
	allSpanish := spanish.String()
	seen := map[string]bool{}
	var out []string
	for key, texts := range en {
		if strings.HasPrefix(key, "_") {
			continue
		}
		for _, text := range texts {
			for _, piece := range placeholder.Split(text, -1) {
				piece = strings.TrimSpace(strings.Trim(strings.TrimSpace(piece), ".,:;·—–-()“”\"'?!…"))
				words := strings.Fields(piece)
				if len(words) == 0 || (len(words) == 1 && len([]rune(words[0])) < 6) {
					continue
				}
				if seen[piece] || strings.Contains(allSpanish, piece) {
					continue
				}
				seen[piece] = true
				out = append(out, piece)
			}
		}
	}
	sort.Strings(out)
	return out
}

var (
	// Parts of a page that are not UI text: code, scripts, data the owner typed into fields.
	hiddenBlocks = regexp.MustCompile(`(?is)<(script|style|code|pre|kbd|samp|textarea)\b[^>]*>.*?</(script|style|code|pre|kbd|samp|textarea)>`)
	// Text the owner typed shown as it is (a booking's notes), marked translate="no" as HTML
	// marks what must not be translated.
	untranslated = regexp.MustCompile(`(?is)<span\b[^>]*\btranslate="no"[^>]*>[^<]*</span>`)
	// Attributes a person reads or hears.
	readAttr = regexp.MustCompile(`(?i)\s(?:aria-label|placeholder|title|alt)="([^"]*)"`)
	tag      = regexp.MustCompile(`(?s)<[^>]*>`)
	// Time zone options are place names (IANA), and commands of this program are code.
	zoneOption = regexp.MustCompile(`<option value="[A-Za-z_]+/[^"]*"[^>]*>[^<]*</option>`)
	command    = regexp.MustCompile(`\bfrontdesk [a-z-]+ [a-z-]+(?: --?[a-z-]+(?: [^\s-]\S*)?)*`)
	// Quoted with «…»: a name, such as another product's label, not UI text of ours.
	quoted = regexp.MustCompile(`«[^»]*»`)
	// Tokens that are identifiers, not words: URLs, emails, event types, ids, paths, numbers.
	codeToken = regexp.MustCompile(`\S*[./@_:#0-9=&?]\S*`)
	wordRE    = regexp.MustCompile(`[\p{L}']+`)
)

// visibleText is what a person reads on the page: text nodes and readable attributes, without
// code blocks and form data.
func visibleText(page string) string {
	page = hiddenBlocks.ReplaceAllString(page, " ")
	page = untranslated.ReplaceAllString(page, " ")
	page = zoneOption.ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range readAttr.FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]))
		b.WriteString("\n")
	}
	b.WriteString(html.UnescapeString(tag.ReplaceAllString(page, "\n")))
	return quoted.ReplaceAllString(command.ReplaceAllString(b.String(), " "), " ")
}

// englishIn lists the English UI text found in a page's visible text.
func englishIn(text string, fragments []string, words map[string]bool) []string {
	var found []string
	plain := codeToken.ReplaceAllString(text, " ")
	for _, f := range fragments {
		// A fragment that is all words is looked for among words, not inside identifiers
		// ("created" in booking.created).
		in := plain
		if codeToken.MatchString(f) {
			in = text
		}
		if containsWord(in, f) {
			found = append(found, "catalog text "+`"`+f+`"`)
		}
	}
	for _, loc := range wordRE.FindAllStringIndex(plain, -1) {
		if w := plain[loc[0]:loc[1]]; words[strings.ToLower(w)] {
			around := strings.Join(strings.Fields(plain[max(0, loc[0]-30):min(len(plain), loc[1]+30)]), " ")
			found = append(found, "word "+`"`+w+`" in “`+around+`”`)
		}
	}
	return found
}

// containsWord reports whether s contains f starting and ending at word boundaries.
func containsWord(s, f string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], f)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(f)
		if !isLetter(s, start-1) && !isLetter(s, end) {
			return true
		}
		i = start + 1
	}
}

func isLetter(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// A business in Spanish sees no English on any page: neither a text of the English catalog
// that Spanish writes differently, nor a common English UI word. Pages come from seededPages
// (every GET route), plus first-run setup and forms re-rendered with their errors.
func TestSpanishPagesHaveNoEnglish(t *testing.T) {
	fragments := englishFragments(t)
	if len(fragments) < 200 {
		t.Fatalf("only %d English fragments to look for: the catalog reader is broken", len(fragments))
	}
	words := map[string]bool{}
	for _, w := range englishWords {
		words[w] = true
	}
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	check := func(name string, res response) {
		t.Helper()
		if !strings.Contains(res.Body, `<html lang="es">`) {
			t.Errorf("%s: not rendered in Spanish", name)
		}
		if found := englishIn(visibleText(res.Body), fragments, words); len(found) > 0 {
			t.Errorf("%s: English in a Spanish page: %s", name, strings.Join(dedupe(found), ", "))
		}
	}

	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO company (name, language, created_at, updated_at) VALUES ('Estudio', 'es', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	setup := ts.setupURL(t)
	u, _ := url.Parse(setup)
	pub := ts.newClient(t)
	check("setup", pub.get(t, u.RequestURI()))
	check("setup with errors", pub.post(t, "/setup", url.Values{"token": {u.Query().Get("token")}, "email": {"x"}, "password": {"corta"}, "confirm": {"otra"}}))
	check("sign-in with errors", pub.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {"mala"}}))
	c := ts.setupOwner(t)
	if _, err := d.Write.Exec(`DELETE FROM company WHERE name = 'Estudio'`); err != nil {
		t.Fatal(err)
	}

	pages := seededPages(t, ts, c)
	c.get(t, "/") // the flash messages of the English seeding
	if _, err := d.Write.Exec(`UPDATE company SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		check(p.Path, p.get(t, ts, c))
	}
	// Forms sent back with their errors.
	for _, f := range []struct {
		path string
		form url.Values
	}{
		{"/catalog/services", url.Values{"name": {""}, "duration_min": {"0"}}},
		{"/catalog/categories", url.Values{"name": {""}}},
		{"/catalog/locations", url.Values{"name": {""}, "timezone": {"Nada/Nada"}}},
		{"/catalog/providers", url.Values{"public_name": {""}}},
		{"/catalog/custom-attributes", url.Values{"name": {""}}},
		{"/catalog/products", url.Values{"name": {""}, "price": {"x"}}},
		{"/clients", url.Values{"first_name": {""}, "email": {"x"}}},
		{"/bookings", url.Values{"date": {"x"}}},
		{webhooksPath, url.Values{"url": {"ftp://x"}}},
		{"/settings/integrations/api-keys", url.Values{"name": {""}}},
		{"/settings/business", url.Values{"name": {""}}},
		{"/account/password", url.Values{"current": {"x"}}},
		{"/owners", url.Values{"owner_email": {"x"}}},
		// Refusals written below the admin (app/catalog's hours and keywords) and by the admin
		// itself (a delivery range).
		{"/catalog/locations", url.Values{"name": {"Sur"}, "timezone": {"America/Santiago"}, "hours_1": {"9-18"}, "hours_2": {"24:00-10:00"}}},
		{"/catalog/services", url.Values{"name": {"Corte"}, "keywords": {strings.Repeat("a", 51)}}},
		{"/catalog/services", url.Values{"name": {"Corte"}, "keywords": {"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21"}}},
		{webhooksPath + "/" + webhookID(t, d) + "/recover", url.Values{"from": {""}, "to": {"ayer"}}},
	} {
		res := c.post(t, f.path, f.form)
		if res.Status != http.StatusUnprocessableEntity {
			t.Errorf("POST %s: got %d, want 422", f.path, res.Status)
		}
		check("POST "+f.path, res)
	}
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// The forms' password hints name owner.MinPasswordLen (ui cannot import app/owner).
func TestPasswordHintMatchesRule(t *testing.T) {
	if ui.MinPassword != owner.MinPasswordLen {
		t.Fatalf("ui.MinPassword = %d, owner.MinPasswordLen = %d", ui.MinPassword, owner.MinPasswordLen)
	}
}

// webhookID is the id of the first webhook.
func webhookID(t *testing.T, d *db.DB) string {
	t.Helper()
	var id string
	if err := d.Read.QueryRow(`SELECT id FROM webhooks ORDER BY id LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
