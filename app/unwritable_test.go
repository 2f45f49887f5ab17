package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// restoredUnwritable is a data directory that serve has run on (an owner, the version recorded:
// nothing left to write at start) whose database was then replaced by a file the service's user
// cannot write, as a restore made by root elsewhere and moved in leaves it (root's, 0644). As
// root the service's user is serviceUID and the commands run as it from the real binary; as
// another user, that user is the service's and the file is made read-only (0444).
func restoredUnwritable(t *testing.T) (dir string, uid int, bin string) {
	t.Helper()
	const password = "correct horse battery staple\n"
	if os.Geteuid() != 0 {
		dir = t.TempDir()
		if code, _, stderr := run(t, "", "migrate", "--data", dir); code != 0 {
			t.Fatalf("migrate: %d %s", code, stderr)
		}
		if code, _, stderr := run(t, password, "owner", "create", "--data", dir, "--email", "o@example.com"); code != 0 {
			t.Fatalf("owner create: %d %s", code, stderr)
		}
		if err := os.Chmod(db.Path(dir), 0o444); err != nil {
			t.Fatal(err)
		}
		return dir, -1, ""
	}
	dir = filepath.Join(serviceTempDir(t), "data")
	mkdir(t, dir)
	chownTree(t, dir, serviceUID)
	bin = binaryFor(t)
	for _, args := range [][]string{{"migrate", "--data", dir}, {"owner", "create", "--data", dir, "--email", "o@example.com"}} {
		if code, _, stderr := runBinAs(t, serviceUID, bin, password, nil, args...); code != 0 {
			t.Fatalf("%v as the service's user: %d %s", args, code, stderr)
		}
	}
	raw, err := os.ReadFile(db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(t.TempDir(), "restored.db")
	if err := os.WriteFile(restored, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(restored, 0o644) // whatever the umask
	if err := os.Rename(restored, db.Path(dir)); err != nil {
		t.Fatal(err)
	}
	return dir, serviceUID, bin
}

// A database the service's user cannot write — SQLite opens it read-only without a word — stops
// serve before it says it is listening, with a message naming the file, its owner and what to
// do (before, serve logged "listening" and exited 1 at its first write with "attempt to write a
// readonly database"); and doctor finds it, run as that user or as root.
func TestUnwritableDatabaseFoundBeforeServing(t *testing.T) {
	dir, uid, bin := restoredUnwritable(t)
	var code int
	var stderr string
	if bin == "" {
		code, stderr = serveUntilReady(dir)
	} else {
		code, _, stderr = runBinAs(t, uid, bin, "", nil, "serve", "--data", dir, "--addr", "127.0.0.1:0")
	}
	if code != exitFail || strings.Contains(stderr, `"msg":"listening"`) ||
		!strings.Contains(stderr, db.Path(dir)+" cannot be written by this user") || !strings.Contains(stderr, "chmod 0600") {
		t.Errorf("serve on an unwritable database: exit %d\n%s\nwant exit 1 before listening, naming the file and the fix", code, stderr)
	}

	port := strconv.Itoa(freePort(t))
	doctorArgs := []string{"doctor", "--data", dir, "--addr", "127.0.0.1:" + port}
	wantFail := "FAIL  file: " + db.Path(dir) + " cannot be written by "
	code, out, _ := run(t, "", doctorArgs...) // as this user: as root, it checks for the directory's owner
	if code != exitFail || !strings.Contains(out, wantFail) || strings.Contains(out, "all checks passed") {
		t.Errorf("doctor: exit %d\n%s\nwant exit 1 and %q", code, out, wantFail)
	}
	if bin != "" {
		code, out, _ := runBinAs(t, uid, bin, "", nil, doctorArgs...)
		if code != exitFail || !strings.Contains(out, wantFail+db.UserName(uid)) {
			t.Errorf("doctor as the service's user: exit %d\n%s\nwant exit 1 and %q", code, out, wantFail)
		}
	}
}

// doctor that warned says so in its last line rather than "all checks passed".
func TestDoctorCountsWarnings(t *testing.T) {
	port := strconv.Itoa(freePort(t))
	code, out, _ := run(t, "", "doctor", "--data", newDataDir(t), "--addr", "127.0.0.1:"+port) // no public URL: a warning
	if code != 0 || !strings.Contains(out, "warn  public URL: not set") || !strings.HasSuffix(out, "\npassed with 1 warning\n") {
		t.Errorf("doctor with one warning: exit %d\n%s", code, out)
	}
}

// A serve.lock the service's user cannot open (left by a migrate run as root before such runs
// were refused) stops serve with a message naming the file, its owner and the fix, not only
// "permission denied".
func TestForeignServeLockNamed(t *testing.T) {
	var dir, bin string
	uid := -1
	if os.Geteuid() == 0 {
		dir, uid, bin = filepath.Join(serviceTempDir(t), "data"), serviceUID, binaryFor(t)
		mkdir(t, dir)
		dbtest.NewFile(t, db.Path(dir))
		chownTree(t, dir, uid)
		write(t, filepath.Join(dir, serveLockName), []byte("1\n")) // root's, 0600
	} else {
		dir = newDataDir(t)
		write(t, filepath.Join(dir, serveLockName), []byte("1\n"))
		if err := os.Chmod(filepath.Join(dir, serveLockName), 0o400); err != nil {
			t.Fatal(err)
		}
	}
	var code int
	var stderr string
	if bin == "" {
		code, stderr = serveUntilReady(dir)
	} else {
		code, _, stderr = runBinAs(t, uid, bin, "", nil, "serve", "--data", dir, "--addr", "127.0.0.1:0")
	}
	want := filepath.Join(dir, serveLockName) + " cannot be written by this user"
	if code != exitFail || !strings.Contains(stderr, want) || !strings.Contains(stderr, "chown") {
		t.Errorf("serve with a foreign serve.lock: exit %d\n%s\nwant exit 1 and %q", code, stderr, want)
	}
}
