package admin_test

import (
	"bytes"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// upload posts the import's form as a browser does: multipart, the file under "file".
func (c *client) upload(t testing.TB, fields map[string]string, name string, file []byte) response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if name != "" {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(file)
	}
	w.Close()
	req, err := http.NewRequest(http.MethodPost, c.ts.URL+"/settings/data/import", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = http.Header{"Origin": {c.ts.URL}, "Sec-Fetch-Site": {"same-origin"}, "Content-Type": {w.FormDataContentType()}}
	return c.do(t, req)
}

// TestImportFromAnotherSystem: Settings → Data → Import from another system takes a vendor's
// appointments export, shows the dry run (what would be created, what skipped and why, by
// line) without writing, and imports it on Import through the booking engine: the overlap is
// skipped, not forced.
func TestImportFromAnotherSystem(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	counts := func() string {
		t.Helper()
		var s string
		if err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM bookings) || '/' || (SELECT count(*) FROM clients)`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	wantBody(t, c.get(t, "/settings/data"), `href="/settings/data/import"`)
	wantBody(t, c.get(t, "/settings/data/import"), `enctype="multipart/form-data"`, `type="file"`, `accept=".csv,text/csv"`, `<option value="fresha"`,
		"Send each client a confirmation of their imported bookings")

	file := "\uFEFFDate,Start Time,Duration,Service,Staff,Customer Name,Email,Status\r\n" +
		w.Day + ",10:00,30,Haircut,Ana,Zoe Ruiz,zoe@example.com,Accepted\r\n" +
		w.Day + ",10:00,30,haircut,ANA,Maria Lopez,maria@example.com,Accepted\r\n" +
		w.Day + ",11:00,30,Massage,Bruno,Maria Lopez,maria@example.com,Accepted\r\n"
	before := counts()
	res := c.upload(t, map[string]string{"vendor": "square"}, "appointments.csv", []byte(file))
	wantStatus(t, res, 200)
	wantBody(t, res, `data-testid="import-summary">It would create 1 booking. Its bookings need 1 new client, created with them. 2 rows would be skipped.`,
		"Ana already has a booking then: it is not double-booked", "No service named “Massage” here", "A new client too", `data-testid="run-import"`,
		"New bookings get the reminders your message settings send, but no confirmation")
	if got := counts(); got != before {
		t.Fatalf("the dry run wrote: %s → %s", before, got)
	}
	hidden := func(name string) string {
		m := regexp.MustCompile(`name="` + name + `" value="([^"]*)"`).FindStringSubmatch(res.Body)
		if m == nil {
			t.Fatalf("no hidden %s in the dry run's page", name)
		}
		return html.UnescapeString(m[1])
	}
	run := c.post(t, "/settings/data/import/run", url.Values{"vendor": {hidden("vendor")}, "file": {hidden("file")}})
	wantRedirect(t, run, "/settings/data")
	wantBody(t, c.get(t, "/settings/data"), "Imported 1 booking. 1 new client was created with them. 2 rows were skipped.")
	var source, email string
	if err := d.Read.QueryRow(`SELECT b.source, c.email FROM bookings b JOIN clients c ON c.id = b.client_id ORDER BY b.id DESC LIMIT 1`).Scan(&source, &email); err != nil ||
		source != "import" || email != "zoe@example.com" {
		t.Errorf("the imported booking: %q for %q (%v)", source, email, err)
	}
	if got, want := counts(), bumped(t, before, 1, 1); got != want {
		t.Errorf("bookings/clients %s → %s, want %s", before, got, want)
	}
	// The client had their confirmation from the other system: none is planned, unless the
	// owner ticks the box to send one.
	confirmations := func() string {
		t.Helper()
		var s string
		if err := d.Read.QueryRow(`SELECT coalesce(group_concat(n, '/'), '') FROM (SELECT count(m.id) AS n FROM bookings b
		LEFT JOIN messages m ON m.booking_id = b.id AND m.kind = 'confirmation' WHERE b.source = 'import' GROUP BY b.id ORDER BY b.id)`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := confirmations(); got != "0" {
		t.Errorf("confirmations of the imported bookings: %s, want 0", got)
	}
	notified := "\uFEFFDate,Start Time,Duration,Service,Staff,Customer Name,Email,Status\r\n" +
		w.Day + ",10:00,30,Haircut,Bruno,Zoe Ruiz,zoe@example.com,Accepted\r\n"
	res = c.upload(t, map[string]string{"vendor": "square", "notify": "1"}, "appointments.csv", []byte(notified))
	wantStatus(t, res, 200)
	wantBody(t, res, `name="notify" value="1"`, "New bookings get the confirmation and reminders your message settings send.")
	run = c.post(t, "/settings/data/import/run", url.Values{"vendor": {hidden("vendor")}, "file": {hidden("file")}, "notify": {hidden("notify")}})
	wantRedirect(t, run, "/settings/data")
	if got := confirmations(); got != "0/1" {
		t.Errorf("confirmations of the imported bookings: %s, want 0/1 (the second import's client sent one)", got)
	}

	// In Spanish, the same page and reasons.
	wantRedirect(t, c.post(t, "/account/language", url.Values{"language": {"es"}}), "/account")
	res = c.upload(t, map[string]string{"vendor": "square"}, "appointments.csv", []byte(file))
	wantBody(t, res, "Importar desde otro sistema", "Ana ya tiene una reserva a esa hora", "No hay nada que importar.",
		"Enviar a cada cliente una confirmación de sus reservas importadas")
}

// TestImportFromAnotherSystemRefuses: hostile or broken uploads get a clear message on the
// import's page, never a 500, and write nothing.
func TestImportFromAnotherSystemRefuses(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	counts := func() string {
		t.Helper()
		var s string
		if err := d.Read.QueryRow(`SELECT (SELECT count(*) FROM bookings) || '/' || (SELECT count(*) FROM clients)`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := counts()
	huge := append([]byte("First Name,Email\n"), bytes.Repeat([]byte("Ana,ana@example.com\n"), 3<<20/20)...)
	manyBad := []byte("First Name,Email\n")
	for i := range 25 {
		manyBad = fmt.Appendf(manyBad, "Ana,nope%d\n", i)
	}
	tests := []struct {
		name   string
		fields map[string]string
		file   string
		body   []byte
		status int
		want   string
	}{
		{"huge", map[string]string{"vendor": "fresha"}, "big.csv", huge, 413, "The file is larger than 2 MiB."},
		{"no file", map[string]string{"vendor": "fresha"}, "", nil, 400, "Choose the CSV file to import."},
		{"no system", map[string]string{}, "c.csv", []byte("First Name\nAna\n"), 422, "Choose the system the file comes from."},
		{"picture", map[string]string{"vendor": "square"}, "logo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"), 422, "the file is not valid UTF-8"},
		{"not a client list", map[string]string{"vendor": "simplybook"}, "x.csv", []byte("Colour,Size\nred,2\n"), 422, "line 1: no name column"},
		{"broken quotes", map[string]string{"vendor": "square"}, "c.csv", []byte("First Name,Email Address\nAna,ana@example.com\n\"Bea,bea@example.com\n"), 422, "line 3: extraneous or missing &#34; in quoted-field"},
		{"formula", map[string]string{"vendor": "fresha"}, "c.csv", []byte("First Name,Email\nAna,ana@example.com\n\"=HYPERLINK(\"\"http://evil.example\"\")\",x@example.com\n"), 422,
			"line 3 (First Name): the cell =HYPERLINK(&#34;http://evil.example&#34;) is a spreadsheet formula"},
		{"many bad rows", map[string]string{"vendor": "fresha"}, "c.csv", manyBad, 422,
			"Correct these 25 rows, or their records in the other system, and upload the file again:</p><ul><li>line 2 (email): &#34;nope0&#34; is not an email address</li>"},
		{"many bad rows, the rest counted", map[string]string{"vendor": "fresha"}, "c.csv", manyBad, 422,
			"<li>… and 5 more problems</li>"},
		{"bad time", map[string]string{"vendor": "fresha"}, "a.csv", []byte("Scheduled Date,Time,Service,Team Member,Client\n" + w.Day + ",25:99,Haircut,Ana,Zoe Ruiz\n"), 422,
			"line 2: cannot read the start"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.upload(t, tc.fields, tc.file, tc.body)
			if res.Status != tc.status || !strings.Contains(res.Body, tc.want) {
				t.Errorf("got %d, want %d with %q:\n%.3000s", res.Status, tc.status, tc.want, res.Body)
			}
			if got := counts(); got != before {
				t.Errorf("wrote: %s → %s", before, got)
			}
		})
	}
	// A file over the admin's usual 1 MiB form cap but under the import's 2 MiB is taken: its
	// dry run, then its import, which carries it back base64-encoded.
	big := []byte("First Name,Email,Notes\n")
	for i := range 100 {
		big = append(big, fmt.Sprintf("Big%d,big%d@example.com,%s\n", i, i, strings.Repeat("n", 15<<10))...)
	}
	res := c.upload(t, map[string]string{"vendor": "fresha"}, "big.csv", big)
	wantStatus(t, res, 200)
	wantBody(t, res, "It would create 100 clients. 0 rows would be skipped.")
	m := regexp.MustCompile(`name="file" value="([^"]*)"`).FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatal("no file in the dry run's page")
	}
	wantRedirect(t, c.post(t, "/settings/data/import/run", url.Values{"vendor": {"fresha"}, "file": {m[1]}}), "/settings/data")
	if got, want := counts(), bumped(t, before, 0, 100); got != want {
		t.Errorf("bookings/clients %s → %s, want %s", before, got, want)
	}
	before = counts()
	// A form that is not an upload, and an import of a file that is not base64.
	wantStatus(t, c.post(t, "/settings/data/import", url.Values{"vendor": {"square"}}), 400)
	wantStatus(t, c.post(t, "/settings/data/import/run", url.Values{"vendor": {"square"}, "file": {"%%%"}}), 400)
	if got := counts(); got != before {
		t.Errorf("wrote: %s → %s", before, got)
	}
}

// bumped is counts "bookings/clients" with b and c more.
func bumped(t *testing.T, counts string, b, c int) string {
	t.Helper()
	var nb, nc int
	if _, err := fmt.Sscanf(counts, "%d/%d", &nb, &nc); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d/%d", nb+b, nc+c)
}
