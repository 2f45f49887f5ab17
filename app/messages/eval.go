package messages

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	texttemplate "text/template"
	"text/template/parse"
)

// This file runs the owner's templates: the parse trees of Go's text/template language
// (text/template/parse), evaluated here rather than by text/template's executor. The language
// and its output are text/template's (eval_test.go compares the two on every case and a fuzz
// target); what differs is the binary. text/template's executor looks methods up by name
// (reflect.Value.MethodByName), and a program that can do that makes the Go linker keep every
// exported method of every type that may sit in an interface: 13 MB of what was a 54 MB
// executable, and 7 MB of its idle memory (README "Performance"). The values here are only
// Fields, strings, numbers and booleans, so no method is ever called.

// builtinNames are text/template's predefined functions, for the parser: a name outside them
// is a syntax error, as with text/template.
var builtinNames = map[string]any{
	"and": true, "or": true, "not": true, "len": true, "index": true, "slice": true,
	"print": true, "printf": true, "println": true, "html": true, "js": true, "urlquery": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true, "call": true,
}

// parseTemplate parses src as text/template does for a template named name. It returns every
// tree the text defines ({{define}} and {{block}} add some), the main one under name.
func parseTemplate(name, src string) (map[string]*parse.Tree, error) {
	return parse.Parse(name, src, "", "", builtinNames)
}

// errUnknownField is a field Fields does not have ({{.Nmae}}).
type errUnknownField struct{ name string }

func (e *errUnknownField) Error() string { return "can't evaluate field " + e.name }

// execError is a template that fails while running, at a place in its text.
type execError struct {
	where string // "body:3:7"
	err   error
}

func (e *execError) Error() string { return e.where + ": " + e.err.Error() }
func (e *execError) Unwrap() error { return e.err }

type variable struct {
	name  string
	value any
}

// state is one run: where the output goes and the variables in scope ($ first).
type state struct {
	tree *parse.Tree
	w    io.Writer
	vars []variable
}

// run executes tree on f into w.
func run(tree *parse.Tree, w io.Writer, f Fields) error {
	s := &state{tree: tree, w: w, vars: []variable{{"$", f}}}
	if tree.Root == nil {
		return nil
	}
	return s.walk(f, tree.Root)
}

func (s *state) fail(n parse.Node, err error) error {
	var ee *execError
	if errors.As(err, &ee) {
		return err
	}
	where, _ := s.tree.ErrorContext(n)
	return &execError{where: where, err: err}
}

func (s *state) walk(dot any, n parse.Node) error {
	switch n := n.(type) {
	case *parse.ListNode:
		for _, c := range n.Nodes {
			if err := s.walk(dot, c); err != nil {
				return err
			}
		}
	case *parse.TextNode:
		if _, err := s.w.Write(n.Text); err != nil {
			return err
		}
	case *parse.ActionNode:
		v, err := s.pipeline(dot, n.Pipe)
		if err != nil {
			return err
		}
		if len(n.Pipe.Decl) == 0 {
			return s.print(n, v)
		}
	case *parse.IfNode:
		return s.ifOrWith(dot, n.Pipe, n.List, n.ElseList, false)
	case *parse.WithNode:
		return s.ifOrWith(dot, n.Pipe, n.List, n.ElseList, true)
	case *parse.CommentNode:
	default:
		// Range, template, break and continue are refused before a template runs (forbidden).
		return s.fail(n, fmt.Errorf("%s is not available", n))
	}
	return nil
}

func (s *state) ifOrWith(dot any, pipe *parse.PipeNode, list, elseList *parse.ListNode, with bool) error {
	defer s.pop(len(s.vars))
	v, err := s.pipeline(dot, pipe)
	if err != nil {
		return err
	}
	switch {
	case truth(v) && with:
		return s.walk(v, list)
	case truth(v):
		return s.walk(dot, list)
	case elseList != nil:
		return s.walk(dot, elseList)
	}
	return nil
}

func (s *state) pop(mark int) { s.vars = s.vars[:mark] }

func (s *state) print(n parse.Node, v any) error {
	var err error
	if v == nil {
		_, err = io.WriteString(s.w, "<no value>")
	} else {
		_, err = fmt.Fprint(s.w, v)
	}
	if err != nil {
		return s.fail(n, err)
	}
	return nil
}

