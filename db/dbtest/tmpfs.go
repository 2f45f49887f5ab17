// Package dbtest helps tests with their databases: a new database per test copied from one
// migrated once per test binary (migrated.go), and a database where the disk can fill up: a
// small tmpfs (a real file system with a size limit, mounted for the test) and a filler that
// takes its free space. The tmpfs needs root, as CI has; elsewhere the tests that use it are
// skipped, except under CI=true, where they fail rather than pass without having run.
package dbtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Tmpfs mounts a tmpfs of size (e.g. "4m") on a new temporary directory and returns it; the
// mount goes away when the test ends.
func Tmpfs(t testing.TB, size string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput()
	if err != nil {
		msg := "cannot mount a tmpfs (needs root): " + err.Error() + ": " + string(out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// Fill writes a file into dir until the file system has no space left, and returns a function
// that deletes it again (space comes back).
func Fill(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 64<<10)
	for {
		_, err := f.Write(block)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for { // the last, partial block
		if _, err := f.Write(block[:512]); err != nil {
			break
		}
	}
	if err := f.Close(); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}
