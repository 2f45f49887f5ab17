package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"frontdesk/db"
)

// serveLockName is the file in the data directory that one running serve holds locked.
const serveLockName = "serve.lock"

// errServeLocked is returned by lockServe while another serve holds the data directory.
var errServeLocked = errors.New("locked")

// lockServe makes sure only one serve runs on a data directory. Two would share the database
// correctly, but each starts by making due again whatever was claimed when the last process
// stopped — the other's attempts in flight — and then both send them: duplicate webhooks and
// duplicate emails to customers. migrate takes the lock too: an upgrade must not change the
// schema under a server that may be older. Other commands (apikey, backup, import…) run beside
// serve as before. The lock is the kernel's, so it goes with the process however it ends (SIGKILL
// included); the file stays, holding the pid of its last holder for the message.
//
// why ends the refusal: what running beside the holder would do. unlock releases the lock;
// unlock(true) also removes the file if this call made it, for a start refused before serving
// (a downgrade), which leaves the directory as it found it.
func lockServe(env Env, dataDir, why string) (unlock func(remove bool), err error) {
	if err := checkDataOwner(env, dataDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	path := filepath.Join(dataDir, serveLockName)
	_, statErr := os.Stat(path)
	made := errors.Is(statErr, os.ErrNotExist)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrPermission) && !made {
		// Left by a command run as another user (root, before commands refused that): say whose
		// it is and what to do rather than only "permission denied".
		return nil, &db.UnwritableError{Path: path, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if !errors.Is(err, errServeLocked) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		holder := "another frontdesk serve or migrate"
		if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) != "" {
			holder += " (pid " + strings.TrimSpace(string(b)) + ")"
		}
		return nil, fmt.Errorf("%s is already running on the data directory %s; stop it first (%s)", holder, dataDir, why)
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return func(remove bool) {
		if remove && made {
			os.Remove(path)
		}
		f.Close()
	}, nil
}
