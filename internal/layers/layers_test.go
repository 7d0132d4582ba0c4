// Package layers_test checks that the tree is the layer map docs/architecture.md
// draws: which package may import which, and that every package says what
// it is in a doc.go.
package layers_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/oddsmith/oddsmith/"

// pkg is one package of the module: its directory (the import path after
// the module) and the imports of its non-test files.
type pkg struct {
	dir     string
	imports []string // module-relative for the module's own packages, else the full path
	hasDoc  bool     // a doc.go with a package comment
}

// packages reads every package of the module, from the repository root.
func packages(t *testing.T) []pkg {
	t.Helper()
	root := filepath.Join("..", "..")
	byDir := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "scratch") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		p := byDir[rel]
		if p == nil {
			p = &pkg{dir: rel}
			byDir[rel] = p
		}
		if filepath.Base(path) == "doc.go" && f.Doc != nil {
			p.hasDoc = true
		}
		for _, im := range f.Imports {
			s, _ := strconv.Unquote(im.Path.Value)
			s = strings.TrimPrefix(s, module)
			if !slices.Contains(p.imports, s) {
				p.imports = append(p.imports, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(byDir) < 10 {
		t.Fatalf("found only %d packages: is the test run from its own directory?", len(byDir))
	}
	var out []pkg
	for _, p := range byDir {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b pkg) int { return strings.Compare(a.dir, b.dir) })
	return out
}

// under reports whether dir is prefix or inside it.
func under(dir, prefix string) bool { return dir == prefix || strings.HasPrefix(dir, prefix+"/") }

// own reports whether an import is one of the module's packages.
func own(im string) bool {
	return !strings.Contains(strings.SplitN(im, "/", 2)[0], ".") && im != "C" && !isStd(im)
}

// isStd reports a standard-library import path.
func isStd(im string) bool {
	first := strings.SplitN(im, "/", 2)[0]
	switch first {
	case "mechanics", "systems", "lang", "engine", "exact", "sim", "crosscheck", "study", "reports", "serve", "cmd", "internal", "benchmarks":
		return false
	}
	return !strings.Contains(first, ".")
}

// rules say, for the packages under a directory, which of the module's
// packages they may import (by directory prefix).
var rules = []struct {
	dir   string
	allow []string
}{
	{"mechanics", []string{"mechanics", "internal/suggest"}},
	{"systems", []string{"mechanics", "systems"}},
	{"lang", []string{"mechanics", "systems/kit", "lang", "internal/suggest", "internal/tomlscan"}},
	{"engine", []string{"mechanics"}},
	{"exact", []string{"mechanics", "engine"}},
	{"sim", []string{"mechanics", "engine"}},
	{"crosscheck", []string{"mechanics", "engine", "exact", "sim"}},
	{"reports", []string{"mechanics", "engine"}},
	{"study", []string{"mechanics", "engine", "exact", "sim", "crosscheck", "lang/rules", "reports", "internal/suggest", "internal/tomlscan"}},
	// The workbench's server sits beside study: it resolves and runs
	// requests with study's and reports' functions, as the command line
	// does, and cmd/oddsmith wires it to flags and signals.
	{"serve", []string{"mechanics", "engine", "exact", "sim", "crosscheck", "lang", "study", "reports", "systems"}},
	{"internal/suggest", nil},
	{"internal/tomlscan", nil},
}

// TestLayers: imports flow one way, model core ← content and language ←
// engines (peers) ← study ← cmd, and reports imports no engine.
func TestLayers(t *testing.T) {
	for _, p := range packages(t) {
		for _, r := range rules {
			if !under(p.dir, r.dir) {
				continue
			}
			for _, im := range p.imports {
				if !own(im) {
					continue
				}
				if !slices.ContainsFunc(r.allow, func(a string) bool { return under(im, a) }) {
					t.Errorf("%s imports %s: the layer %s may import only %v", p.dir, im, r.dir, r.allow)
				}
			}
		}
		for _, im := range p.imports {
			if strings.HasPrefix(im, "gonum.org/v1/plot") && !under(p.dir, "reports") {
				t.Errorf("%s imports %s: plotting types stay inside reports", p.dir, im)
			}
			if im == "internal/mechtest" {
				t.Errorf("%s imports internal/mechtest outside a test", p.dir)
			}
		}
	}
}

// TestEveryPackageHasADoc: every package has a doc.go with its package
// comment, so the tree, docs/architecture.md's map and the docs say the same thing.
func TestEveryPackageHasADoc(t *testing.T) {
	for _, p := range packages(t) {
		if !p.hasDoc {
			t.Errorf("%s has no doc.go with a package comment", p.dir)
		}
	}
}