func (s *state) pipeline(dot any, pipe *parse.PipeNode) (any, error) {
	if pipe == nil {
		return nil, nil
	}
	var v any
	final := false
	for _, cmd := range pipe.Cmds {
		var err error
		v, err = s.command(dot, cmd, v, final)
		if err != nil {
			return nil, err
		}
		final = true
	}
	for _, d := range pipe.Decl {
		if pipe.IsAssign {
			if err := s.set(d, v); err != nil {
				return nil, err
			}
		} else {
			s.vars = append(s.vars, variable{d.Ident[0], v})
		}
	}
	return v, nil
}

func (s *state) set(n *parse.VariableNode, v any) error {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].name == n.Ident[0] {
			s.vars[i].value = v
			return nil
		}
	}
	return s.fail(n, fmt.Errorf("undefined variable: %s", n.Ident[0]))
}

func (s *state) variable(n *parse.VariableNode) (any, error) {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].name == n.Ident[0] {
			return s.vars[i].value, nil
		}
	}
	return nil, s.fail(n, fmt.Errorf("undefined variable: %s", n.Ident[0]))
}

// command evaluates one command of a pipeline; final is the previous command's value, passed
// as the last argument when hasFinal.
func (s *state) command(dot any, cmd *parse.CommandNode, final any, hasFinal bool) (any, error) {
	first := cmd.Args[0]
	if id, ok := first.(*parse.IdentifierNode); ok {
		return s.call(dot, id, cmd.Args[1:], final, hasFinal)
	}
	notAFunction := func() error {
		if len(cmd.Args) > 1 || hasFinal {
			return s.fail(first, fmt.Errorf("can't give argument to non-function %s", first))
		}
		return nil
	}
	switch first.(type) {
	case *parse.FieldNode, *parse.ChainNode, *parse.VariableNode:
		// As text/template: the fields first (an unknown one is the error), then the arguments.
		v, err := s.arg(dot, first)
		if err != nil {
			return nil, err
		}
		return v, notAFunction()
	case *parse.NilNode:
		if err := notAFunction(); err != nil {
			return nil, err
		}
		return nil, s.fail(first, errors.New("nil is not a command"))
	}
	if err := notAFunction(); err != nil {
		return nil, err
	}
	return s.arg(dot, first)
}

// arg evaluates a node that stands for a value.
func (s *state) arg(dot any, n parse.Node) (any, error) {
	switch n := n.(type) {
	case *parse.DotNode:
		return dot, nil
	case *parse.NilNode:
		return nil, nil
	case *parse.BoolNode:
		return n.True, nil
	case *parse.StringNode:
		return n.Text, nil
	case *parse.NumberNode:
		// As text/template's constants: a float where the text reads as one ("1.0"), an
		// integer otherwise.
		hexInt := strings.HasPrefix(strings.ToLower(n.Text), "0x") && !strings.ContainsAny(n.Text, "pP")
		switch {
		case n.IsComplex:
			return n.Complex128, nil
		case n.IsFloat && !hexInt && !strings.HasPrefix(n.Text, "'") && strings.ContainsAny(n.Text, ".eEpP"):
			return n.Float64, nil
		case n.IsInt && n.Int64 == int64(int(n.Int64)):
			return int(n.Int64), nil
		}
		return nil, s.fail(n, fmt.Errorf("number %s is not available", n.Text))
	case *parse.FieldNode:
		return s.fields(n, dot, n.Ident)
	case *parse.VariableNode:
		v, err := s.variable(n)
		if err != nil {
			return nil, err
		}
		return s.fields(n, v, n.Ident[1:])
	case *parse.ChainNode:
		v, err := s.arg(dot, n.Node)
		if err != nil {
			return nil, err
		}
		return s.fields(n, v, n.Field)
	case *parse.PipeNode:
		defer s.pop(len(s.vars))
		return s.pipeline(dot, n)
	case *parse.IdentifierNode:
		return s.call(dot, n, nil, nil, false)
	}
	return nil, s.fail(n, fmt.Errorf("can't handle %s", n))
}

