package api

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// TestGetServiceTrickyText checks that images and providers, which SQLite hands over as JSON
// arrays, reach the client exactly as stored and in display order, whatever their text holds.
func TestGetServiceTrickyText(t *testing.T) {
	f := newFixture(t)
	urls := []string{
		"https://img.example.com/plain.jpg",
		`https://img.example.com/"quoted"\back\slash.jpg`,
		"https://img.example.com/line\nbreak\ttab\u0001.jpg",
		"https://img.example.com/ü\u2028\u2029🎉<&>.jpg",
		`https://img.example.com/},{"id":9,"url":"x.jpg`,
	}
	// Inserted in reverse display order, so ids run against positions.
	for i := len(urls) - 1; i >= 0; i-- {
		f.exec(`INSERT INTO service_images (service_id, url, position) VALUES (4, ?, ?)`, urls[i], i)
	}
	f.exec(`INSERT INTO service_images (service_id, url, position) VALUES (4, 'https://img.example.com/tie.jpg', 4)`)
	f.exec(`UPDATE providers SET public_name = ? WHERE id = 3`, "Cleo \"C\\\" \u2028 Ñ")
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (4, 1)`)

	type image struct {
		ID  int64  `json:"id"`
		URL string `json:"url"`
	}
	type ref struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	var want struct {
		Images    []image `json:"images"`
		Providers []ref   `json:"providers"`
	}
	rows, err := f.db.Read.Query(`SELECT id, url FROM service_images WHERE service_id = 4 ORDER BY position, id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var img image
		if err := rows.Scan(&img.ID, &img.URL); err != nil {
			t.Fatal(err)
		}
		want.Images = append(want.Images, img)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want.Images) != len(urls)+1 || want.Images[0].URL != urls[0] || want.Images[5].URL != "https://img.example.com/tie.jpg" {
		t.Fatalf("got stored images %+v, want the %d inserted in display order", want.Images, len(urls)+1)
	}
	want.Providers = []ref{{1, "Ana"}, {3, "Cleo \"C\\\" \u2028 Ñ"}}

	resp, body := f.call(http.MethodGet, "/v3/services/4", nil)
	wantStatus(t, resp, body, http.StatusOK)
	var got struct {
		Images    json.RawMessage `json:"images"`
		Providers json.RawMessage `json:"providers"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  json.RawMessage
		want any
	}{
		{"images", got.Images, want.Images},
		{"providers", got.Providers, want.Providers},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c.want); err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSpace(buf.Bytes()); !bytes.Equal(c.got, w) {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, c.got, w)
		}
	}
}

// TestGetServiceBeforeSetup checks that a service read before the business exists answers as
// it always did: 404 with detail "resource".
func TestGetServiceBeforeSetup(t *testing.T) {
	f := newFixture(t)
	f.exec(`PRAGMA foreign_keys = OFF`)
	f.exec(`DELETE FROM company`)
	resp, body := f.call(http.MethodGet, "/v3/services/1", nil)
	wantError(t, resp, body, http.StatusNotFound, "not_found", "resource")
}

// otherProcess opens the fixture's database file on a connection of its own, as the CLI or a
// second process would: its writes reach the server only through the file.
func otherProcess(t *testing.T, f *fixture) *sql.DB {
	t.Helper()
	var path string
	if err := f.db.Read.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// TestGetServiceCacheFollowsEveryWrite checks that the cached answer of GET /v3/services/{id}
// changes with a write, made elsewhere, to any table it is built from.
func TestGetServiceCacheFollowsEveryWrite(t *testing.T) {
	type detail struct {
		Name      string          `json:"name"`
		CompanyID int64           `json:"company_id"`
		Category  json.RawMessage `json:"category"`
		Images    json.RawMessage `json:"images"`
		Providers json.RawMessage `json:"providers"`
	}
	cases := []struct {
		name  string
		write string
		field func(detail) string
		want  string
	}{
		{"service renamed", `UPDATE services SET name = 'Fade' WHERE id = 1`,
			func(d detail) string { return d.Name }, "Fade"},
		{"category renamed", `UPDATE categories SET name = 'Barber' WHERE id = 1`,
			func(d detail) string { return string(d.Category) }, `{"id":1,"name":"Barber"}`},
		{"category deleted", `DELETE FROM categories WHERE id = 1`,
			func(d detail) string { return string(d.Category) }, `null`},
		{"image added", `INSERT INTO service_images (id, service_id, url, position) VALUES (9, 1, 'https://img.example.com/new.jpg', -1)`,
			func(d detail) string { return string(d.Images) },
			`[{"id":9,"url":"https://img.example.com/new.jpg"},{"id":1,"url":"https://img.example.com/s1a.jpg"},{"id":2,"url":"https://img.example.com/s1b.jpg"}]`},
		{"image moved", `UPDATE service_images SET position = 5 WHERE id = 1`,
			func(d detail) string { return string(d.Images) },
			`[{"id":2,"url":"https://img.example.com/s1b.jpg"},{"id":1,"url":"https://img.example.com/s1a.jpg"}]`},
		{"image deleted", `DELETE FROM service_images WHERE id = 2`,
			func(d detail) string { return string(d.Images) }, `[{"id":1,"url":"https://img.example.com/s1a.jpg"}]`},
		{"provider unassigned", `DELETE FROM service_providers WHERE service_id = 1 AND provider_id = 2`,
			func(d detail) string { return string(d.Providers) }, `[{"id":1,"name":"Ana"},{"id":3,"name":"Cleo"}]`},
		{"provider activated", `UPDATE providers SET active = 1 WHERE id = 4; INSERT INTO service_providers (service_id, provider_id) VALUES (1, 4)`,
			func(d detail) string { return string(d.Providers) },
			`[{"id":1,"name":"Ana"},{"id":2,"name":"Ben"},{"id":3,"name":"Cleo"},{"id":4,"name":"Dan"}]`},
		{"provider renamed", `UPDATE providers SET public_name = 'Benjamin' WHERE id = 2`,
			func(d detail) string { return string(d.Providers) }, `[{"id":1,"name":"Ana"},{"id":2,"name":"Benjamin"},{"id":3,"name":"Cleo"}]`},
		{"company renumbered", `UPDATE company SET id = 7`,
			func(d detail) string { return fmt.Sprint(d.CompanyID) }, "7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			other := otherProcess(t, f)
			var before detail
			for range 2 { // the second answer comes from the cache
				f.getJSON("/v3/services/1", &before)
			}
			if got := c.field(before); got == c.want {
				t.Fatalf("got %s before the write; the case cannot fail", got)
			}
			if _, err := other.Exec(c.write); err != nil {
				t.Fatal(err)
			}
			var after detail
			f.getJSON("/v3/services/1", &after)
			if got := c.field(after); got != c.want {
				t.Fatalf("got %s after the write, want %s", got, c.want)
			}
		})
	}
}

// TestGetServiceCachedBytes checks that an answer from the cache is byte for byte the answer
// that filled it.
func TestGetServiceCachedBytes(t *testing.T) {
	f := newFixture(t)
	resp, first := f.call(http.MethodGet, "/v3/services/1", nil)
	wantStatus(t, resp, first, http.StatusOK)
	resp, second := f.call(http.MethodGet, "/v3/services/1", nil)
	wantStatus(t, resp, second, http.StatusOK)
	if !bytes.Equal(first, second) {
		t.Fatalf("got\n%s\nfrom the cache, want\n%s", second, first)
	}
	if got := resp.Header.Get("Content-Type"); got != "application/json; charset=utf-8" {
		t.Fatalf("got Content-Type %q, want application/json; charset=utf-8", got)
	}
}
