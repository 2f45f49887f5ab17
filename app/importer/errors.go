package importer

import (
	"fmt"
	"strings"
)

// MaxErrors bounds how many problems one run reports: enough to fix a file in a few passes,
// few enough to read.
const MaxErrors = 20

// Problem is one thing wrong with an import file, located by its JSON path
// ("providers[2].hours[0].breaks[1].start"); an empty path is the file as a whole.
type Problem struct {
	Path string
	Msg  string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// Errors is returned by Load when the file is refused; nothing has been written then. It lists
// the first MaxErrors problems in file order, and how many more were found.
type Errors struct {
	Problems []Problem
	More     int
}

func (e *Errors) Error() string {
	lines := make([]string, 0, len(e.Problems)+1)
	for _, p := range e.Problems {
		lines = append(lines, p.String())
	}
	switch {
	case e.More == 1:
		lines = append(lines, "… and 1 more problem")
	case e.More > 1:
		lines = append(lines, fmt.Sprintf("… and %d more problems", e.More))
	}
	return strings.Join(lines, "\n")
}

// problems collects Problems up to MaxErrors. Once decoding has reported a value as wrongly
// typed, validation would only report it again in other words (a mistyped duration reads as
// a missing one), so problems under a path already reported while decoding are dropped.
type problems struct {
	errs    Errors
	decoded []string // paths with decoding problems
}

// decoding marks the problems found so far as decoding problems.
func (ps *problems) decoding() {
	for _, p := range ps.errs.Problems {
		ps.decoded = append(ps.decoded, p.Path)
	}
}

func (ps *problems) add(path, format string, args ...any) {
	for _, d := range ps.decoded {
		if path == d || strings.HasPrefix(path, d+".") || strings.HasPrefix(path, d+"[") {
			return
		}
	}
	if len(ps.errs.Problems) >= MaxErrors {
		ps.errs.More++
		return
	}
	ps.errs.Problems = append(ps.errs.Problems, Problem{path, fmt.Sprintf(format, args...)})
}

func (ps *problems) any() bool { return len(ps.errs.Problems) > 0 }

// err returns the collected problems as an error, or nil if there are none.
func (ps *problems) err() error {
	if !ps.any() {
		return nil
	}
	e := ps.errs
	return &e
}

// at builds a child path: at("providers", 2) → "providers[2]", at("a", "b") → "a.b".
func at(parent string, child any) string {
	switch c := child.(type) {
	case int:
		return fmt.Sprintf("%s[%d]", parent, c)
	case string:
		if !plainName(c) {
			return fmt.Sprintf("%s[%q]", parent, c)
		}
		if parent == "" {
			return c
		}
		return parent + "." + c
	}
	panic(fmt.Sprintf("importer: path element %T", child))
}

// plainName reports whether s can appear after a dot in a path without quoting.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