// fields follows a chain of field names from v: only Fields has fields.
func (s *state) fields(n parse.Node, v any, names []string) (any, error) {
	for _, name := range names {
		f, ok := v.(Fields)
		if !ok {
			if v == nil {
				return nil, s.fail(n, fmt.Errorf("nil pointer evaluating %s", name))
			}
			return nil, s.fail(n, &errUnknownField{name})
		}
		fv := reflect.ValueOf(f).FieldByName(name)
		if !fv.IsValid() || !token(name) {
			return nil, s.fail(n, &errUnknownField{name})
		}
		v = fv.Interface()
	}
	return v, nil
}

// token reports whether name is an exported Go identifier (FieldByName would also find an
// embedded or unexported one; Fields has none, but the rule is text/template's).
func token(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// call runs a predefined function. and and or evaluate their arguments only as far as needed.
func (s *state) call(dot any, id *parse.IdentifierNode, args []parse.Node, final any, hasFinal bool) (any, error) {
	name := id.Ident
	nargs := len(args)
	if hasFinal {
		nargs++
	}
	// As text/template, the count is checked before any argument is evaluated.
	if a := arity[name]; nargs < a.min || a.max >= 0 && nargs > a.max {
		return nil, s.fail(id, fmt.Errorf("wrong number of args for %s: want %d got %d", name, a.min, nargs))
	}
	if name == "and" || name == "or" {
		var v any
		for i := range nargs {
			if i < len(args) {
				var err error
				if v, err = s.arg(dot, args[i]); err != nil {
					return nil, err
				}
			} else {
				v = final
			}
			if truth(v) == (name == "or") {
				return v, nil
			}
		}
		return v, nil
	}
	vals := make([]any, 0, nargs)
	for _, a := range args {
		v, err := s.arg(dot, a)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	if hasFinal {
		vals = append(vals, final)
	}
	v, err := builtin(name, vals)
	if err != nil {
		return nil, s.fail(id, fmt.Errorf("error calling %s: %w", name, err))
	}
	return v, nil
}

// arity is how many arguments each predefined function takes (max -1: any number more).
var arity = map[string]struct{ min, max int }{
	"and": {1, -1}, "or": {1, -1}, "not": {1, 1}, "len": {1, 1}, "index": {1, -1}, "slice": {1, -1},
	"print": {0, -1}, "printf": {1, -1}, "println": {0, -1}, "html": {0, -1}, "js": {0, -1},
	"urlquery": {0, -1}, "eq": {1, -1}, "ne": {2, 2}, "lt": {2, 2}, "le": {2, 2}, "gt": {2, 2},
	"ge": {2, 2}, "call": {1, -1},
}

func builtin(name string, a []any) (any, error) {
	switch name {
	case "not":
		if len(a) != 1 {
			return nil, fmt.Errorf("wrong number of args for not: want 1 got %d", len(a))
		}
		return !truth(a[0]), nil
	case "len":
		if len(a) != 1 {
			return nil, fmt.Errorf("wrong number of args for len: want 1 got %d", len(a))
		}
		if str, ok := a[0].(string); ok {
			return len(str), nil
		}
		return nil, fmt.Errorf("len of type %T", a[0])
	case "index":
		return index(a)
	case "slice":
		return slice(a)
	case "print":
		return fmt.Sprint(a...), nil
	case "printf":
		if len(a) < 1 {
			return nil, errors.New("wrong number of args for printf: want at least 1 got 0")
		}
		format, ok := a[0].(string)
		if !ok {
			return nil, fmt.Errorf("wrong type for value; expected string; got %T", a[0])
		}
		return fmt.Sprintf(format, a[1:]...), nil
	case "println":
		return fmt.Sprintln(a...), nil
	case "html":
		return texttemplate.HTMLEscaper(a...), nil
	case "js":
		return texttemplate.JSEscaper(a...), nil
	case "urlquery":
		return texttemplate.URLQueryEscaper(a...), nil
	case "eq", "ne", "lt", "le", "gt", "ge":
		return compare(name, a)
	}
	return nil, fmt.Errorf("%s is not available", name)
}

// truth is text/template's: false, 0, "" and nil are false; anything else is true.
func truth(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	case int64:
		return v != 0
	case uint8:
		return v != 0
	case float64:
		return v != 0
	case complex128:
		return v != 0
	}
	return true
}

// asInt reads the integers a template has: constants (int), BookingID (int64), a byte of a
// string (uint8, what index gives).
func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case uint8:
		return int64(v), true
	}
	return 0, false
}

