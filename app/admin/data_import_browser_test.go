package admin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// On a 390-px phone: the owner chooses the system and the file, checks it, reads the dry run
// (a stacked table, axe-clean, as wide as the screen) and imports it.
func TestBrowserImportFromAnotherSystem(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	axe, err := os.ReadFile("testdata/axe-4.11.0.min.js")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "appointments.csv")
	csv := "Date,Start Time,Service,Staff,Customer Name,Email\n" +
		w.Day + ",10:00,Haircut,Ana,Zoe Ruiz,zoe@example.com\n" +
		w.Day + ",10:00,Haircut,Ana,Maria Lopez,maria@example.com\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	b.do("login", chromedp.Navigate(ts.URL+"/settings/data/import"), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("import-form")))
	b.do("check", chromedp.SetValue(css("#f-vendor"), "square"), chromedp.SetUploadFiles(css("#f-file"), []string{file}),
		chromedp.Submit(testID("import-form")), chromedp.WaitVisible(testID("import-result")))
	if got := b.text(`[data-testid=import-summary]`); got != "It would create 1 booking. Its bookings need 1 new client, created with them. 1 row would be skipped." {
		t.Errorf("dry run: %q", got)
	}
	checkPage(t, b, axe, "/settings/data/import (dry run)")
	b.do("import", chromedp.Click(testID("run-import")), chromedp.WaitVisible(css(".flash-success")))
	if got := b.text(".flash-success"); !strings.Contains(got, "Imported 1 booking. 1 new client was created with them. 1 row was skipped.") {
		t.Errorf("after the import: %q", got)
	}
}
