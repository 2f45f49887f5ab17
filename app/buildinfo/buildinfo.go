// Package buildinfo says which frontdesk this is: the version, the VCS revision and the build
// time, read from the build information Go embeds in every binary (runtime/debug) and
// overridable at link time for release builds (docs/deploy.md "Building a release"):
//
//	go build -ldflags "-X frontdesk/app/buildinfo.version=v1.4.0 -X frontdesk/app/buildinfo.revision=$(git rev-parse HEAD) -X frontdesk/app/buildinfo.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
//
// The webhook User-Agent, the frontdesk_build_info metric, `frontdesk version` and the
// app_versions record all read it from here, so they always agree.
package buildinfo

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Set with -ldflags "-X frontdesk/app/buildinfo.version=…" (and revision, buildTime).
var (
	version   string
	revision  string
	buildTime string
)

// Info is one build's identity.
type Info struct {
	Version   string // "v1.4.0", or the module's pseudo-version, or "dev"
	Revision  string // VCS commit, "" if unknown; "+dirty" appended for a modified tree
	BuildTime string // RFC 3339 (the commit's time when the linker gave none), "" if unknown
	GoVersion string
}

var (
	once sync.Once
	info Info
)

// Get returns the build's identity, computed once.
func Get() Info {
	once.Do(func() { info = read(debug.ReadBuildInfo) })
	return info
}

// read fills Info from the linker overrides, then from the build information.
func read(readBuildInfo func() (*debug.BuildInfo, bool)) Info {
	i := Info{Version: version, Revision: revision, BuildTime: buildTime}
	bi, ok := readBuildInfo()
	if ok {
		i.GoVersion = bi.GoVersion
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		var modified bool
		var rev, at string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if i.Revision == "" && rev != "" {
			i.Revision = rev
			if modified {
				i.Revision += "+dirty"
			}
		}
		if i.BuildTime == "" {
			i.BuildTime = at
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	return i
}

// Version is Get().Version.
func Version() string { return Get().Version }

// String is the one-line form `frontdesk version` prints.
func (i Info) String() string {
	var b strings.Builder
	b.WriteString("frontdesk " + i.Version)
	if i.Revision != "" {
		b.WriteString(" (revision " + i.Revision)
		if i.BuildTime != "" {
			b.WriteString(", built " + i.BuildTime)
		}
		b.WriteString(")")
	} else if i.BuildTime != "" {
		b.WriteString(" (built " + i.BuildTime + ")")
	}
	if i.GoVersion != "" {
		b.WriteString(" " + i.GoVersion)
	}
	return b.String()
}
