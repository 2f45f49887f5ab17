package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests that run the real binary (SIGTERM, SIGKILL, the README's commands) share one build.
var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  string
	// moduleRoot is where go.mod is, found by the first build.
	moduleRoot string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildFrontdesk builds the real binary from the module root, cgo-free, as a user would.
func buildFrontdesk(t *testing.T) string {
	t.Helper()
	return buildFrontdeskWith(t, "")
}

// Release builds (docs/deploy.md "Building a release") differ only in their -ldflags; each
// distinct set is built once per run, into the same directory.
var (
	releaseMu   sync.Mutex
	releaseBins = map[string]string{}
)

// buildFrontdeskWith is buildFrontdesk with -ldflags, as a release is built.
func buildFrontdeskWith(t *testing.T, ldflags string) string {
	t.Helper()
	if ldflags != "" {
		buildFrontdeskWith(t, "") // sets binDir and moduleRoot
		releaseMu.Lock()
		defer releaseMu.Unlock()
		if bin, ok := releaseBins[ldflags]; ok {
			return bin
		}
		bin := filepath.Join(binDir, fmt.Sprintf("frontdesk-release-%d", len(releaseBins)))
		build := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, ".")
		build.Dir = moduleRoot
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build -ldflags %q: %v\n%s", ldflags, err, out)
		}
		releaseBins[ldflags] = bin
		return bin
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the go tool is needed to build the binary: %v", err)
		}
		t.Skipf("the go tool is needed to build the binary: %v", err)
	}
	buildOnce.Do(func() {
		gomod, err := exec.Command(goTool, "env", "GOMOD").Output()
		if err != nil || strings.TrimSpace(string(gomod)) == "" {
			buildErr = "go env GOMOD: " + string(gomod)
			return
		}
		if binDir, err = os.MkdirTemp("", "frontdesk-bin-"); err != nil {
			buildErr = err.Error()
			return
		}
		binPath = filepath.Join(binDir, "frontdesk")
		moduleRoot = filepath.Dir(strings.TrimSpace(string(gomod)))
		// -trimpath, as a release is built (docs/deploy.md): the packages .ci/run's release build
		// compiled come from the build cache.
		build := exec.Command(goTool, "build", "-trimpath", "-o", binPath, ".")
		build.Dir = moduleRoot
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = "go build: " + err.Error() + "\n" + string(out)
		}
	})
	if buildErr != "" {
		t.Fatal(buildErr)
	}
	return binPath
}

// envWithoutFrontdeskVars is the test process's environment without FRONTDESK_* settings, so
// the binary runs on its defaults and the flags the test gives.
func envWithoutFrontdeskVars() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FRONTDESK_") {
			env = append(env, kv)
		}
	}
	return env
}
