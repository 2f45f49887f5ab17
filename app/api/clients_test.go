package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// count returns the number of rows in table.
func (f *fixture) count(table string) int {
	f.t.Helper()
	var n int
	if err := f.db.Read.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		f.t.Fatal(err)
	}
	return n
}

// moreTemplates adds one custom attribute template per remaining datatype: 4 integer,
// 5 float, 6 date, 7 datetime, 8 file, 9 textarea.
func (f *fixture) moreTemplates() {
	f.t.Helper()
	f.exec(`INSERT INTO custom_attributes (id, name, datatype, sort_order) VALUES
		(4, 'Visits', 'integer', 4), (5, 'Height', 'float', 5), (6, 'First visit', 'date', 6),
		(7, 'Last call', 'datetime', 7), (8, 'Consent form', 'file', 8), (9, 'Notes', 'textarea', 9)`)
}

func TestCreateClientValidation(t *testing.T) {
	f := newFixture(t)
	f.moreTemplates()
	long := strings.Repeat("é", 256)
	attr := func(id int, value string) string {
		return fmt.Sprintf(`{"first_name":"A","last_name":"B","custom_attributes":[{"id":%d,"value":%s}]}`, id, value)
	}
	cases := []struct {
		name   string
		body   string
		status int
		detail string
	}{
		{"no first name", `{"last_name":"B"}`, 422, "first_name: is required"},
		{"blank first name", `{"first_name":"  ","last_name":"B"}`, 422, "first_name: is required"},
		{"null first name", `{"first_name":null,"last_name":"B"}`, 422, "first_name: is required"},
		{"only first name", `{"first_name":"A"}`, 422, "last_name: at least one of last_name, email or phone is required"},
		{"only first name and blanks", `{"first_name":"A","last_name":" ","email":"","phone":null}`, 422, "last_name: at least one of last_name, email or phone is required"},
		{"email without at", `{"first_name":"A","email":"nope"}`, 422, "email: must be a valid email address"},
		{"email without dot", `{"first_name":"A","email":"a@localhost"}`, 422, "email: must be a valid email address"},
		{"email with name", `{"first_name":"A","email":"Ann <a@b.com>"}`, 422, "email: must be a valid email address"},
		{"email with space", `{"first_name":"A","email":"a b@c.com"}`, 422, "email: must be a valid email address"},
		{"email with sql", `{"first_name":"A","email":"x'); DROP TABLE clients;--@a.com"}`, 422, "email: must be a valid email address"},
		{"phone without plus", `{"first_name":"A","phone":"56912345678"}`, 422, "phone: must be in E.164 format, e.g. +56912345678"},
		{"phone leading zero", `{"first_name":"A","phone":"+056912345678"}`, 422, "phone: must be in E.164 format, e.g. +56912345678"},
		{"phone with spaces", `{"first_name":"A","phone":"+56 9 1234 5678"}`, 422, "phone: must be in E.164 format, e.g. +56912345678"},
		{"phone too short", `{"first_name":"A","phone":"+123456"}`, 422, "phone: must be in E.164 format, e.g. +56912345678"},
		{"phone too long", `{"first_name":"A","phone":"+1234567890123456"}`, 422, "phone: must be in E.164 format, e.g. +56912345678"},
		{"long first name", `{"first_name":"` + long + `","last_name":"B"}`, 422, "first_name: must be at most 255 characters"},
		{"long city", `{"first_name":"A","last_name":"B","city":"` + long + `"}`, 422, "city: must be at most 255 characters"},
		{"control character", `{"first_name":"A\tB","last_name":"B"}`, 422, "first_name: must not contain control characters"},
		{"NUL", `{"first_name":"A\u0000B","last_name":"B"}`, 422, "body: strings must not contain NUL characters"},
		{"gender 3", `{"first_name":"A","last_name":"B","gender":3}`, 422, "gender: must be 0 (other), 1 (female) or 2 (male)"},
		{"gender null", `{"first_name":"A","last_name":"B","gender":null}`, 422, "gender: must be 0 (other), 1 (female) or 2 (male)"},
		{"gender string", `{"first_name":"A","last_name":"B","gender":"1"}`, 400, "gender: expected integer"},
		{"age 0", `{"first_name":"A","last_name":"B","age":0}`, 422, "age: must be between 1 and 150"},
		{"age negative", `{"first_name":"A","last_name":"B","age":-3}`, 422, "age: must be between 1 and 150"},
		{"age fractional", `{"first_name":"A","last_name":"B","age":1.5}`, 400, "age: expected integer"},
		{"age huge", `{"first_name":"A","last_name":"B","age":1e100}`, 400, "age: expected integer"},
		{"birth day 32", `{"first_name":"A","last_name":"B","birth_day":32}`, 422, "birth_day: must be between 1 and 31"},
		{"birth month 13", `{"first_name":"A","last_name":"B","birth_month":13}`, 422, "birth_month: must be between 1 and 12"},
		{"birth year 1800", `{"first_name":"A","last_name":"B","birth_year":1800}`, 422, "birth_year: must be between 1900 and 2026"},
		{"birth year future", `{"first_name":"A","last_name":"B","birth_year":2027}`, 422, "birth_year: must be between 1900 and 2026"},
		{"31 April", `{"first_name":"A","last_name":"B","birth_day":31,"birth_month":4}`, 422, "birth_day: month 4 has no day 31"},
		{"29 February 2001", `{"first_name":"A","last_name":"B","birth_day":29,"birth_month":2,"birth_year":2001}`, 422, "birth_day: month 2 has no day 29"},
		{"attribute unknown", attr(99, `"x"`), 422, "custom_attributes.99: no custom attribute has this id"},
		{"attribute id missing", `{"first_name":"A","last_name":"B","custom_attributes":[{"value":"x"}]}`, 422, "custom_attributes[0].id: is required"},
		{"attribute value missing", `{"first_name":"A","last_name":"B","custom_attributes":[{"id":1}]}`, 422, "custom_attributes.1: value is required"},
		{"attribute twice", `{"first_name":"A","last_name":"B","custom_attributes":[{"id":1,"value":"x"},{"id":1,"value":"y"}]}`, 422, "custom_attributes.1: is given more than once"},
		{"attribute object", attr(1, `{"a":1}`), 422, "custom_attributes.1: value must be a string, number or boolean"},
		{"attribute array", attr(1, `[1]`), 422, "custom_attributes.1: value must be a string, number or boolean"},
		{"text too long", attr(1, `"`+long+`"`), 422, "custom_attributes.1: must be at most 255 characters"},
		{"categoric unknown", attr(2, `"Wavy"`), 422, "custom_attributes.2: must be one of: Curly, Straight"},
		{"boolean maybe", attr(3, `"maybe"`), 422, "custom_attributes.3: must be true or false"},
		{"integer fraction", attr(4, `1.5`), 422, "custom_attributes.4: must be an integer"},
		{"integer text", attr(4, `"ten"`), 422, "custom_attributes.4: must be an integer"},
		{"float NaN", attr(5, `"NaN"`), 422, "custom_attributes.5: must be a number"},
		{"float hex", attr(5, `"0x10"`), 422, "custom_attributes.5: must be a number"},
		{"float overflow", attr(5, `1e400`), 422, "custom_attributes.5: must be a number within the range of a 64-bit float"},
		{"date 30 February", attr(6, `"2026-02-30"`), 422, "custom_attributes.6: must be a date as YYYY-MM-DD"},
		{"date other format", attr(6, `"21/11/2026"`), 422, "custom_attributes.6: must be a date as YYYY-MM-DD"},
		{"datetime without zone", attr(7, `"2026-11-21T10:00:00"`), 422, "custom_attributes.7: must be an RFC 3339 date-time, e.g. 2026-11-21T15:04:05-03:00"},
		{"file not a URL", attr(8, `"consent.pdf"`), 422, "custom_attributes.8: must be an absolute http or https URL of at most 2048 characters"},
		{"file javascript", attr(8, `"javascript:alert(1)"`), 422, "custom_attributes.8: must be an absolute http or https URL of at most 2048 characters"},
		{"textarea control", attr(9, `"a\u0007b"`), 422, "custom_attributes.9: must not contain control characters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := [3]int{f.count("clients"), f.count("client_attribute_values"), f.count("events")}
			resp, raw := f.call("POST", "/v3/clients", c.body)
			code := "unprocessable_entity"
			if c.status == 400 {
				code = "invalid_body"
			}
			wantError(t, resp, raw, c.status, code, c.detail)
			after := [3]int{f.count("clients"), f.count("client_attribute_values"), f.count("events")}
			if after != before {
				t.Fatalf("rows (clients, values, events): got %v after a refused request, want %v", after, before)
			}
		})
	}
}

