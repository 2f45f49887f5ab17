package app

import (
	"os/exec"
	"strings"
	"testing"

	"frontdesk/app/buildinfo"
)

// `frontdesk version` prints the version, revision and build time a release build stamped with
// -ldflags (docs/deploy.md "Building a release"), and refuses extra arguments.
func TestVersion(t *testing.T) {
	const ld = "-X frontdesk/app/buildinfo.version=v9.8.7 -X frontdesk/app/buildinfo.revision=0123abcd -X frontdesk/app/buildinfo.buildTime=2026-11-23T12:00:00Z"
	bin := buildFrontdeskWith(t, ld)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "frontdesk v9.8.7 (revision 0123abcd, built 2026-11-23T12:00:00Z) go"; !strings.HasPrefix(string(out), want) {
		t.Errorf("version printed %q, want it to start with %q", out, want)
	}
	code, stdout, _ := run(t, "", "version")
	if code != 0 || strings.TrimSpace(stdout) != buildinfo.Get().String() {
		t.Errorf("in-process version: exit %d, %q; want %q", code, stdout, buildinfo.Get())
	}
	if code, _, stderr := run(t, "", "version", "extra"); code != exitUsage || !strings.Contains(stderr, "unexpected argument") {
		t.Errorf("version extra: exit %d, %s; want 2", code, stderr)
	}
}
