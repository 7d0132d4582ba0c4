package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCitationsResolve: every citation of the mechanics reference
// (docs/mechanics.md#anchor) in the repository's code, docs and examples
// names an anchor the reference has, and nothing cites a file a clone does
// not have (the numbered sections of the spec the systems were written from).
func TestCitationsResolve(t *testing.T) {
	ref, err := os.ReadFile("mechanics.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)"></a>`).FindAllStringSubmatch(string(ref), -1) {
		anchors[m[1]] = true
	}
	if len(anchors) < 10 {
		t.Fatalf("the reference has only %d anchors", len(anchors))
	}
	cite := regexp.MustCompile(`mechanics\.md#([A-Za-z0-9_.-]+)`)
	spec := regexp.MustCompile(`mechanics\.md §`)
	root := ".."
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "scratch") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".toml", ".sh", ".yaml":
		default:
			return nil
		}
		if filepath.Base(path) == "citations_test.go" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if spec.MatchString(line) {
				t.Errorf("%s:%d cites a section of a spec the repository does not have: %s", path, i+1, strings.TrimSpace(line))
			}
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				checked++
				if a := strings.TrimRight(m[1], ".)"); !anchors[a] {
					t.Errorf("%s:%d cites docs/mechanics.md#%s, which the reference does not have", path, i+1, a)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d citations checked", checked)
}
