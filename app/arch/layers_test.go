package arch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The layers of docs/ARCHITECTURE.md ("Layers"). Every package of the module is in exactly one;
// a new package must be placed here before TestLayers passes, so nothing is left unchecked.
var (
	// wiring builds the process: commands, config, the root router, the workers.
	wiring = set("frontdesk", "frontdesk/app")
	// surfaces are the front doors: each turns requests into calls of the domain.
	surfaces = set(app("api"), app("admin"), app("site"), app("mcp"), app("payhook"), app("customer"),
		app("msghook"))
	// domain is the rules and the writers: what every door calls, the same for all. The
	// writers (webhook, messages, queue) put rows in the outbox inside the caller's transaction.
	domain = set(app("booking"), app("reserve"), app("clients"), app("catalog"), app("payments"), app("messages"),
		app("webhook"), app("queue"), app("importer"), app("apikey"), app("owner"), app("staff"), app("money"), app("input"),
		app("resource"), app("managelink"), app("ical"), app("locale"), app("links"), app("idempotency"),
		app("secrets"), app("mcp/channel"), app("fail"), app("feeds"), app("activity"), app("reports"), app("twofactor"),
		app("passkey"), app("export"), app("calendar"), app("replies"), app("feepolicy"), app("jsontext"))
	// dispatchers send what the writers wrote: HTTP deliveries, SMTP, their metrics. app/server.go
	// runs them beside the surfaces.
	dispatchers = set(app("webhook/dispatch"), app("messages/mailer"), app("calendar/calsync"))
	// doors are what surfaces and wiring share about HTTP itself: request ids, real client
	// addresses, security headers (middleware); API-key authentication and rate-limit headers
	// for /v3 and /mcp (keyauth, which reads an *http.Request and writes Retry-After); the
	// HTML error page the admin and the customer pages share (errpage).
	doors = set(app("middleware"), app("keyauth"), app("errpage"))
	// adapters talk to the world for the wiring: a payment provider, certificates, systemd,
	// build information, the load generator.
	adapters = set(app("payments/stripe"), app("tlsacme"), app("systemd"), app("buildinfo"), app("bench"))
	// helpers are for tests only: fake servers and databases, and this package.
	helpers = set(app("nettest"), app("messages/smtptest"), app("messages/smstest"), app("messages/watest"), app("payments/stripe/stripetest"), "frontdesk/db/dbtest",
		app("calendar/radicaletest"), app("arch"))
	// base is what everything stands on; it knows nothing of app/.
	base = set("frontdesk/db", "frontdesk/ui", "frontdesk/ui/i18n", "frontdesk/static")
	// tools are programs run by hand beside the appliance, not part of it: the side-by-side
	// harness (bench/sidebyside.sh) and its chi baseline. They see the appliance from outside.
	tools = set("frontdesk/bench/sidebyside", "frontdesk/bench/chibase")
)

// allowed are the justified exceptions to the rules, each with its reason: {package, import}.
// There are none; an entry needs a comment saying why the rule cannot hold for it.
var allowed = map[[2]string]string{}

// rules are the import rules the test enforces, on each package's imports followed through the
// whole graph (an import of an import counts).
var rules = []rule{
	{
		name: "surfaces do not import each other",
		from: surfaces,
		forbid: func(from, dep string) bool {
			return dep != from && surfaces[dep]
		},
	},
	{
		name: "the domain imports only the domain, db and ui/i18n, and no HTTP, SMTP or Prometheus",
		from: domain,
		forbid: func(_, dep string) bool {
			if isModule(dep) {
				return !domain[dep] && dep != "frontdesk/db" && dep != "frontdesk/ui/i18n"
			}
			return dep == "net/http" || strings.HasPrefix(dep, "github.com/wneessen/go-mail") ||
				strings.HasPrefix(dep, "github.com/prometheus/")
		},
	},
	{
		name: "dispatchers import no surface and no wiring",
		from: dispatchers,
		forbid: func(_, dep string) bool {
			return surfaces[dep] || wiring[dep]
		},
	},
	{
		name: "the tools import nothing of the module",
		from: tools,
		forbid: func(_, dep string) bool {
			return isModule(dep)
		},
	},
	{
		name: "nothing of the appliance imports a tool",
		from: union(wiring, surfaces, domain, dispatchers, doors, adapters, helpers, base),
		forbid: func(_, dep string) bool {
			return tools[dep]
		},
	},
	{
		name: "the base imports nothing of app/",
		from: base,
		forbid: func(_, dep string) bool {
			return dep == "frontdesk/app" || strings.HasPrefix(dep, "frontdesk/app/")
		},
	},
}

