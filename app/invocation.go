package app

import (
	"os"
	"path/filepath"
	"strings"
)

// program is how this binary was invoked, for the commands frontdesk tells an operator to run:
// "go run ." under go run (whose binary is a temporary file that will be gone), otherwise the
// name or path the operator used (frontdesk, ./frontdesk, /usr/local/bin/frontdesk), and
// "frontdesk" when Run was not given one (tests).
func (env Env) program() string {
	p := env.Program
	if p == "" {
		return "frontdesk"
	}
	if builtByGoRun(p) {
		return "go run ."
	}
	return p
}

// builtByGoRun reports whether the executable at path is one go run built: in a temporary
// directory, $GOTMPDIR/go-build…/b001/exe/<name>, removed when the program ends, or (Go 1.24
// and later) in the build cache, $GOCACHE/<xx>/<hash>-d/<name>, which an operator does not
// run by hand either.
func builtByGoRun(path string) bool {
	dir := filepath.ToSlash(filepath.Dir(path))
	if strings.HasSuffix(dir, "/exe") && strings.Contains(dir, "/go-build") {
		return true
	}
	if strings.HasSuffix(dir, "-d") && strings.Contains(dir, "/go-build/") {
		return true
	}
	cache := os.Getenv("GOCACHE")
	return cache != "" && strings.HasPrefix(path, filepath.Clean(cache)+string(filepath.Separator))
}

// commandLine is a command an operator can paste into a shell: the program, then args, each
// quoted when the shell would read it otherwise.
func commandLine(program string, args ...string) string {
	out := []string{program}
	for _, a := range args {
		out = append(out, shellQuote(a))
	}
	return strings.Join(out, " ")
}

// shellQuote leaves a word of plain characters as it is and puts any other in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
