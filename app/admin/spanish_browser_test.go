package admin_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// What the admin script writes into a Spanish page is Spanish too: a copy button's "done" word
// and its label after it, and record times shown in the browser's zone (in the page's language
// and the business's 24-hour clock, not the browser's own English and AM/PM).
func TestBrowserSpanishScriptTexts(t *testing.T) {
	ts := startServer(t)
	setup := ts.setupURL(t)
	b := newBrowser(t, 1280, 900)
	b.do("setup", chromedp.Navigate(setup), chromedp.WaitVisible(testID("setup-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.SendKeys(css("#f-confirm"), ownerPassword), chromedp.Submit(testID("setup-form")), chromedp.WaitVisible(testID("webhook-health")))
	d := openBookingDB(t, ts)
	if _, err := d.Write.Exec(`INSERT INTO company (name, language, clock, created_at, updated_at) VALUES ('Estudio', 'es', '24h', 0, 0)`); err != nil {
		t.Fatal(err)
	}

	b.do("new-key", chromedp.Navigate(ts.URL+"/settings/integrations/api-keys"), chromedp.WaitVisible(testID("api-key-form")),
		chromedp.SendKeys(css("#f-name"), "Widget"), chromedp.Click(css(`input[name=access][value=full]`)),
		chromedp.Submit(testID("api-key-form")), chromedp.WaitVisible(testID("new-api-key")))
	button := `button[data-copy="#new-api-key"]`
	label := b.text(button)
	if label != "Copiar" {
		t.Fatalf("copy button reads %q, want Copiar", label)
	}
	// The clipboard itself is the browser's business; the page's words are ours.
	b.do("copy", chromedp.Evaluate[chromedp.Void](`navigator.clipboard.writeText = () => Promise.resolve()`), chromedp.Click(css(button)))
	waitFor(t, "the copy button to change", func() bool { return b.text(button) != "Copiar" })
	if got := b.text(button); got != "Copiado" {
		t.Errorf("after copying the button reads %q, want Copiado", got)
	}
	waitFor(t, "the copy button's label to come back", func() bool { return b.text(button) == "Copiar" })

	created := b.text(`[data-testid=api-key-row] time[data-local]`)
	if regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b|AM|PM`).MatchString(created) ||
		!regexp.MustCompile(`\b\d{1,2}:\d{2}$`).MatchString(strings.TrimSpace(created)) {
		t.Errorf("a record time reads %q, want Spanish words and a 24-hour clock", created)
	}
}
