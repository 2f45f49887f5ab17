package app

import (
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
		build := exec.Command(goTool, "build", "-o", binPath, ".")
		build.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
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