func TestCreateClientNormalises(t *testing.T) {
	f := newFixture(t)
	f.moreTemplates()
	resp, raw := f.call("POST", "/v3/clients", `{
		"first_name": "  Rosa ", "last_name": "Díaz", "email": " Rosa.Diaz@Example.COM ", "phone": "+56911112222",
		"region": "RM", "birth_day": 29, "birth_month": 2,
		"custom_attributes": [
			{"id": 2, "value": "straight"}, {"id": 3, "value": 1}, {"id": 4, "value": 42}, {"id": 5, "value": -1.25e2},
			{"id": 6, "value": "2026-11-21"}, {"id": 7, "value": "2026-11-21T10:00:00-03:00"},
			{"id": 8, "value": "https://files.example.com/consent.pdf"}, {"id": 9, "value": "line 1\nline 2"},
			{"id": 1, "value": ""}
		]}`)
	var c map[string]json.RawMessage
	json.Unmarshal(wantStatus(t, resp, raw, http.StatusCreated), &c)
	want := map[string]string{
		"first_name": `"Rosa"`, "last_name": `"Díaz"`, "email": `"rosa.diaz@example.com"`, "gender": `0`,
		"birth_day": `29`, "birth_year": `null`, "active": `true`, "address": `null`, "region": `"RM"`,
		"created_at": `"2026-11-23T12:00:00Z"`,
		"custom_attributes": `[{"id":2,"name":"Hair type","datatype":"categoric","value":"Straight"},` +
			`{"id":3,"name":"VIP","datatype":"boolean","value":"true"},{"id":4,"name":"Visits","datatype":"integer","value":"42"},` +
			`{"id":5,"name":"Height","datatype":"float","value":"-1.25e2"},{"id":6,"name":"First visit","datatype":"date","value":"2026-11-21"},` +
			`{"id":7,"name":"Last call","datatype":"datetime","value":"2026-11-21T10:00:00-03:00"},` +
			`{"id":8,"name":"Consent form","datatype":"file","value":"https://files.example.com/consent.pdf"},` +
			`{"id":9,"name":"Notes","datatype":"textarea","value":"line 1\nline 2"}]`,
	}
	for k, v := range want {
		if string(c[k]) != v {
			t.Errorf("%s: got %s, want %s", k, c[k], v)
		}
	}
	var got map[string]json.RawMessage
	f.getJSON(fmt.Sprintf("/v3/clients/%s", c["id"]), &got)
	if !reflect.DeepEqual(got, c) {
		t.Errorf("GET after create:\ngot  %v\nwant %v", got, c)
	}
}

