package admin_test

import (
	"regexp"
	"strings"
	"testing"
)

// Every admin page is built from the same pieces: its search and filters are one Filters row
// (class "filters"), its lists one Table (stacked rows on a phone, labelled cells) or the empty
// state, its form problems one error summary. A page that hand-rolls one of them fails here.
// The one other table is a chart's data for screen readers (ui/reports.templ), which is not a
// list: it sits in a visually hidden box and labels its cells like a Table does.
func TestOneSkeleton(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	getForm := regexp.MustCompile(`<form[^>]*method="get"[^>]*>`)
	table := regexp.MustCompile(`<div class="([^"]*)">\s*<table[^>]*>`)
	for _, p := range seededPages(t, ts, c) {
		if p.Public {
			continue
		}
		body := between(p.get(t, ts, c).Body, `<main`, `</main>`)
		for _, f := range getForm.FindAllString(body, -1) {
			if !strings.Contains(f, `class="filters"`) {
				t.Errorf("%s: a search or filter form outside the Filters row: %s", p.Path, f)
			}
		}
		for _, m := range table.FindAllStringSubmatch(body, -1) {
			if m[1] != "table-wrap stacking" && m[1] != "day-wrap" && m[1] != "visually-hidden" && !strings.Contains(m[0], "day-grid") {
				t.Errorf("%s: a table outside the Table component: %s", p.Path, m[0])
			}
		}
		if strings.Contains(body, "<td>") {
			t.Errorf("%s: a table cell without its column's label (not from ui.Table)", p.Path)
		}
	}
}
