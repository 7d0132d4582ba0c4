package tomlscan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// repeat joins n copies of f(i).
func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

// hostile are documents past one limit each: the line where it is crossed
// and words of the refusal.
var hostile = []struct {
	name string
	src  string
	line int
	want string
}{
	{"inline tables 33 deep", "a = " + strings.Repeat("{b = ", 32) + "1" + strings.Repeat("}", 32), 1, "nests more than 32 levels deep"},
	{"inline tables 50 000 deep", "a = " + strings.Repeat("{b = ", 50_000), 1, "nests more than 32 levels deep"},
	{"dotted key of 33 parts", strings.Repeat("a.", 32) + "a = 1", 1, "nests more than 32 levels deep"},
	{"dotted key of 8 000 parts", strings.Repeat("a.", 8000) + "a = 1", 1, "nests more than 32 levels deep"},
	{"header of 33 parts", "x = 1\n[" + strings.Repeat("a.", 32) + "a]\n", 2, "nests more than 32 levels deep"},
	{"arrays 33 deep", "a = " + strings.Repeat("[", 32), 1, "nests more than 32 levels deep"},
	{"arrays 50 000 deep", "a = " + strings.Repeat("[", 50_000), 1, "nests more than 32 levels deep"},
	{"arrays of inline tables", "a = " + strings.Repeat("[{b = ", 20), 1, "nests more than 32 levels deep"},
	{"header and dotted key together", "[" + strings.Repeat("a.", 19) + "a]\n" + strings.Repeat("b.", 12) + "b = 1\n", 2, "nests more than 32 levels deep"},
	{"deep inside an inline table on many lines", "a = {\n" + strings.Repeat("b = {\n", 40), 33, "nests more than 32 levels deep"},
	{"10 001 keys", repeat(10_001, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }), 10_001, "more than 10000 keys"},
	{"10 001 headers", strings.Repeat("[[a]]\n", 10_001), 10_001, "more than 10000 keys"},
	{"10 001 array items", "a = [\n" + strings.Repeat("1,\n", 10_001) + "]", 10_001, "more than 10000 keys"},
	{"10 001 inline tables", "a = [" + strings.Repeat("{},", 10_001) + "]", 1, "more than 10000 keys"},
	{"a long bare key", strings.Repeat("k", 257) + " = 1", 1, "a key of 257 bytes"},
	{"a long quoted key", "a.\"" + strings.Repeat("k", 300) + "\" = 1", 1, "a key of 300 bytes"},
	{"deep keys, many", repeat(300, func(i int) string { return fmt.Sprintf("%sk%d = 1\n", strings.Repeat("a.", 30), i) }), 209, "the keys nest too deep for their number"},
}

func TestLimits(t *testing.T) {
	for _, c := range hostile {
		_, err := Scan([]byte(c.src))
		var le *LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s: err = %v, want a limit error", c.name, err)
			continue
		}
		if le.Line != c.line || !strings.Contains(le.Msg, c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q at line %d, want %q at line %d", c.name, le.Msg, le.Line, c.want, c.line)
		}
	}
}

// TestAtTheLimits: a document at every limit is read.
func TestAtTheLimits(t *testing.T) {
	for name, src := range map[string]string{
		"inline tables 32 deep":  "a = " + strings.Repeat("{b = ", 31) + "1" + strings.Repeat("}", 31),
		"dotted key of 32 parts": strings.Repeat("a.", 31) + "a = 1",
		"arrays 32 deep":         "a = " + strings.Repeat("[", 31) + strings.Repeat("]", 31),
		"10 000 keys":            repeat(10_000, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }),
		"a key of 256 bytes":     strings.Repeat("k", 256) + " = 1",
		"a quoted key of 256":    "\"" + strings.Repeat("k", 256) + "\" = 1",
	} {
		if _, err := Scan([]byte(src)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var v map[string]any
		if _, err := toml.Decode(src, &v); err != nil {
			t.Errorf("%s is not TOML: %v", name, err)
		}
	}
}

// TestScanIsLinear: the scan reads every hostile document (up to a few
// hundred kilobytes) with allocations bounded by a small multiple of its
// size, whatever the nesting: it counts, it does not recurse.
func TestScanIsLinear(t *testing.T) {
	inputs := []string{
		strings.Repeat("{", 300_000),
		"a = " + strings.Repeat("[", 300_000),
		"a = " + strings.Repeat("{b = ", 60_000),
		strings.Repeat("a.", 150_000) + "a = 1",
		strings.Repeat("\"", 300_000),
		strings.Repeat("'''", 100_000),
		strings.Repeat("[[", 150_000),
		strings.Repeat("a = 1\n", 50_000),
		strings.Repeat("#\n", 150_000),
		strings.Repeat("\\", 300_000),
		"a = \"" + strings.Repeat("\\\"", 150_000),
		strings.Repeat("]", 300_000),
		strings.Repeat("}", 300_000),
		strings.Repeat(",", 300_000),
		strings.Repeat("=", 300_000),
		strings.Repeat("x", 300_000),
	}
	for _, src := range inputs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = Scan([]byte(src))
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(src))+8<<20 {
			t.Errorf("%.20q…: the scan allocated %d bytes for %d", src, got, len(src))
		}
	}
}

