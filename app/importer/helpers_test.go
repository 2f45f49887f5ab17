package importer

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// testNow is the import date of the tests: Monday 2026-11-23 12:00 UTC (09:00 in Santiago).
var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	return d
}

// exampleFile is the complete example of docs/import.md, so the documentation stays true.
func exampleFile(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/import.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## A complete example.*?```json\n(.*?)\n```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/import.md: no json block under \"## A complete example\"")
	}
	return string(m[1])
}

// tableCounts counts the rows of every table, to prove a refused import wrote nothing.
func tableCounts(t *testing.T, d *db.DB) map[string]int64 {
	t.Helper()
	rows, err := d.Read.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	if len(names) < 30 {
		t.Fatalf("got %d tables, want the whole schema", len(names))
	}
	counts := map[string]int64{}
	for _, n := range names {
		var c int64
		if err := d.Read.QueryRow(`SELECT count(*) FROM "` + n + `"`).Scan(&c); err != nil {
			t.Fatal(err)
		}
		counts[n] = c
	}
	return counts
}

func wantSameCounts(t *testing.T, got, want map[string]int64) {
	t.Helper()
	for table, n := range want {
		if got[table] != n {
			t.Errorf("table %s: got %d rows, want %d (a refused import wrote something)", table, got[table], n)
		}
	}
}

// problemsOf returns the problems of a refused import, failing the test for any other outcome.
func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	var ie *Errors
	if !errors.As(err, &ie) {
		t.Fatalf("got error %v, want *importer.Errors", err)
	}
	var out []string
	for _, p := range ie.Problems {
		out = append(out, p.String())
	}
	return out
}

// edit applies changes to a JSON document: each change sets the value at a path such as
// "providers[0].hours[0].breaks[0].start"; a nil value deletes it, and a path ending in "[+]"
// appends to an array.
func edit(t *testing.T, doc string, changes map[string]any) string {
	t.Helper()
	var root any
	if err := json.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	for path, value := range changes {
		root = set(t, root, splitPath(path), value)
	}
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func splitPath(path string) []string {
	var parts []string
	for _, p := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(p, "[")
		parts = append(parts, name)
		for rest != "" {
			var idx string
			idx, rest, _ = strings.Cut(rest, "]")
			parts = append(parts, "["+idx)
			rest = strings.TrimPrefix(rest, "[")
		}
	}
	return parts
}

func set(t *testing.T, node any, path []string, value any) any {
	t.Helper()
	head, last := path[0], len(path) == 1
	if strings.HasPrefix(head, "[") {
		list, ok := node.([]any)
		if !ok {
			t.Fatalf("edit: %s: not an array", head)
		}
		if head == "[+" {
			return append(list, value)
		}
		i, _ := strconv.Atoi(head[1:])
		if last {
			list[i] = value
		} else {
			list[i] = set(t, list[i], path[1:], value)
		}
		return list
	}
	obj, ok := node.(map[string]any)
	if !ok {
		t.Fatalf("edit: %s: not an object", head)
	}
	switch {
	case last && value == nil:
		delete(obj, head)
	case last:
		obj[head] = value
	default:
		obj[head] = set(t, obj[head], path[1:], value)
	}
	return obj
}
