package db

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A data directory whose name holds what a URI reads as syntax (#, ?, %) opens the database in
// that directory, not in a file named after the part before it.
func TestOpenPathWithURISyntax(t *testing.T) {
	parent := t.TempDir()
	for _, name := range []string{"x#1", "y?2", "z%41", "w%2"} {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		d, err := Open(context.Background(), Path(dir))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d.Close()
		if _, err := os.Stat(Path(dir)); err != nil {
			t.Errorf("%s: the database is not where it was asked to be: %v", name, err)
		}
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 4 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the parent holds %v, want only the four directories", names)
	}
}