// TestLayers checks the module's import graph (go list, without tests) against the rules.
func TestLayers(t *testing.T) {
	g := moduleGraph(t)
	var pkgs []string
	for pkg := range g {
		if isModule(pkg) {
			pkgs = append(pkgs, pkg)
		}
	}
	slices.Sort(pkgs)
	for _, pkg := range pkgs {
		switch in := layersOf(pkg); len(in) {
		case 0:
			t.Errorf("%s is in no layer: place it in layers_test.go and docs/ARCHITECTURE.md", pkg)
		case 1:
		default:
			t.Errorf("%s is in several layers: %v", pkg, in)
		}
	}
	for _, v := range check(g, rules, allowed) {
		t.Error(v)
	}
	for k, why := range allowed {
		if !reaches(g, k[0], k[1]) {
			t.Errorf("the allowance %s → %s (%s) is no longer used: remove it", k[0], k[1], why)
		}
	}
}

// TestLayersCanFail runs the checker on a graph that keeps the rules and on copies with a
// forbidden edge added: it must find every package that now reaches across a line, through any
// number of imports, and nothing else.
func TestLayersCanFail(t *testing.T) {
	// The synthetic graph has one allowance of its own, to show an allowance covers its package
	// and nothing that imports it.
	allowed := map[[2]string]string{{app("payments"), "net/http"}: "for this test"}
	clean := graph{
		app("booking"):  {app("webhook"), app("messages"), "frontdesk/db", "time"},
		app("webhook"):  {"frontdesk/db", app("queue")},
		app("messages"): {"frontdesk/db", "net/mail"},
		app("queue"):    {"frontdesk/db"},
		app("payments"): {app("booking"), "net/http"},
		app("admin"):    {app("booking"), app("payments"), app("webhook/dispatch"), "net/http"},
		app("webhook/dispatch"): {app("webhook"), "net/http",
			"github.com/prometheus/client_golang/prometheus"},
		"frontdesk/db":      {"database/sql"},
		"frontdesk/ui":      {"frontdesk/ui/i18n"},
		"net/mail":          {"net/textproto"},
		"net/http":          {"net/textproto"},
		"frontdesk/app":     {app("admin"), app("webhook/dispatch")},
		"database/sql":      nil,
		"net/textproto":     nil,
		"time":              nil,
		"frontdesk/ui/i18n": nil,
		"github.com/prometheus/client_golang/prometheus": {"net/http"},
		app("site"):  nil,
		app("money"): nil,
	}
	if v := check(clean, rules, allowed); len(v) != 0 {
		t.Fatalf("a graph that keeps the rules: %v", v)
	}
	for _, tc := range []struct {
		name string
		add  [][2]string // edges added to the clean graph
		want []string    // "package → import" of each violation
	}{
		{"a domain package imports a surface, and so does every package importing it",
			[][2]string{{app("booking"), app("site")}},
			[]string{
				app("booking") + " → " + app("site"), app("payments") + " → " + app("site"),
				app("admin") + " → " + app("site"), // a surface, through the domain
			}},
		{"a writer imports its dispatcher: the first package across the line is the one reported",
			[][2]string{{app("webhook"), app("webhook/dispatch")}},
			[]string{
				app("booking") + " → " + app("webhook/dispatch"), app("payments") + " → " + app("webhook/dispatch"),
				app("webhook") + " → " + app("webhook/dispatch"),
			}},
		{"net/http three imports down", [][2]string{{app("queue"), "mime"}, {"mime", "net/http"}},
			[]string{app("booking") + " → net/http", app("queue") + " → net/http", app("webhook") + " → net/http"}},
		{"an allowance is its package's alone", [][2]string{{app("messages"), app("payments")}},
			[]string{app("booking") + " → net/http", app("messages") + " → net/http"}},
		{"a surface imports another", [][2]string{{app("admin"), app("site")}},
			[]string{app("admin") + " → " + app("site")}},
		{"the base imports app/", [][2]string{{"frontdesk/ui", app("money")}},
			[]string{"frontdesk/ui → " + app("money")}},
		{"a dispatcher imports the wiring", [][2]string{{app("webhook/dispatch"), "frontdesk/app"}},
			[]string{app("webhook/dispatch") + " → frontdesk/app"}},
		{"a tool imports the appliance", [][2]string{{"frontdesk/bench/sidebyside", app("money")}},
			[]string{"frontdesk/bench/sidebyside → " + app("money")}},
		{"the appliance imports a tool", [][2]string{{app("admin"), "frontdesk/bench/chibase"}},
			[]string{app("admin") + " → frontdesk/bench/chibase", "frontdesk/app → frontdesk/bench/chibase"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graph{}
			for k, v := range clean {
				g[k] = slices.Clone(v)
			}
			for _, e := range tc.add {
				g[e[0]] = append(g[e[0]], e[1])
			}
			var got []string
			for _, v := range check(g, rules, allowed) {
				got = append(got, v.from+" → "+v.dep)
			}
			slices.Sort(got)
			slices.Sort(tc.want)
			if !slices.Equal(got, tc.want) {
				t.Errorf("violations %q, want %q", got, tc.want)
			}
		})
	}
}

