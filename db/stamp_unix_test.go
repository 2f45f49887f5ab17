//go:build unix

package db

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A -shm file that shrinks under its mapping must turn the stamp off, not crash the process.
func TestStampSurvivesAShrunkFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x-shm")
	if err := os.WriteFile(path, make([]byte, 32<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	fd, ok := openShm(path)
	if !ok {
		t.Fatal("open failed")
	}
	defer syscall.Close(fd)
	h := mapShm(fd)
	if h == nil {
		t.Fatal("a file holding the headers was not mapped")
	}
	var p walHeaders
	if !copyHeaders(&p, h) {
		t.Fatal("a mapped file could not be read")
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if copyHeaders(&p, h) {
		t.Fatal("a read past the end of a shrunk file reported success")
	}
	if mapShm(fd) != nil {
		t.Fatal("a file shorter than the headers was mapped")
	}
}
