package admin_test

import (
	"archive/zip"
	"encoding/csv"
	"io"
	"strings"
	"testing"
	"time"

	"frontdesk/app/importer"
)

// TestBookingsCSV: the bookings list links to its CSV with the page's filters, and the download
// is an attachment of text/csv holding exactly the bookings those filters show, times in the
// business's zone.
func TestBookingsCSV(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	day, err := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	if err != nil {
		t.Fatal(err)
	}
	add := func(location, provider int64, status int, clock int) {
		t.Helper()
		start := day.Add(time.Duration(clock) * time.Hour).UnixMilli()
		end := start + 30*60*1000
		if _, err := d.Write.Exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
	block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 2500, 2500, ?, ?)`,
			location, w.serviceID, provider, w.mariaID, status, start, end, start, end, start, start); err != nil {
			t.Fatal(err)
		}
	}
	add(w.norteID, w.anaID, 1, 9)
	add(w.norteID, w.brunoID, 5, 10) // cancelled
	add(w.nocturnoID, w.noraID, 1, 23)
	add(w.norteID, w.anaID, 1, 24+9) // the next day

	filters := "location=" + w.Location + "&from=" + w.Day + "&to=" + w.Day
	page := c.get(t, "/bookings?"+filters+"&page=1")
	wantStatus(t, page, 200)
	wantBody(t, page, `href="/bookings/csv?from=`+w.Day+`&amp;location=`+w.Location+`&amp;to=`+w.Day+`"`, "Download CSV")

	res := c.get(t, "/bookings/csv?"+filters)
	wantStatus(t, res, 200)
	if got := res.Header.Get("Content-Type"); got != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type %q", got)
	}
	if got := res.Header.Get("Content-Disposition"); !strings.HasPrefix(got, `attachment; filename="bookings-`) || !strings.HasSuffix(got, `.csv"`) {
		t.Errorf("Content-Disposition %q", got)
	}
	records, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range records[1:] {
		got = append(got, r[1]+" "+r[3]+" "+r[4]+" "+r[6])
	}
	want := []string{w.Day + " 09:00:00 Confirmed Norte Ana", w.Day + " 10:00:00 Cancelled Norte Bruno"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bookings %q, want %q", got, want)
	}
	if records[0][1] != "start (America/New_York)" {
		t.Errorf("header %q", records[0])
	}

	res = c.get(t, "/bookings/csv?"+filters+"&status=5&excel=1")
	if !strings.HasPrefix(res.Body, "\uFEFF") || strings.Count(res.Body, "\r\n") != 2 || !strings.Contains(res.Body, "Bruno") {
		t.Errorf("cancelled only, Excel: %q", res.Body)
	}
	wantStatus(t, c.get(t, "/bookings/csv?from=yesterday"), 400)
}

// TestClientsCSV: the clients list links to its CSV with its search, and the file holds the
// clients it finds, a phone starting with "+" neutralised.
func TestClientsCSV(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	seedBookingWorld(t, ts)
	page := c.get(t, "/clients?q=diaz&status=all")
	wantBody(t, page, `href="/clients/csv?q=diaz&amp;status=all"`, "Download CSV")
	res := c.get(t, "/clients/csv?q=diaz&status=all")
	wantStatus(t, res, 200)
	records, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || records[1][1] != "Pedro" || records[1][4] != "'+56911112222" {
		t.Errorf("clients %q, want Pedro alone, his phone neutralised", records)
	}
}

// TestMessageLogCSV: the message log links to its CSV with its filters, and the download is
// the log's CSV.
func TestMessageLogCSV(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/settings/messages/log?state=failed"), `href="/settings/messages/log/csv?state=failed"`)
	res := c.get(t, "/settings/messages/log/csv?state=failed")
	wantStatus(t, res, 200)
	if res.Header.Get("Content-Type") != "text/csv; charset=utf-8" || !strings.HasPrefix(res.Body, "id,send at (UTC),kind,") {
		t.Errorf("%v %q", res.Header, res.Body)
	}
}

// TestWebhookDeliveriesCSV: an endpoint's page links to its delivery log's CSV with the page's
// filters, and the download holds that endpoint's deliveries as the filters select them.
func TestWebhookDeliveriesCSV(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	id, _ := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "booking.*"))
	other, _ := createWebhook(t, c, webhookForm(rc.URL+"/other", "booking.*"))
	path := webhooksPath + "/" + id
	event := lastTestEventID(t, followTest(t, c, id))
	followTest(t, c, other)
	page := waitForPage(t, c, path+"?state=succeeded", "1 succeeded · 0 failed")
	wantBody(t, page, `href="`+path+`/csv?state=succeeded" download data-testid="csv-download"`)

	for _, tc := range []struct {
		query string
		rows  int
	}{{"", 1}, {"state=succeeded", 1}, {"state=failed", 0}, {"type=webhook.test&q=" + event, 1}, {"q=evt_nothing", 0}, {"state=bogus", 1}} {
		res := c.get(t, path+"/csv?"+tc.query)
		wantStatus(t, res, 200)
		if res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
			!strings.HasPrefix(res.Header.Get("Content-Disposition"), `attachment; filename="deliveries-`) {
			t.Errorf("%q: headers %v", tc.query, res.Header)
		}
		records, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if records[0][1] != "created (UTC)" || len(records) != tc.rows+1 {
			t.Fatalf("%q: %q, want a header and %d rows", tc.query, records, tc.rows)
		}
		if tc.rows == 1 && (records[1][2] != id || records[1][3] != rc.URL+"/hooks" || records[1][4] != event || records[1][5] != "webhook.test" ||
			records[1][6] != "succeeded" || records[1][9] != "200") {
			t.Errorf("%q: row %q", tc.query, records[1])
		}
	}
	wantStatus(t, c.get(t, path+"/csv?from=soon"), 400)
	wantStatus(t, c.get(t, webhooksPath+"/999/csv"), 404)
}

// TestDownloadEverything: Settings → Data links to the zip, which streams as an attachment
// holding business.json and every list's CSV; the business.json is the import format.
func TestDownloadEverything(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	seedBookingWorld(t, ts)
	wantBody(t, c.get(t, "/settings/data"), `href="/settings/data/export" download data-testid="download-everything"`)
	res := c.get(t, "/settings/data/export")
	wantStatus(t, res, 200)
	if res.Header.Get("Content-Type") != "application/zip" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), `attachment; filename="frontdesk-`) {
		t.Errorf("headers %v", res.Header)
	}
	z, err := zip.NewReader(strings.NewReader(res.Body), int64(len(res.Body)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		if f.Name != "business.json" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := importer.Decode(b); err != nil || !strings.Contains(string(b), `"first_name":"Maria"`) {
			t.Errorf("business.json does not decode as an import file (%v):\n%.500s", err, b)
		}
	}
	if !strings.HasPrefix(strings.Join(names, " "), "business.json csv/bookings.csv csv/clients.csv") {
		t.Errorf("entries %q", names)
	}
}
