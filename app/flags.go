package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/buildinfo"
	"frontdesk/db"
)

// flagSet is a command's flags; --help prints the synopsis and flags to stdout.
type flagSet struct {
	*flag.FlagSet
	stdout io.Writer
	getenv func(string) string
}

func newFlagSet(name, synopsis string, env Env) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: frontdesk %s %s\n", name, synopsis)
		if hasFlags(fs) {
			fmt.Fprintln(out, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return &flagSet{FlagSet: fs, stdout: env.Stdout, getenv: env.Getenv}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse parses args, allowing flags after positional arguments ("revoke 3 --data d"), and
// turns bad flags into usage errors. Positional arguments are then in fs.Args().
func (fs *flagSet) parse(args []string) error {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(fs.stdout)
			fs.Usage()
			return flag.ErrHelp
		}
		if err != nil {
			return usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			positional = append(positional, rest[1:]...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return err
	}
	return fs.checkEnv()
}

// envKey finds the FRONTDESK_* variable a flag's usage names as its fallback.
var envKey = regexp.MustCompile(`\(env (FRONTDESK_[A-Z0-9_]+)\)`)

// checkEnv refuses a FRONTDESK_* fallback that its flag could not parse. envBool, envInt and
// envDuration fall back to the default on a value they cannot read, so without this
// FRONTDESK_HTTPS=yes served plain HTTP and FRONTDESK_RATE_LIMIT_PER_MINUTE=1,000 kept 70,
// silently. A flag given on the command line wins, and its variable is not looked at.
func (fs *flagSet) checkEnv() error {
	if fs.getenv == nil {
		return nil
	}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		m := envKey.FindStringSubmatch(f.Usage)
		if err != nil || m == nil || fs.isSet(f.Name) {
			return
		}
		v := fs.getenv(m[1])
		if v == "" {
			return
		}
		getter, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		switch getter.Get().(type) {
		case bool:
			if _, e := strconv.ParseBool(v); e != nil {
				err = usagef("%s=%q: want true or false (or 1, 0)", m[1], v)
			}
		case int:
			if _, e := strconv.Atoi(v); e != nil {
				err = usagef("%s=%q: want a whole number", m[1], v)
			}
		case time.Duration:
			if _, e := time.ParseDuration(v); e != nil {
				err = usagef("%s=%q: want a duration such as 30s, 5m or 720h", m[1], v)
			}
		}
	})
	return err
}

// envString, envBool and envDuration give flags their FRONTDESK_* fallbacks.
func envString(env Env, key, def string) string {
	if v := env.Getenv(key); v != "" {
		return v
	}
	return def
}

func envBool(env Env, key string, def bool) bool {
	if v, err := strconv.ParseBool(env.Getenv(key)); err == nil {
		return v
	}
	return def
}

func envInt(env Env, key string, def int) int {
	if v, err := strconv.Atoi(env.Getenv(key)); err == nil {
		return v
	}
	return def
}

func envDuration(env Env, key string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(env.Getenv(key)); err == nil {
		return v
	}
	return def
}

// dataFlag adds the --data flag every command that touches the database has.
func dataFlag(fs *flagSet, env Env) *string {
	return fs.String("data", envString(env, "FRONTDESK_DATA", "./data"), "data directory holding the SQLite file (env FRONTDESK_DATA)")
}

// openData opens the existing database in dataDir, for every command except serve, migrate
// and import: a missing, empty or foreign database is refused with a message naming the
// directory, and nothing is created (docs/deploy.md "Data directory").
func openData(ctx context.Context, env Env, dataDir string) (*db.DB, error) {
	return openExisting(ctx, env, dataDir, db.RefusePending)
}

// openExisting is openData with a choice of what to do about pending migrations.
func openExisting(ctx context.Context, env Env, dataDir string, pending db.PendingPolicy) (*db.DB, error) {
	if pending != db.IgnorePending {
		if err := checkDataOwner(env, dataDir); err != nil {
			return nil, err
		}
	}
	o := openOptions(env)
	o.Pending = pending
	d, err := db.OpenWith(ctx, db.Path(dataDir), o)
	if errors.Is(err, db.ErrNoDatabase) {
		abs, _ := filepath.Abs(dataDir)
		return nil, fmt.Errorf("%w\nThe data directory is %s (from --data or FRONTDESK_DATA); is that the right one?\n"+
			"To start a new installation there run 'frontdesk serve --data %s' (or 'frontdesk migrate --data %s'); "+
			"to restore a backup, delete any %s-wal and %s-shm left there and copy the backup to %s first (README, \"Restoring a backup\")",
			err, abs, dataDir, dataDir, db.FileName, db.FileName, db.Path(dataDir))
	}
	return d, err
}

// createData opens the database in dataDir, creating the directory and a new database if
// there is none: for serve, migrate and import, which start installations.
func createData(ctx context.Context, env Env, dataDir string) (d *db.DB, created bool, err error) {
	if err := checkDataOwner(env, dataDir); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, false, fmt.Errorf("data directory: %w", err)
	}
	_, statErr := os.Stat(db.Path(dataDir))
	o := openOptions(env)
	o.MustExist = false
	d, err = db.OpenWith(ctx, db.Path(dataDir), o)
	return d, errors.Is(statErr, os.ErrNotExist) && err == nil, err
}

// openOptions records this build's version in the database and tells the operator, on
// standard error, about the backup taken before a schema upgrade.
func openOptions(env Env) db.OpenOptions {
	return db.OpenOptions{
		MustExist: true, AppVersion: buildinfo.Version(), Now: env.Now,
		OnUpgradeBackup: func(path string, from, to int64) {
			fmt.Fprintf(env.Stderr, "frontdesk: upgrading the database schema from %d to %d; a backup of it was written to %s\n", from, to, path)
		},
	}
}

// oneArg checks a command got exactly one positional argument.
func (fs *flagSet) oneArg(what string) (string, error) {
	if fs.NArg() != 1 || strings.TrimSpace(fs.Arg(0)) == "" {
		return "", usagef("want exactly one %s", what)
	}
	return fs.Arg(0), nil
}

// isSet reports whether flag name was given on the command line (even as an empty value).
func (fs *flagSet) isSet(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
