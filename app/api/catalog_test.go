package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// exec runs fixture SQL or fails the test.
func (f *fixture) exec(query string, args ...any) {
	f.t.Helper()
	if _, err := f.db.Write.Exec(query, args...); err != nil {
		f.t.Fatalf("%v\n%s", err, query)
	}
}

// getJSON fetches path, wants 200 and decodes the body into v.
func (f *fixture) getJSON(path string, v any) {
	f.t.Helper()
	resp, raw := f.call("GET", path, nil)
	wantStatus(f.t, resp, raw, http.StatusOK)
	if err := json.Unmarshal(raw, v); err != nil {
		f.t.Fatalf("%s: %v in %s", path, err, raw)
	}
}

type idList struct {
	Data []struct {
		ID int64 `json:"id"`
	} `json:"data"`
	Pagination struct {
		TotalRecords int64 `json:"total_records"`
		TotalPages   int64 `json:"total_pages"`
	} `json:"pagination"`
}

func (l idList) ids() []int64 {
	out := []int64{}
	for _, d := range l.Data {
		out = append(out, d.ID)
	}
	return out
}

func TestListServicesFilters(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		query string
		want  []int64
	}{
		{"", []int64{1, 2, 3, 4, 5}},
		{"?active=true", []int64{1, 2, 3, 4}},
		{"?active=false", []int64{5}},
		{"?provider_id=1", []int64{1, 2}},
		{"?provider_id=3", []int64{1, 3, 4}},
		{"?provider_id=3&per_page=2&page=2", []int64{4}},
		{"?provider_id=999", []int64{}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			var got idList
			f.getJSON("/v3/services"+c.query, &got)
			if !reflect.DeepEqual(got.ids(), c.want) {
				t.Fatalf("got services %v, want %v", got.ids(), c.want)
			}
		})
	}
	var paged idList
	f.getJSON("/v3/services?provider_id=3&per_page=2", &paged)
	if paged.Pagination.TotalRecords != 3 || paged.Pagination.TotalPages != 2 {
		t.Fatalf("got total %d in %d pages, want 3 in 2", paged.Pagination.TotalRecords, paged.Pagination.TotalPages)
	}
}

