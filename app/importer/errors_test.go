package importer

import (
	"strings"
	"testing"
)

// The count of problems left out reads as English: "1 more problem", "2 more problems".
func TestErrorsCountLeftOut(t *testing.T) {
	for more, want := range map[int]string{1: "… and 1 more problem", 2: "… and 2 more problems"} {
		e := &Errors{Problems: []Problem{{Path: "company", Msg: "refused"}}, More: more}
		if last := e.Error()[strings.LastIndex(e.Error(), "\n")+1:]; last != want {
			t.Errorf("More %d: last line %q, want %q", more, last, want)
		}
	}
	if e := (&Errors{Problems: []Problem{{Msg: "empty"}}}); strings.Contains(e.Error(), "more") {
		t.Errorf("no problem left out: %q mentions more", e.Error())
	}
}

// A file saved as "UTF-8 with BOM" (Windows editors) is read as the JSON after the mark, and
// positions in problems are counted as the editor shows them, without it.
func TestDecodeByteOrderMark(t *testing.T) {
	f, err := Decode([]byte("\uFEFF" + `{"clients": [{"key": "bom", "first_name": "Bom"}]}`))
	if err != nil {
		t.Fatalf("a file with a byte order mark: %v", err)
	}
	if len(f.Clients) != 1 || f.Clients[0].Key != "bom" {
		t.Fatalf("decoded %+v, want the one client", f.Clients)
	}
	_, withMark := Decode([]byte("\uFEFF" + `{"clients": x}`))
	_, without := Decode([]byte(`{"clients": x}`))
	if withMark == nil || without == nil || withMark.Error() != without.Error() {
		t.Fatalf("with a byte order mark: %v; without: %v; want the same problem", withMark, without)
	}
}
