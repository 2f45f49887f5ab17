// Package app wires the process: it parses the command line, opens the database and runs one
// command — by default `serve`, the HTTP server with its background workers.
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/user"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/buildinfo"
)

// Exit statuses, by convention: 0 success, 1 the command failed, 2 it was used wrongly.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// Env is what a command gets from the process, injected so tests can run any command in-process.
type Env struct {
	Args []string // after the program name
	// Program is how the binary was invoked (os.Args[0]), for the commands frontdesk suggests
	// (program); "" reads as "frontdesk".
	Program string
	Getenv  func(string) string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Now     func() time.Time
	// Ready, if set, is called by serve with its listening address once it accepts requests.
	Ready func(addr string)
	// Listening, if set, is called by serve for each of its other listeners ("http" for
	// challenges and redirects, "metrics") with the address it got.
	Listening func(name, addr string)
	// Executable, if set, is the frontdesk binary `bench` runs `serve` from (tests, whose own
	// executable is the test binary); default os.Executable.
	Executable func() (string, error)
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env Env, args []string) error
}

func commands() []command {
	return []command{
		{"serve", "run the appliance (the default command)", runServe},
		{"migrate", "apply database migrations and print the schema version", runMigrate},
		{"import", "load a business from a JSON file (all or nothing)", runImport},
		{"owner", "manage owner accounts: create, reset-password", runOwner},
		{"staff", "manage the team: invite, list, role, disable, enable", runStaff},
		{"apikey", "manage /v3 API keys: create, list, revoke", runAPIKey},
		{"webhook", "manage webhooks: create, list, reactivate, rotate-secret, delete, test", runWebhook},
		{"messages", "customer email: test --to ADDRESS sends a test email", runMessages},
		{"export", "everything as one zip (--data DIR FILE.zip), or a list (csv KIND) as CSV to standard output", runExport},
		{"client", "a client's data: export ID prints it as JSON, erase ID --yes erases it", runClient},
		{"backup", "write a consistent copy of the live database to a file", runBackup},
		{"bench", "measure the appliance against this machine's own limits", runBench},
		{"version", "print the version", runVersion},
		// Running it for real (docs/deploy.md).
		{"doctor", "check that this machine is ready to serve (database, public URL, DNS, ports)", runDoctor},
		{"healthcheck", "exit 0 when the running server is ready (for container health checks)", runHealthcheck},
	}
}

// usageError marks a command used wrongly (exit status 2). flag.ErrHelp is not one: --help
// prints usage and succeeds.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// Run runs one command and returns the process exit status.
func Run(ctx context.Context, env Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	args := env.Args
	name := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" || (name == "serve" && len(args) == 1 && (args[0] == "-h" || args[0] == "--help") && len(env.Args) == 1) {
		printUsage(env.Stdout)
		return exitOK
	}
	if name != "serve" {
		// What a command changes, the activity trail puts down to the operating-system user.
		ctx = activity.WithActor(ctx, activity.Actor{Kind: activity.KindCLI, ID: osUser(env), Label: "frontdesk " + name})
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		err := c.run(ctx, env, args)
		var ue *usageError
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.As(err, &ue):
			fmt.Fprintf(env.Stderr, "frontdesk %s: %v\nRun 'frontdesk %s --help' for usage.\n", name, err, name)
			return exitUsage
		default:
			fmt.Fprintf(env.Stderr, "frontdesk %s: %v\n", name, err)
			return exitFail
		}
	}
	fmt.Fprintf(env.Stderr, "frontdesk: unknown command %q\n\n", name)
	printUsage(env.Stderr)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "frontdesk — appointment booking and business management appliance")
	fmt.Fprintln(w, "\nUsage: frontdesk <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'frontdesk <command> --help' for a command's flags.")
}

func runVersion(_ context.Context, env Env, args []string) error {
	fs := newFlagSet("version", "\n\nPrints the version, VCS revision, build time and Go version (app/buildinfo).", env)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintln(env.Stdout, buildinfo.Get())
	return nil
}

// osUser names the operating-system user running a command, for the activity trail.
func osUser(env Env) string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return env.Getenv("USER")
}
