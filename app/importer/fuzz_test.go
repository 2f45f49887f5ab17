package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// FuzzLoad feeds any file to the importer, on a real database: it never panics, a refused file
// is refused with *Errors (problems named by JSON path, never a database error that slipped
// past validation) and writes nothing at all.
func FuzzLoad(f *testing.F) {
	doc, err := os.ReadFile("../../docs/import.md")
	if err != nil {
		f.Fatal(err)
	}
	example := regexp.MustCompile("(?s)## A complete example.*?```json\n(.*?)\n```").FindSubmatch(doc)
	if example == nil {
		f.Fatal("docs/import.md: no example")
	}
	f.Add(example[1])
	f.Add([]byte(`{"company": {"name": "X",}}`))
	d := dbtest.Open(f, filepath.Join(f.TempDir(), db.FileName))
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw []byte) {
		var before, after int64
		d.Write.QueryRow(`SELECT total_changes()`).Scan(&before)
		_, err := Load(context.Background(), d, raw, now)
		d.Write.QueryRow(`SELECT total_changes()`).Scan(&after)
		if err == nil {
			return
		}
		var problems *Errors
		if !errors.As(err, &problems) {
			t.Fatalf("Load refused with %T %v, want *Errors", err, err)
		}
		if after != before {
			t.Fatalf("Load refused (%v) but wrote %d rows", err, after-before)
		}
	})
}