func TestServiceShapes(t *testing.T) {
	f := newFixture(t)
	f.exec(`UPDATE services SET session_count = 5, online_payment_mode = 'MANDATORY_PARTIAL', online_payment_cents = 500050,
		location_id = 1, category_id = NULL, favorite = 1 WHERE id = 3`)
	f.exec(`INSERT INTO service_images (service_id, url, position) VALUES (3, 'https://img.example.com/s3.jpg', 0)`)
	type service struct {
		Type          string          `json:"type"`
		Price         string          `json:"price"`
		Discount      *string         `json:"discount"`
		Category      json.RawMessage `json:"category"`
		LocationID    *int64          `json:"location_id"`
		Keywords      []string        `json:"keywords"`
		OnlinePayment json.RawMessage `json:"online_payment"`
		Image         json.RawMessage `json:"image"`
		Images        json.RawMessage `json:"images"`
		Providers     json.RawMessage `json:"providers"`
	}
	str := func(s string) *string { return &s }
	one := int64(1)
	cases := []struct {
		id   int64
		want service
	}{
		{1, service{Type: "service", Price: "15000.0", Discount: str("10.0"), Category: raw(`{"id":1,"name":"Hair"}`),
			Keywords: []string{"cut", "hair"}, OnlinePayment: raw(`{"mode":"NOT_AVAILABLE","amount":null}`),
			Images:    raw(`[{"id":1,"url":"https://img.example.com/s1a.jpg"},{"id":2,"url":"https://img.example.com/s1b.jpg"}]`),
			Providers: raw(`[{"id":1,"name":"Ana"},{"id":2,"name":"Ben"},{"id":3,"name":"Cleo"}]`)}},
		{3, service{Type: "session", Price: "12000.0", Category: raw(`null`), LocationID: &one, Keywords: []string{},
			OnlinePayment: raw(`{"mode":"MANDATORY_PARTIAL","amount":5000.5}`),
			Images:        raw(`[{"id":3,"url":"https://img.example.com/s3.jpg"}]`), Providers: raw(`[{"id":3,"name":"Cleo"}]`)}},
		{4, service{Type: "class", Price: "30000.0", Category: raw(`{"id":3,"name":"Wellness"}`), Keywords: []string{"relax"},
			OnlinePayment: raw(`{"mode":"NOT_AVAILABLE","amount":null}`), Images: raw(`[]`), Providers: raw(`[{"id":3,"name":"Cleo"}]`)}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.id), func(t *testing.T) {
			var got service
			f.getJSON(fmt.Sprintf("/v3/services/%d", c.id), &got)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
	// Inactive providers are not listed as delivering a service.
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (2, 4)`)
	var colour service
	f.getJSON("/v3/services/2", &colour)
	if string(colour.Providers) != `[{"id":1,"name":"Ana"}]` {
		t.Fatalf("got providers %s, want only the active Ana", colour.Providers)
	}
	// The list shows the first image only.
	var list struct{ Data []service }
	f.getJSON("/v3/services?per_page=1", &list)
	if string(list.Data[0].Image) != `{"id":1,"url":"https://img.example.com/s1a.jpg"}` || list.Data[0].Images != nil {
		t.Fatalf("got image %s images %s, want the first image and no images", list.Data[0].Image, list.Data[0].Images)
	}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestListProvidersFilters(t *testing.T) {
	f := newFixture(t)
	f.exec(`UPDATE providers SET created_at = created_at + id * (CASE id WHEN 2 THEN -1000 ELSE 1000 END)`)
	f.exec(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (5, 'Ana_%Bel', 2, 1, 1)`)
	cases := []struct {
		query string
		want  []int64
	}{
		{"", []int64{1, 2, 3, 4, 5}},
		{"?location_ids=2", []int64{1, 3, 5}},
		{"?location_ids=1&location_ids=2", []int64{1, 2, 3, 4, 5}},
		{"?location_ids[]=1", []int64{1, 2, 4}},
		{"?service_ids=3,4", []int64{3}},
		{"?service_ids=1&location_ids=1", []int64{1, 2}},
		{"?public_name=AN", []int64{1, 4, 5}},
		{"?public_name=_%25", []int64{5}},
		{"?public_name=%25", []int64{5}},
		{"?public_name=zzz", []int64{}},
		{"?active=false", []int64{4}},
		{"?active=true&location_ids=1", []int64{1, 2}},
		{"?sort_by=id&order_by=desc", []int64{5, 4, 3, 2, 1}},
		{"?sort_by=public_name", []int64{1, 5, 2, 3, 4}},
		{"?sort_by=public_name&order_by=desc", []int64{4, 3, 2, 5, 1}},
		{"?sort_by=created_at", []int64{5, 2, 1, 3, 4}},
		{"?sort_by=created_at&order_by=desc&per_page=2&page=2", []int64{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			var got idList
			f.getJSON("/v3/providers"+c.query, &got)
			if !reflect.DeepEqual(got.ids(), c.want) {
				t.Fatalf("got providers %v, want %v", got.ids(), c.want)
			}
		})
	}
	for _, q := range []string{"sort_by=email", "sort_by=ID", "order_by=up", "location_ids=a", "service_ids=1,-2", "active=maybe", "public_name=%00"} {
		resp, raw := f.call("GET", "/v3/providers?"+q, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: got %d, want 400 (%s)", q, resp.StatusCode, raw)
		}
	}
}

func TestProviderShape(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO provider_images (provider_id, url, thumbnail_url, position) VALUES
		(3, 'https://img.example.com/p3b.jpg', 'https://img.example.com/p3b_t.jpg', 1),
		(3, 'https://img.example.com/p3a.jpg', 'https://img.example.com/p3a_t.jpg', 0)`)
	f.exec(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (6, 'Eve', 1, 1, 1)`)
	var cleo, eve, ana map[string]json.RawMessage
	f.getJSON("/v3/providers/3", &cleo)
	f.getJSON("/v3/providers/6", &eve)
	f.getJSON("/v3/providers/1", &ana)
	want := map[string]string{
		"images": `[{"id":2,"url":"https://img.example.com/p3a.jpg","thumbnail_url":"https://img.example.com/p3a_t.jpg"},` +
			`{"id":1,"url":"https://img.example.com/p3b.jpg","thumbnail_url":"https://img.example.com/p3b_t.jpg"}]`,
		"location_id":        `2`,
		"provider_open_days": `true`,
	}
	for k, v := range want {
		if string(cleo[k]) != v {
			t.Errorf("provider 3 %s: got %s, want %s", k, cleo[k], v)
		}
	}
	if string(eve["provider_open_days"]) != "false" || string(eve["provider_times"]) != "[]" {
		t.Errorf("provider without hours: got open days %s times %s, want false []", eve["provider_open_days"], eve["provider_times"])
	}
	// Ana works at locations 1 (Mon–Fri) and 2 (Saturday); her main location is 1.
	var times []struct {
		DayID int64 `json:"day_id"`
	}
	json.Unmarshal(ana["provider_times"], &times)
	if len(times) != 5 || times[0].DayID != 1 || times[4].DayID != 5 {
		t.Errorf("Ana's times: got %s, want Monday–Friday at her main location", ana["provider_times"])
	}
}

func TestCustomAttributeTemplates(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("GET", "/v3/custom_attributes", nil)
	body := string(wantStatus(t, resp, raw, http.StatusOK))
	want := `[{"id":1,"name":"Preferred stylist","datatype":"text","order":1,"description":"Pick your stylist","mandatory":false,` +
		`"attribute_group":{"id":1,"name":"Preferences","order":1},"attribute_categories":[]},` +
		`{"id":2,"name":"Hair type","datatype":"categoric","order":2,"description":null,"mandatory":true,"attribute_group":null,` +
		`"attribute_categories":[{"id":1,"category":"Curly","order":1},{"id":2,"category":"Straight","order":2}]},` +
		`{"id":3,"name":"VIP","datatype":"boolean","order":3,"description":null,"mandatory":false,"attribute_group":null,"attribute_categories":[]}]` + "\n"
	if body != want {
		t.Fatalf("got  %s\nwant %s", body, want)
	}
}
