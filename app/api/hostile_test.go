package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestHostileWrites sends malformed, oversized and hostile bodies to every client write. Each
// gets its documented 4xx, never a 500, and leaves no row behind (clients, attribute values,
// events) and client 1 untouched.
func TestHostileWrites(t *testing.T) {
	f := newFixture(t)
	_, client1 := f.call("GET", "/v3/clients/1", nil)
	bodies := []struct {
		name   string
		body   string
		status int
		code   string
		detail string
	}{
		{"malformed", `{"first_name":`, 400, "invalid_body", "malformed_json"},
		{"bare word", `first_name=A`, 400, "invalid_body", "expected_object"},
		{"empty", ``, 400, "invalid_body", "expected_object"},
		{"array", `[{"first_name":"A","last_name":"B"}]`, 400, "invalid_body", "expected_object"},
		{"string", `"A"`, 400, "invalid_body", "expected_object"},
		{"number", `42`, 400, "invalid_body", "expected_object"},
		{"null", `null`, 400, "invalid_body", "expected_object"},
		{"trailing data", `{"first_name":"A","last_name":"B"} {"x":1}`, 400, "invalid_body", "trailing_data"},
		// Found by FuzzDecodeObject: json.Decoder.More is false before a closing bracket, so a
		// stray "}" or "]" after the object used to pass as the end of the body.
		{"trailing closing brace", `{"first_name":"A","last_name":"B"} }`, 400, "invalid_body", "trailing_data"},
		{"trailing closing bracket", `{"first_name":"A","last_name":"B"}]`, 400, "invalid_body", "trailing_data"},
		{"invalid UTF-8", "{\"first_name\":\"A\xff\",\"last_name\":\"B\"}", 400, "invalid_body", "invalid_utf8"},
		{"raw NUL byte", "{\"first_name\":\"A\x00\",\"last_name\":\"B\"}", 400, "invalid_body", "malformed_json"},
		{"escaped NUL", `{"first_name":"A\u0000","last_name":"B"}`, 422, "unprocessable_entity", "body: strings must not contain NUL characters"},
		// encoding/json turns a surrogate escape that is not half of a pair into U+FFFD: the client's
		// text was stored as "A\uFFFD", a character it never sent.
		{"lone high surrogate", `{"first_name":"A\ud800","last_name":"B"}`, 422, "unprocessable_entity", "body: strings must not contain unpaired surrogates (\\ud800)"},
		{"lone low surrogate", `{"first_name":"A","last_name":"\uDC00B"}`, 422, "unprocessable_entity", "body: strings must not contain unpaired surrogates (\\uDC00)"},
		{"surrogates reversed", `{"first_name":"A\udf89\ud83c","last_name":"B"}`, 422, "unprocessable_entity", "body: strings must not contain unpaired surrogates (\\udf89)"},
		{"high surrogate then text", `{"first_name":"A\ud83c\n","last_name":"B"}`, 422, "unprocessable_entity", "body: strings must not contain unpaired surrogates (\\ud83c)"},
		{"first name number", `{"first_name":1,"last_name":"B"}`, 400, "invalid_body", "first_name: expected string"},
		{"first name object", `{"first_name":{"$ne":null},"last_name":"B"}`, 400, "invalid_body", "first_name: expected string"},
		{"email array", `{"first_name":"A","email":["a@b.com"]}`, 400, "invalid_body", "email: expected string"},
		{"gender bool", `{"first_name":"A","last_name":"B","gender":true}`, 400, "invalid_body", "gender: expected integer"},
		{"age overflow", `{"first_name":"A","last_name":"B","age":9223372036854775808}`, 400, "invalid_body", "age: expected integer"},
		{"attributes string", `{"first_name":"A","last_name":"B","custom_attributes":"x"}`, 400, "invalid_body", "custom_attributes: expected array"},
		{"attributes numbers", `{"first_name":"A","last_name":"B","custom_attributes":[1,2]}`, 400, "invalid_body", "custom_attributes: expected object"},
		{"attribute id string", `{"first_name":"A","last_name":"B","custom_attributes":[{"id":"1","value":"x"}]}`, 400, "invalid_body", "custom_attributes.id: expected integer"},
		{"2 MiB", `{"first_name":"` + strings.Repeat("a", 2<<20) + `"}`, 413, "payload_too_large", "body_exceeds_1048576_bytes"},
		{"deep nesting", `{"first_name":"A","last_name":"B","x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`, 400, "invalid_body", "malformed_json"},
		{"SQL in email", `{"first_name":"A","email":"' OR 1=1 --"}`, 422, "unprocessable_entity", "email: must be a valid email address"},
		{"quotes in phone", `{"first_name":"A","phone":"+1\"; DROP TABLE clients; --"}`, 422, "unprocessable_entity", "phone: must be in E.164 format, e.g. +56912345678"},
		{"over-long", `{"first_name":"A","last_name":"` + strings.Repeat("b", 256) + `"}`, 422, "unprocessable_entity", "last_name: must be at most 255 characters"},
		{"bad attribute", `{"first_name":"A","last_name":"B","custom_attributes":[{"id":3,"value":"yes please"}]}`, 422, "unprocessable_entity", "custom_attributes.3: must be true or false"},
		{"attribute after a good one", `{"first_name":"A","last_name":"B","custom_attributes":[{"id":1,"value":"ok"},{"id":2,"value":"Bald"}]}`, 422, "unprocessable_entity", "custom_attributes.2: must be one of: Curly, Straight"},
	}
	writes := []struct{ method, path string }{{"POST", "/v3/clients"}, {"PATCH", "/v3/clients/1"}}
	for _, wr := range writes {
		for _, b := range bodies {
			if wr.method == "PATCH" && strings.HasPrefix(b.detail, "last_name: at least") {
				continue
			}
			t.Run(wr.method+" "+b.name, func(t *testing.T) {
				before := [3]int{f.count("clients"), f.count("client_attribute_values"), f.count("events")}
				resp, raw := f.call(wr.method, wr.path, b.body)
				wantError(t, resp, raw, b.status, b.code, b.detail)
				after := [3]int{f.count("clients"), f.count("client_attribute_values"), f.count("events")}
				if after != before {
					t.Fatalf("rows (clients, values, events): got %v, want %v", after, before)
				}
				if _, now := f.call("GET", "/v3/clients/1", nil); string(now) != string(client1) {
					t.Fatalf("client 1 changed:\ngot  %s\nwant %s", now, client1)
				}
			})
		}
	}
	// Escapes that only look like the refused ones are text: a surrogate pair is one character,
	// and an escaped backslash followed by "u0000" is six characters, no NUL.
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"Fiesta \ud83c\udf89","last_name":"C:\\u0000\\ud800"}`)
	wantStatus(t, resp, raw, http.StatusCreated)
	var first, last string
	f.db.Read.QueryRow(`SELECT first_name, last_name FROM clients ORDER BY id DESC LIMIT 1`).Scan(&first, &last)
	if first != "Fiesta 🎉" || last != `C:\u0000\ud800` {
		t.Fatalf("stored %q %q, want %q %q", first, last, "Fiesta 🎉", `C:\u0000\ud800`)
	}
	// Hostile text that is nonetheless a valid name is stored verbatim, and harms nothing.
	sql := `Robert'); DROP TABLE clients;-- "%_\`
	resp, raw = f.call("POST", "/v3/clients", map[string]string{"first_name": sql, "last_name": "<script>alert(1)</script>"})
	wantStatus(t, resp, raw, http.StatusCreated)
	var stored string
	f.db.Read.QueryRow(`SELECT first_name FROM clients ORDER BY id DESC LIMIT 1`).Scan(&stored)
	if stored != sql {
		t.Fatalf("got first_name %q, want %q", stored, sql)
	}
}