func toInt(v any) (int64, error) {
	if n, ok := asInt(v); ok {
		return n, nil
	}
	if v == nil {
		return 0, errors.New("cannot index slice/array with nil")
	}
	return 0, fmt.Errorf("cannot index slice/array with type %T", v)
}

func index(a []any) (any, error) {
	if len(a) < 1 {
		return nil, errors.New("wrong number of args for index: want at least 1 got 0")
	}
	v := a[0]
	for _, ix := range a[1:] {
		str, ok := v.(string)
		if !ok {
			if v == nil {
				return nil, errors.New("index of untyped nil")
			}
			return nil, fmt.Errorf("can't index item of type %T", v)
		}
		i, err := toInt(ix)
		if err != nil {
			return nil, err
		}
		if i < 0 || i >= int64(len(str)) {
			return nil, fmt.Errorf("index out of range: %d", i)
		}
		v = str[i]
	}
	return v, nil
}

func slice(a []any) (any, error) {
	if len(a) < 1 {
		return nil, errors.New("wrong number of args for slice: want at least 1 got 0")
	}
	str, ok := a[0].(string)
	if !ok {
		if a[0] == nil {
			return nil, errors.New("slice of untyped nil")
		}
		return nil, fmt.Errorf("can't slice item of type %T", a[0])
	}
	if len(a) > 3 {
		return nil, fmt.Errorf("too many slice indexes: %d", len(a)-1)
	}
	if len(a) == 4 {
		return nil, errors.New("cannot 3-index slice a string")
	}
	ix := []int64{0, int64(len(str))}
	for i, v := range a[1:] {
		n, err := toInt(v)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > int64(len(str)) {
			return nil, fmt.Errorf("index out of range: %d", n)
		}
		ix[i] = n
	}
	if ix[0] > ix[1] {
		return nil, fmt.Errorf("invalid slice index: %d > %d", ix[0], ix[1])
	}
	return str[ix[0]:ix[1]], nil
}

var errBadComparison = errors.New("incompatible types for comparison")

// compare is eq, ne, lt, le, gt and ge over the values a template has: booleans, integers,
// floats and strings, each compared only with its own kind.
func compare(op string, a []any) (any, error) {
	if op == "eq" {
		if len(a) < 2 {
			return nil, errors.New("missing argument for comparison")
		}
		for _, b := range a[1:] {
			c, err := cmp1(a[0], b, true)
			if err != nil {
				return nil, err
			}
			if c == 0 {
				return true, nil
			}
		}
		return false, nil
	}
	if len(a) != 2 {
		return nil, fmt.Errorf("wrong number of args for %s: want 2 got %d", op, len(a))
	}
	c, err := cmp1(a[0], a[1], op == "ne")
	if err != nil {
		return nil, err
	}
	switch op {
	case "ne":
		return c != 0, nil
	case "lt":
		return c < 0, nil
	case "le":
		return c <= 0, nil
	case "gt":
		return c > 0, nil
	}
	return c >= 0, nil
}

// cmp1 orders x and y (-1, 0, 1); booleans only compare for equality.
func cmp1(x, y any, equality bool) (int, error) {
	switch x := x.(type) {
	case bool:
		yb, ok := y.(bool)
		if !ok {
			return 0, errBadComparison
		}
		if !equality {
			return 0, errors.New("invalid type for comparison")
		}
		if x == yb {
			return 0, nil
		}
		return 1, nil
	case int, int64, uint8:
		xi, _ := asInt(x)
		yi, ok := asInt(y)
		if !ok {
			return 0, errBadComparison
		}
		return order(xi, yi), nil
	case float64:
		yf, ok := y.(float64)
		if !ok {
			return 0, errBadComparison
		}
		return order(x, yf), nil
	case string:
		ys, ok := y.(string)
		if !ok {
			return 0, errBadComparison
		}
		return strings.Compare(x, ys), nil
	}
	if x == nil || y == nil {
		return 0, errors.New("invalid type for comparison")
	}
	return 0, errors.New("non-comparable types")
}

func order[T int64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