// TestLines: in every TOML file of the repository, each key the parser
// reads is placed on a line that writes it.
func TestLines(t *testing.T) {
	var files []string
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != filepath.Join("..", "..") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".toml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found only %d TOML files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkLines(t, f, string(src))
	}
}

// checkLines: src scans, and every key of it that parses is placed on a
// line holding its last part.
func checkLines(t *testing.T, name, src string) {
	t.Helper()
	d, err := Scan([]byte(src))
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	var v map[string]any
	md, err := toml.Decode(src, &v)
	if err != nil {
		return
	}
	lines := strings.Split(src, "\n")
	for _, k := range md.Keys() {
		l := d.KeyLine(k)
		if l < 1 || l > len(lines) || !strings.Contains(lines[l-1], k[len(k)-1]) {
			t.Errorf("%s: key %v placed at line %d", name, k, l)
		}
	}
}

func TestLine(t *testing.T) {
	src := `# a plan
title = "x"
[[analysis]]
name = "a"
set = { skill = 2,
  tn = 5 }
[[analysis]]
name = "b"
"quoted key" = 1
a.b.c = 2
[analysis.sub]
x = [ { y = 1 },
  { z = [1, { w = 2 }] } ]
[[analysis.inner]]
q = 1
[[analysis.inner]]
q = 2
`
	d, err := Scan([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path []any
		line int
	}{
		{[]any{"title"}, 2},
		{[]any{"analysis"}, 3},
		{[]any{"analysis", 0}, 3},
		{[]any{"analysis", 0, "set", "skill"}, 5},
		{[]any{"analysis", 0, "set", "tn"}, 6},
		{[]any{"analysis", 1}, 7},
		{[]any{"analysis", 1, "quoted key"}, 9},
		{[]any{"analysis", 1, "a", "b", "c"}, 10},
		{[]any{"analysis", 1, "sub"}, 11},
		{[]any{"analysis", 1, "sub", "x", 0, "y"}, 12},
		{[]any{"analysis", 1, "sub", "x", 1, "z", 1, "w"}, 13},
		{[]any{"analysis", 1, "inner", 1, "q"}, 17},
		{[]any{"analysis", 1, "nothing", "here"}, 7}, // its nearest ancestor
		{[]any{"nothing"}, 0},
	} {
		if got := d.Line(c.path...); got != c.line {
			t.Errorf("Line%v = %d, want %d", c.path, got, c.line)
		}
	}
	for _, c := range []struct {
		key  []string
		line int
	}{
		{[]string{"analysis", "name"}, 4},
		{[]string{"analysis", "a", "b"}, 10},
		{[]string{"analysis", "inner", "q"}, 15},
		{[]string{"analysis", "nothing"}, 3},
	} {
		if got := d.KeyLine(c.key); got != c.line {
			t.Errorf("KeyLine%v = %d, want %d", c.key, got, c.line)
		}
	}
	if n := d.Tables("analysis"); n != 2 {
		t.Errorf("Tables(analysis) = %d, want 2", n)
	}
	if n := d.Tables("analysis", "inner"); n != 2 {
		t.Errorf("Tables(analysis, inner) = %d, want 2", n)
	}
	if n := d.Tables("analysis", "sub", "x"); n != 0 {
		t.Errorf("an inline array: Tables = %d, want 0", n)
	}
}

// FuzzScan: the scan never panics and always ends; on a document the
// parser reads, every key is placed on a line that writes it.
func FuzzScan(f *testing.F) {
	for _, c := range hostile {
		if len(c.src) < 4096 {
			f.Add(c.src)
		}
	}
	for _, s := range []string{
		"a = 1", "[a]\nb = 2", "[[a]]\n[[a]]\nb.c = 'x'", "a = \"\"\"\nx\"\"\"\"\"\nb = 1",
		"a = '''x'''''\nb = {c = [1, 2, {d = 3}]}", "\"a.b\" = 1\n'c' = 2", "a = 1979-05-27 07:32:00\nb = [1979-05-27 07:32:00, 1]",
		"a = { b = 1, }\n", "a = {\n# c\nb = 1\n}\n", "a = \"\\\"#\" # c\nb = 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		_, err := Scan([]byte(src))
		if err != nil {
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a limit", err)
			}
			return
		}
		checkLines(t, "fuzz", src)
	})
}
