package app

import (
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
	// go run builds into $GOTMPDIR/go-build…/b001/exe/<name> and removes it when the program ends.
	if dir := filepath.ToSlash(filepath.Dir(p)); strings.HasSuffix(dir, "/exe") && strings.Contains(dir, "/go-build") {
		return "go run ."
	}
	return p
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
