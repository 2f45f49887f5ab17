package app

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReleaseCodePages releases this test binary's read-only pages and sees its file-backed
// resident memory fall: start-up and the tests before this one touched far more of the
// executable than the test uses next.
func TestReleaseCodePages(t *testing.T) {
	before := rssFile(t)
	released, err := releaseCodePages()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFile(t)
	t.Logf("released %d MiB of mappings; file-backed RSS %d → %d KiB", released>>20, before, after)
	if released <= 0 {
		t.Fatalf("released %d bytes of mappings, want the executable's read-only ones", released)
	}
	if after >= before-1024 {
		t.Fatalf("file-backed RSS %d KiB after the release, %d KiB before: want at least 1 MiB less", after, before)
	}
}

// rssFile reads this process's file-backed resident memory, in KiB.
func rssFile(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("RssFile: %q", v)
			}
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}