func TestUpdateClientMerges(t *testing.T) {
	f := newFixture(t)
	patch := func(body string) map[string]json.RawMessage {
		t.Helper()
		f.now = f.now.Add(1)
		resp, raw := f.call("PATCH", "/v3/clients/1", body)
		var c map[string]json.RawMessage
		json.Unmarshal(wantStatus(t, resp, raw, http.StatusOK), &c)
		return c
	}
	c := patch(`{"city":"Santiago","phone":null,"identification_number":"","age":40}`)
	want := map[string]string{
		"first_name": `"Maria"`, "last_name": `"Lopez"`, "email": `"maria.lopez@example.com"`, "city": `"Santiago"`,
		"phone": `null`, "identification_number": `null`, "age": `40`, "record_number": `"C-0001"`, "gender": `1`,
	}
	for k, v := range want {
		if string(c[k]) != v {
			t.Errorf("after first patch %s: got %s, want %s", k, c[k], v)
		}
	}
	c = patch(`{"custom_attributes":[{"id":1,"value":null},{"id":2,"value":"Curly"}],"region":null}`)
	if got := string(c["custom_attributes"]); got != `[{"id":2,"name":"Hair type","datatype":"categoric","value":"Curly"},{"id":3,"name":"VIP","datatype":"boolean","value":"true"}]` {
		t.Errorf("custom attributes: got %s", got)
	}
	if string(c["region"]) != `""` {
		t.Errorf("region cleared: got %s, want \"\"", c["region"])
	}
	// Removing the last of last_name, email and phone is refused; nothing changes.
	resp, raw := f.call("PATCH", "/v3/clients/1", `{"last_name":null,"email":null}`)
	wantError(t, resp, raw, 422, "unprocessable_entity", "last_name: at least one of last_name, email or phone is required")
	resp, raw = f.call("PATCH", "/v3/clients/1", `{"first_name":null}`)
	wantError(t, resp, raw, 422, "unprocessable_entity", "first_name: is required")
	var after map[string]json.RawMessage
	f.getJSON("/v3/clients/1", &after)
	if !reflect.DeepEqual(after, c) {
		t.Errorf("a refused patch changed the client:\ngot  %v\nwant %v", after, c)
	}
	// A patch that changes nothing writes nothing.
	events := f.count("events")
	same := patch(`{"city":"Santiago","email":"MARIA.LOPEZ@example.com"}`)
	if !reflect.DeepEqual(same, c) || f.count("events") != events {
		t.Errorf("no-op patch: got %v and %d events, want the unchanged client and %d events", same, f.count("events"), events)
	}
}

