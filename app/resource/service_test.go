package resource

import (
	"encoding/json"
	"reflect"
	"testing"

	"frontdesk/db"
)

// TestDecodeIDTexts checks the fast reader of SQLite's JSON arrays against encoding/json on the
// layouts SQLite writes and on strings that must take the slow path.
func TestDecodeIDTexts(t *testing.T) {
	cases := []struct {
		name     string
		json     string
		wantFast bool
	}{
		{"empty", `[]`, true},
		{"one", `[{"id":1,"url":"https://img.example.com/a.jpg"}]`, true},
		{"several", `[{"id":7,"url":"a"},{"id":3,"url":""},{"id":12345678901,"url":"ü ✓ 🎉"}]`, true},
		{"braces and commas in text", `[{"id":1,"url":"a,{\"id\":2"},{"id":2,"url":"},{"}]`, false},
		{"comma and brace without escapes", `[{"id":1,"url":"},{\"id\":2,"}]`, false},
		{"plain comma and brace", `[{"id":1,"url":"x},{y"},{"id":2,"url":"z"}]`, true},
		{"escaped quote", `[{"id":1,"url":"say \"hi\""}]`, false},
		{"escaped backslash at end", `[{"id":1,"url":"dir\\"}]`, false},
		{"control escapes", `[{"id":1,"url":"a\nb\tc\u0001"}]`, false},
		{"unicode escape", `[{"id":1,"url":"\u00fc\u2028\ud83c\udf89"}]`, false},
		{"spaces", `[ {"id": 1, "url": "a"} ]`, false},
		{"keys in another order", `[{"url":"a","id":1}]`, false},
		{"negative id", `[{"id":-4,"url":"a"}]`, true},
		{"extra key", `[{"id":1,"url":"a","x":2}]`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []struct {
				ID  int64  `json:"id"`
				URL string `json:"url"`
			}
			if err := json.Unmarshal([]byte(c.json), &want); err != nil {
				t.Fatalf("test case is not JSON: %v", err)
			}
			got, err := decodeIDTexts(c.json, "url")
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if len(got) != len(want) {
				t.Fatalf("got %d items, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].ID != want[i].ID || got[i].Text != want[i].URL {
					t.Fatalf("item %d: got %+v, want %+v", i, got[i], want[i])
				}
			}
			if _, fast := scanIDTexts(c.json, "url"); fast != c.wantFast {
				t.Fatalf("got fast path %v, want %v", fast, c.wantFast)
			}
		})
	}
}

func TestDecodeIDTextsRefusesBrokenJSON(t *testing.T) {
	for _, s := range []string{``, `[`, `[{"id":1,"url":"a"}`, `[{"id":"x","url":"a"}]`, `[{"id":1,"url":2}]`, `{"id":1}`} {
		if got, err := decodeIDTexts(s, "url"); err == nil {
			t.Errorf("%q: got %+v and no error, want an error", s, got)
		}
	}
}

// TestNewServiceDetailLists checks that images and providers keep SQLite's order and that a
// service without any answers empty arrays, never null.
func TestNewServiceDetailLists(t *testing.T) {
	d, err := NewServiceDetail(dbServiceDetail(`[]`, `[]`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct {
		Images    []Image `json:"images"`
		Providers []Ref   `json:"providers"`
	}{d.Images, d.Providers})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"images":[],"providers":[]}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	d, err = NewServiceDetail(dbServiceDetail(`[{"id":2,"url":"b"}]`, `[{"id":1,"name":"Ana"},{"id":3,"name":"Cleo"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Ref{{1, "Ana"}, {3, "Cleo"}}; !reflect.DeepEqual(d.Providers, want) {
		t.Fatalf("got providers %+v, want %+v", d.Providers, want)
	}
	if want := []Image{{2, "b"}}; !reflect.DeepEqual(d.Images, want) {
		t.Fatalf("got images %+v, want %+v", d.Images, want)
	}
}

func dbServiceDetail(images, providers string) db.GetServiceDetailRow {
	return db.GetServiceDetailRow{
		Service:   db.Service{ID: 1, Name: "Haircut", KeywordsJSON: "[]", OnlinePaymentMode: "NOT_AVAILABLE"},
		CompanyID: 1, ImagesJson: images, ProvidersJson: providers,
	}
}
