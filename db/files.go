package db

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
)

// createPrivate makes the database file, empty, readable and writable by its owner only, when
// there is none yet. SQLite would create it with 0644 (less the umask), and it makes the -wal
// and -shm files with the mode and owner of the database file — so a file made here first keeps
// all three private: they hold password hashes, API key hashes and webhook secrets, like the
// backups. An existing file keeps the mode it has (`frontdesk doctor` warns about one others can
// read).
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil
	case err != nil:
		return fmt.Errorf("create %s: %w", path, err)
	}
	return f.Close()
}

// CheckWritable opens the database file and the WAL files beside it for writing, without
// writing, and names the file and what to do when one cannot be written. SQLite opens a file it
// may not write read-only without a word; every read then works and the first write fails
// ("attempt to write a readonly database") — for serve, after it said it was listening. A file
// restored as root with its default mode is the usual cause.
func CheckWritable(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return &UnwritableError{Path: p, Err: err}
		}
		f.Close()
	}
	return nil
}

// UnwritableError is a database file this process cannot write.
type UnwritableError struct {
	Path string
	Err  error
}

func (e *UnwritableError) Error() string {
	msg := fmt.Sprintf("%s cannot be written by this user (%s): %v", e.Path, UserName(os.Geteuid()), e.Err)
	if fi, err := os.Stat(e.Path); err == nil {
		if uid, ok := FileOwner(fi); ok {
			msg += fmt.Sprintf("; it belongs to %s with mode %04o", UserName(uid), fi.Mode().Perm())
		}
	}
	return msg + fmt.Sprintf(". Give it to the user frontdesk runs as, readable by that user only; as root: chown %s: %s && chmod 0600 %s "+
		"(README, \"Restoring a backup\", puts a database in place that way)", UserArg(os.Geteuid()), e.Path, e.Path)
}

func (e *UnwritableError) Unwrap() error { return e.Err }

// UserName is the login name of uid, or "uid N" when it has none.
func UserName(uid int) string {
	if name := loginName(uid); name != "" {
		return name
	}
	return "uid " + strconv.Itoa(uid)
}

// UserArg is uid as chown takes it: the login name, or the number when it has none.
func UserArg(uid int) string {
	if name := loginName(uid); name != "" {
		return name
	}
	return strconv.Itoa(uid)
}

func loginName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return ""
}
