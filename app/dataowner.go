package app

import (
	"fmt"
	"os"

	"frontdesk/db"
)

// checkDataOwner refuses root on a data directory that belongs to another user (the service's,
// frontdesk under deploy/frontdesk.service, 65532 in the container). Whatever a command makes
// there would be root's and readable by root only — serve.lock, a new database, a pre-upgrade
// backup, secrets.key — and the service, which runs as the directory's owner, could then not
// open it: the next start fails, and systemd restarts it forever. It is called by every command
// that may write in the data directory; backup (which only reads the database and writes its copy
// where it is told; SQLite gives any -wal and -shm file it makes the database file's owner) and
// doctor (which changes nothing) run as root too. Other users are not refused: one who cannot
// write the directory fails at the first file anyway, and one who may (a group-writable volume)
// was given that on purpose.
func checkDataOwner(env Env, dataDir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(dataDir)
	if err != nil {
		return nil // not there yet: this command makes it, as root, for root
	}
	uid, ok := db.FileOwner(fi)
	if !ok || uid == 0 {
		return nil
	}
	name, sudoUser := db.UserName(uid), db.UserArg(uid)
	if sudoUser == fmt.Sprint(uid) {
		sudoUser = fmt.Sprintf("'#%d'", uid) // sudo -u takes a uid as #N
	}
	return fmt.Errorf("the data directory %s belongs to %s, and this is root: a file made now (serve.lock, a backup, "+
		"the database) would be root's, and %s, the user frontdesk serves as, could not open it. Run the command as %s:\n"+
		"    sudo -u %s %s", dataDir, name, name, name, sudoUser, commandLine(env.program(), env.Args...))
}
