package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestRead(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	devel := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	cases := []struct {
		name             string
		bi               *debug.BuildInfo
		ldVersion, ldRev string
		want             Info
	}{
		{"from build info", stamped, "", "", Info{Version: "v1.2.3", Revision: "abc123+dirty", BuildTime: "2026-11-23T10:00:00Z", GoVersion: "go1.26.8"}},
		{"ldflags win", stamped, "v9.9.9", "def456", Info{Version: "v9.9.9", Revision: "def456", BuildTime: "2026-11-23T10:00:00Z", GoVersion: "go1.26.8"}},
		{"nothing stamped", devel, "", "", Info{Version: "dev", GoVersion: "go1.26.8"}},
		{"no build info", nil, "", "", Info{Version: "dev"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			version, revision, buildTime = c.ldVersion, c.ldRev, ""
			t.Cleanup(func() { version, revision, buildTime = "", "", "" })
			got := read(func() (*debug.BuildInfo, bool) { return c.bi, c.bi != nil })
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
