package app

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"frontdesk/db"
)

// serviceUID stands for the user the service runs as (frontdesk under deploy/frontdesk.service):
// Debian's nobody, there on every machine the tests run on as root.
const serviceUID = 65534

// needRoot is for tests that act as two users. CI runs as root and must run them.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("this test acts as the service's user and as root: it needs root, which CI has")
	}
	t.Skip("needs root (to act as the service's user and as root)")
}

// serviceTempDir is a new directory the service's user can reach (a test's own temporary
// directories are 0700 and root's): paths under it are as they are under /var/lib.
func serviceTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "frontdesk-service-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chownTree gives root and everything under it to uid, as a restore or StateDirectory= leaves a
// service's data directory.
func chownTree(t *testing.T, root string, uid int) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// notOwnedBy lists the files under root that uid does not own.
func notOwnedBy(t *testing.T, root string, uid int) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if owner, ok := db.FileOwner(fi); ok && owner != uid {
			out = append(out, strings.TrimPrefix(path, root)+" ("+db.UserName(owner)+")")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// binaryFor builds the frontdesk binary and puts a copy where uid can run it (the build's own
// directory is root's, 0700).
func binaryFor(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(serviceTempDir(t), "frontdesk")
	raw, err := os.ReadFile(buildFrontdesk(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// asUser runs cmd as uid (as sudo -u or systemd's User= would), or as this process's user when
// uid is -1.
func asUser(cmd *exec.Cmd, uid int) *exec.Cmd {
	if uid >= 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	return cmd
}

// runBinAs runs one command of the binary as uid to completion, with stdin, and returns its exit
// status and output.
func runBinAs(t *testing.T, uid int, bin, stdin string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := asUser(exec.CommandContext(ctx, bin, args...), uid)
	cmd.Env = append(envWithoutFrontdeskVars(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return code, out.String(), errOut.String()
}