// graph is each package's direct imports.
type graph map[string][]string

type rule struct {
	name   string
	from   map[string]bool
	forbid func(from, dep string) bool
}

type violation struct {
	rule, from, dep string
	path            []string // from, the packages between, dep
}

func (v violation) Error() string {
	return v.rule + ": " + strings.Join(v.path, " → ")
}

// check follows each rule's packages' imports through g and reports every forbidden package
// reached, with a shortest path to it, but for the allowances. What a forbidden package imports
// in turn is not reported again: the first package across the line is the one to move.
func check(g graph, rules []rule, allowed map[[2]string]string) []violation {
	var out []violation
	for _, r := range rules {
		for _, from := range sorted(r.from) {
			if _, ok := g[from]; !ok {
				continue // not built here (a graph of a test)
			}
			parent := map[string]string{from: ""}
			queue := []string{from}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				for _, dep := range g[p] {
					if _, seen := parent[dep]; seen {
						continue
					}
					parent[dep] = p
					if _, ok := allowed[[2]string{from, dep}]; !ok && r.forbid(from, dep) {
						out = append(out, violation{rule: r.name, from: from, dep: dep, path: pathTo(parent, dep)})
						continue
					}
					queue = append(queue, dep)
				}
			}
		}
	}
	return out
}

// pathTo is the import path from the search's start to dep, read back through parent.
func pathTo(parent map[string]string, dep string) []string {
	var path []string
	for q := dep; q != ""; q = parent[q] {
		path = append(path, q)
	}
	slices.Reverse(path)
	return path
}

// reaches reports whether from imports dep, directly or not.
func reaches(g graph, from, dep string) bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, d := range g[p] {
			if d == dep {
				return true
			}
			if !seen[d] {
				seen[d] = true
				queue = append(queue, d)
			}
		}
	}
	return false
}

// moduleGraph is the import graph of every package the module builds, without tests, as the
// go command resolves it (build constraints of this platform).
func moduleGraph(t *testing.T) graph {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Imports,Error", "frontdesk/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		g[p.ImportPath] = p.Imports
	}
	if len(g[app("booking")]) == 0 {
		t.Fatalf("go list found no imports of %s: not the whole module", app("booking"))
	}
	return g
}

// layersOf names the layers pkg is in.
func layersOf(pkg string) []string {
	var in []string
	for _, l := range []struct {
		name string
		pkgs map[string]bool
	}{{"wiring", wiring}, {"surfaces", surfaces}, {"domain", domain}, {"dispatchers", dispatchers},
		{"doors", doors}, {"adapters", adapters}, {"helpers", helpers}, {"base", base}, {"tools", tools}} {
		if l.pkgs[pkg] {
			in = append(in, l.name)
		}
	}
	return in
}

func isModule(pkg string) bool { return pkg == "frontdesk" || strings.HasPrefix(pkg, "frontdesk/") }

func app(name string) string { return "frontdesk/app/" + name }

func set(pkgs ...string) map[string]bool {
	m := map[string]bool{}
	for _, p := range pkgs {
		m[p] = true
	}
	return m
}

// union is every package of the sets.
func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		for p := range s {
			m[p] = true
		}
	}
	return m
}

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
