package api

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestQuickSearch(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO clients (id, first_name, last_name, email, phone, identification_number, record_number, active, created_at, updated_at) VALUES
		(10, 'Mario', 'Rossi', 'mrossi@example.com', '+390612345678', 'RSSMRA80', NULL, 1, 0, 0),
		(11, 'Omar', 'Khan', NULL, '+447700900123', NULL, 'K-100%', 1, 0, 0),
		(12, 'Mar', 'Ortiz', NULL, '+56922223333', NULL, NULL, 1, 0, 0),
		(13, 'Marta', 'Gone', 'marta@example.com', NULL, NULL, NULL, 0, 0, 0),
		(14, 'Quote"d', 'O''Brien', 'ob@example.com', NULL, NULL, NULL, 1, 0, 0),
		(15, 'Li', 'Wu', NULL, '+8613800000000', NULL, NULL, 1, 0, 0)`)
	cases := []struct {
		name string
		q    string
		want []int64
	}{
		{"exact, then prefix, then substring", "mar", []int64{12, 1, 10, 3, 11}},
		{"exact email beats substring", "ob@example.com", []int64{14}},
		{"case and accents ignored", "MARÍA", []int64{3, 1}},
		{"accent-free finds accented", "maria", []int64{1, 3}},
		{"full name exact", "maria lopez", []int64{1}},
		{"email exact first", "john@example.com", []int64{2}},
		{"phone substring", "5550", []int64{2}},
		{"phone prefix", "+3906", []int64{10}},
		{"identification", "12345678-9", []int64{1}},
		{"record number any case", "c-0002", []int64{2}},
		{"two characters: exact and prefix only", "om", []int64{11}},
		{"two characters ranked", "ma", []int64{12, 1, 10}},
		{"two characters exact", "li", []int64{15}},
		{"one character", "o", []int64{12, 11, 14}},
		{"full name", "MAR ortiz", []int64{12}},
		{"full name prefix", "maria lo", []int64{1}},
		{"full name then substring", "mario ross", []int64{10}},
		{"percent is literal", "00%", []int64{11}},
		{"lone percent", "%", []int64{}},
		{"underscore is literal", "_", []int64{}},
		{"LIKE pattern is literal", "m%r", []int64{}},
		{"quotes", `o'bri`, []int64{14}},
		{"double quote", `e"d`, []int64{14}},
		{"FTS syntax is literal", `mar* OR john`, []int64{}},
		{"SQL", `'; DROP TABLE clients; --`, []int64{}},
		{"deactivated clients hidden", "marta", []int64{}},
		{"spaces trimmed", "  omar  ", []int64{11}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got idList
			f.getJSON("/v3/clients/quick-search?q="+url.QueryEscape(c.q), &got)
			if !reflect.DeepEqual(got.ids(), c.want) {
				t.Fatalf("q=%q: got %v, want %v", c.q, got.ids(), c.want)
			}
		})
	}
	var limited idList
	f.getJSON("/v3/clients/quick-search?q=mar&limit=2", &limited)
	if !reflect.DeepEqual(limited.ids(), []int64{12, 1}) {
		t.Fatalf("limit 2: got %v, want [12 1]", limited.ids())
	}
	if f.count("clients") != 9 {
		t.Fatalf("got %d clients after searching for SQL, want 9", f.count("clients"))
	}
	var hit struct {
		Data []map[string]any `json:"data"`
	}
	f.getJSON("/v3/clients/quick-search?q=omar", &hit)
	want := map[string]any{"id": 11.0, "full_name": "Omar Khan", "email": nil, "phone": "+447700900123",
		"identification_number": nil, "record_number": "K-100%"}
	if len(hit.Data) != 1 || !reflect.DeepEqual(hit.Data[0], want) {
		t.Fatalf("got %v, want [%v]", hit.Data, want)
	}
}

func TestQuickSearchRefusals(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ query, detail string }{
		{"", "missing_q"},
		{"q=", "missing_q"},
		{"q=%20%20", "missing_q"},
		{"limit=5", "missing_q"},
		{"q=" + strings.Repeat("a", 51), "q_too_long"},
		{"q=" + strings.Repeat("ñ", 51), "q_too_long"},
		{"q=a%00b", "invalid_q"},
		{"q=a%01", "invalid_q"},
		{"q=%ff%fe", "invalid_q"},
		{"q=ana&limit=0", "invalid_limit"},
		{"q=ana&limit=26", "invalid_limit"},
		{"q=ana&limit=-1", "invalid_limit"},
		{"q=ana&limit=ten", "invalid_limit"},
		{"q=ana&limit=99999999999999999999", "invalid_limit"},
	}
	for _, c := range cases {
		resp, raw := f.call("GET", "/v3/clients/quick-search?"+c.query, nil)
		wantError(t, resp, raw, http.StatusBadRequest, "bad_request", c.detail)
	}
	resp, raw := f.call("GET", "/v3/clients/quick-search?q="+strings.Repeat("ñ", 50), nil)
	wantStatus(t, resp, raw, http.StatusOK)
}