// TestHostileParameters sends bad ids, paging values and filters to every read and to the
// deactivate write: each answer is the documented 4xx, none is a 500, nothing is written.
func TestHostileParameters(t *testing.T) {
	f := newFixture(t)
	type want struct {
		status       int
		code, detail string
	}
	badPage := []struct{ value, detail string }{
		{"0", "invalid_page"}, {"-1", "invalid_page"}, {"abc", "invalid_page"}, {"1.5", "invalid_page"},
		{"99999999999999999999", "invalid_page"}, {"1000001", "invalid_page"}, {"1%20OR%201=1", "invalid_page"}, {"%00", "invalid_page"},
	}
	badPerPage := []string{"0", "-5", "101", "1e2", "x", "%27"}
	var cases []struct {
		path string
		want want
	}
	add := func(path string, w want) {
		cases = append(cases, struct {
			path string
			want want
		}{path, w})
	}
	for _, list := range []string{"/v3/clients", "/v3/services", "/v3/providers", "/v3/locations", "/v3/categories"} {
		for _, p := range badPage {
			add(list+"?page="+p.value, want{400, "bad_request", p.detail})
		}
		for _, p := range badPerPage {
			add(list+"?per_page="+p, want{400, "bad_request", "invalid_per_page"})
		}
	}
	for _, resource := range []string{"clients", "services", "providers", "locations"} {
		singular := strings.TrimSuffix(resource, "s")
		for _, id := range []string{"0", "-1", "abc", "1.5", "99999999999999999999", "1%3B%20DROP%20TABLE%20clients", "%00", "9223372036854775807"} {
			add(fmt.Sprintf("/v3/%s/%s", resource, id), want{404, "not_found", singular})
		}
	}
	for _, id := range []string{"0", "-1", "x", "99999999999999999999"} {
		add("/v3/clients/"+id+"/custom_attributes", want{404, "not_found", "client"})
	}
	for _, v := range []string{"0", "-1", "x", "1,2", "99999999999999999999"} {
		add("/v3/services?provider_id="+v, want{400, "bad_request", "invalid_provider_id"})
	}
	for _, v := range []string{"yes", "TRUE", "2", "%27"} {
		add("/v3/services?active="+v, want{400, "bad_request", "invalid_active"})
		add("/v3/providers?active="+v, want{400, "bad_request", "invalid_active"})
		add("/v3/locations?active="+v, want{400, "bad_request", "invalid_active"})
	}
	for _, v := range []string{"0", "a", "1,-1", "1%3BDROP", "99999999999999999999"} {
		add("/v3/providers?location_ids="+v, want{400, "bad_request", "invalid_location_ids"})
		add("/v3/providers?service_ids="+v, want{400, "bad_request", "invalid_service_ids"})
	}
	add("/v3/providers?location_ids="+strings.Repeat("1,", 101), want{400, "bad_request", "too_many_location_ids"})
	for _, v := range []string{"name", "public_name%3B", "id%20desc", "created_at,id"} {
		add("/v3/providers?sort_by="+v, want{400, "bad_request", "invalid_sort_by"})
	}
	for _, v := range []string{"ASC", "random", "asc%3B"} {
		add("/v3/providers?order_by="+v, want{400, "bad_request", "invalid_order_by"})
	}
	add("/v3/providers?public_name="+strings.Repeat("x", 256), want{400, "bad_request", "invalid_public_name"})
	add("/v3/providers?public_name=a%00", want{400, "bad_request", "invalid_public_name"})
	add("/v3/providers?public_name=%C3", want{400, "bad_request", "invalid_public_name"})
	add("/v3/clients/quick-search?q=a&limit=%27", want{400, "bad_request", "invalid_limit"})

	counts := func() [3]int {
		return [3]int{f.count("clients"), f.count("client_attribute_values"), f.count("events")}
	}
	before := counts()
	for _, c := range cases {
		resp, raw := f.call("GET", c.path, nil)
		if resp.StatusCode >= 500 {
			t.Errorf("GET %s: got %d %s", c.path, resp.StatusCode, raw)
			continue
		}
		t.Run(c.path, func(t *testing.T) { wantError(t, resp, raw, c.want.status, c.want.code, c.want.detail) })
	}
	for _, id := range []string{"0", "-1", "abc", "99999999999999999999", "999"} {
		resp, raw := f.call("PATCH", "/v3/clients/"+id+"/deactivate", nil)
		wantError(t, resp, raw, 404, "not_found", "client")
		resp, raw = f.call("PATCH", "/v3/clients/"+id, `{"city":"X"}`)
		wantError(t, resp, raw, 404, "not_found", "client")
	}
	if after := counts(); after != before {
		t.Fatalf("rows (clients, values, events): got %v, want %v", after, before)
	}
}