func TestUnknownFieldsAreIgnored(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"X","last_name":"Y","company_id":999,"favorite_color":"red"}`)
	var c map[string]json.RawMessage
	json.Unmarshal(wantStatus(t, resp, raw, http.StatusCreated), &c)
	for _, k := range []string{"company_id", "favorite_color"} {
		if _, ok := c[k]; ok {
			t.Errorf("response has %s: %s", k, raw)
		}
	}
	if strings.Contains(string(raw), "red") || strings.Contains(string(raw), "999") {
		t.Errorf("response carries an unknown field's value: %s", raw)
	}
	rows, err := f.db.Read.Query(`SELECT * FROM clients WHERE id = ?`, string(c["id"]))
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	if !rows.Next() {
		t.Fatal("the created client is not stored")
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for i, v := range values {
		if s := fmt.Sprint(v); s == "red" || s == "999" || cols[i] == "company_id" || cols[i] == "favorite_color" {
			t.Errorf("stored column %s = %v", cols[i], v)
		}
	}
	if n := f.count("client_attribute_values WHERE client_id = " + string(c["id"])); n != 0 {
		t.Errorf("got %d attribute values, want 0", n)
	}
	var body string
	f.db.Read.QueryRow(`SELECT body FROM events WHERE type = 'client.created'`).Scan(&body)
	if body == "" || strings.Contains(body, "favorite_color") || strings.Contains(body, "red") || strings.Contains(body, "999") {
		t.Errorf("event body: got %s, want the client without unknown fields", body)
	}
}

// event is an outbox row as the webhook engine will deliver it.
type event struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func (f *fixture) events() []event {
	f.t.Helper()
	rows, err := f.db.Read.Query(`SELECT type, body FROM events ORDER BY created_at, rowid`)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var typ string
		var body []byte
		if err := rows.Scan(&typ, &body); err != nil {
			f.t.Fatal(err)
		}
		var e event
		if err := json.Unmarshal(body, &e); err != nil {
			f.t.Fatalf("event body %s: %v", body, err)
		}
		if e.Type != typ {
			f.t.Fatalf("event row type %q, body type %q", typ, e.Type)
		}
		out = append(out, e)
	}
	return out
}

func TestClientEvents(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO webhooks (url, events_json, created_at, updated_at) VALUES ('https://hooks.example.com/a', '["client.*"]', 0, 0),
		('https://hooks.example.com/b', '["booking.*"]', 0, 0)`)
	steps := []struct {
		name, method, path, body string
		status                   int
		event                    string // "" = no event
	}{
		{"create", "POST", "/v3/clients", `{"first_name":"Eva","email":"eva@example.com"}`, 201, "client.created"},
		{"invalid create", "POST", "/v3/clients", `{"first_name":"Eva"}`, 422, ""},
		{"update", "PATCH", "/v3/clients/4", `{"city":"Lima"}`, 200, "client.updated"},
		{"invalid update", "PATCH", "/v3/clients/4", `{"phone":"1"}`, 422, ""},
		{"no-op update", "PATCH", "/v3/clients/4", `{"city":"Lima"}`, 200, ""},
		{"deactivate", "PATCH", "/v3/clients/4/deactivate", ``, 204, "client.updated"},
		{"deactivate again", "PATCH", "/v3/clients/4/deactivate", ``, 422, ""},
	}
	for _, s := range steps {
		f.now = f.now.Add(1000)
		before := len(f.events())
		resp, raw := f.call(s.method, s.path, s.body)
		wantStatus(t, resp, raw, s.status)
		events := f.events()
		if s.event == "" {
			if len(events) != before {
				t.Fatalf("%s: got %d new events, want none", s.name, len(events)-before)
			}
			continue
		}
		if len(events) != before+1 {
			t.Fatalf("%s: got %d new events, want 1", s.name, len(events)-before)
		}
		e := events[len(events)-1]
		if e.Type != s.event || e.Timestamp != f.now.UTC().Format("2006-01-02T15:04:05.000Z") {
			t.Fatalf("%s: got event %s at %s, want %s at %s", s.name, e.Type, e.Timestamp, s.event, f.now)
		}
		_, current := f.call("GET", "/v3/clients/4", nil)
		var want, got any
		json.Unmarshal(current, &want)
		json.Unmarshal(e.Data, &got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: event data\ngot  %s\nwant %s", s.name, e.Data, current)
		}
		deliveries := f.count("deliveries WHERE webhook_id = 1 AND event_id = (SELECT id FROM events ORDER BY created_at DESC, rowid DESC LIMIT 1)")
		if deliveries != 1 || f.count("deliveries WHERE webhook_id = 2") != 0 {
			t.Fatalf("%s: got %d deliveries to the client webhook (want 1) and %d to the booking webhook (want 0)",
				s.name, deliveries, f.count("deliveries WHERE webhook_id = 2"))
		}
	}
	var last map[string]any
	json.Unmarshal(f.events()[len(f.events())-1].Data, &last)
	if last["active"] != false {
		t.Fatalf("deactivation event: got active %v, want false", last["active"])
	}
}

func TestDeactivateClient(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("PATCH", "/v3/clients/1/deactivate", nil)
	wantStatus(t, resp, raw, http.StatusNoContent)
	if len(raw) != 0 {
		t.Fatalf("204 with body %q", raw)
	}
	resp, raw = f.call("PATCH", "/v3/clients/1/deactivate", nil)
	wantError(t, resp, raw, 422, "unprocessable_entity", "client_already_deactivated")
	var c struct{ Active bool }
	f.getJSON("/v3/clients/1", &c)
	if c.Active {
		t.Fatal("deactivated client is still active")
	}
	var list idList
	f.getJSON("/v3/clients", &list)
	if !reflect.DeepEqual(list.ids(), []int64{1, 2, 3}) {
		t.Fatalf("list: got %v, want deactivated clients listed too", list.ids())
	}
	var found idList
	f.getJSON("/v3/clients/quick-search?q=maria.lopez", &found)
	if len(found.Data) != 0 {
		t.Fatalf("quick search found the deactivated client: %v", found.ids())
	}
}
