package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

func mustTag(s string) language.Tag { return language.MustParse(s) }

// keyUse finds message keys in source: the first string argument of T(…), M(…) and
// translate(…) calls (i18n.T(ctx, "k"), p.T("k"), i18n.M("k"), translate(r, "k")), and Key
// fields of view models (Key: "k"). Comment lines are skipped.
var keyUse = regexp.MustCompile(`(?:\b(?:T|M|translate)\((?:[A-Za-z_][\w.()]*,\s*)?|\bKey:\s*)"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"`)

// dynamicPrefixes are key families code builds at run time ("status." + name); their members
// count as used. Add a prefix here only together with a test that renders every member.
var dynamicPrefixes = []string{"_meta.", "_format.", "activity.prefix."}

// Every key the code uses exists in the English catalog (and so, by TestCatalogsAreComplete,
// in every language), and every catalog key is used somewhere: no page prints a raw key and
// the catalogs carry no dead texts for translators.
func TestKeysUsedInCodeExist(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string][]string{}
	for _, dir := range []string{"app", "ui"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name := d.Name()
			generated := strings.HasSuffix(name, "_templ.go")
			if generated || strings.HasSuffix(name, "_test.go") || !(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".templ")) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "//") {
					continue
				}
				for _, m := range keyUse.FindAllStringSubmatch(line, -1) {
					used[m[1]] = append(used[m[1]], path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d keys in use: the scanner is broken", len(used))
	}
	en := catalogs()[Default]
	var missing []string
	for key, files := range used {
		if _, ok := en.messages[key]; !ok {
			missing = append(missing, key+" (in "+files[0]+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("used but not in the catalogs: %s", m)
	}
	var unused []string
	for key := range en.messages {
		if _, ok := used[key]; ok || hasDynamicPrefix(key) {
			continue
		}
		unused = append(unused, key)
	}
	sort.Strings(unused)
	for _, k := range unused {
		t.Errorf("in the catalogs but used nowhere: %s", k)
	}
}

func hasDynamicPrefix(key string) bool {
	for _, p := range dynamicPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}
