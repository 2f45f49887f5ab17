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
