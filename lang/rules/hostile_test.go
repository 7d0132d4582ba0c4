package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The hostile suite of rule files: mutations of the valid rule files of
// the repository — misspelt tables and keys, values of every other type,
// dotted keys and sub-tables where none belongs, deep nesting, huge key
// counts, long keys, control characters and unicode, duplicate tables —
// each read as a rule file. Every one is read or refused with one line
// that names the file, as bad input, in the docs' words (no Go type
// names); the ones that must be refused are; and the hostile shapes are
// refused with bounded allocations.

// hostileBases are the valid rule files the mutations start from.
var hostileBases = []string{
	"testdata/house.toml",
	"../../examples/rules/ag_skill.toml",
	"../../examples/rules/ag_accumulated.toml",
	"../../examples/rules/grim.toml",
	"../../examples/rules/bd_d20w.toml",
}

// mutation is one hostile rule file made from a valid one.
type mutation struct {
	name string
	src  string
	// refuse: the file must be refused, with an error holding want.
	refuse bool
	want   string
}

var (
	keyValueLine = regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(.*)$`)
	headerLine   = regexp.MustCompile(`^\s*\[\s*rule\.([a-z]+)\s*\]\s*$`)
)

// structural are the keys of a rule's own tables (not names the designer
// chooses): misspelt, each must be refused.
var structural = map[string]bool{"id": true, "summary": true, "doc": true, "until": true, "horizon": true, "unit": true, "state": true}

// fields are the keys of a rule's inline tables (not names).
var fields = map[string]bool{"default": true, "min": true, "max": true, "doc": true, "real": true, "expr": true, "labels": true, "start": true}

// misspell swaps the first two letters of a name, or doubles its last.
func misspell(s string) string {
	if len(s) >= 2 && s[0] != s[1] {
		return string(s[1]) + string(s[0]) + s[2:]
	}
	return s + s[len(s)-1:]
}

// wrongValues are values of every TOML type.
var wrongValues = []string{`3`, `-1.5`, `"text"`, `true`, `[1, "a"]`, `{ a = 1 }`, `1979-05-27`, `[]`, `{}`, `"\u001b]0;title\u0007"`, `"\u202e"`}

// mutations makes the hostile files of one valid source.
func mutations(src string) []mutation {
	lines := strings.Split(src, "\n")
	with := func(i int, repl ...string) string {
		out := append(append(append([]string{}, lines[:i]...), repl...), lines[i+1:]...)
		return strings.Join(out, "\n")
	}
	var out []mutation
	for i, l := range lines {
		if m := headerLine.FindStringSubmatch(l); m != nil {
			out = append(out,
				mutation{fmt.Sprintf("line %d: [rule.%s] misspelt", i+1, m[1]), with(i, "[rule."+misspell(m[1])+"]"), true, "unknown key"},
				mutation{fmt.Sprintf("line %d: [rules.%s]", i+1, m[1]), with(i, "[rules."+m[1]+"]"), true, "unknown key"},
				mutation{fmt.Sprintf("line %d: [rule.%s.sub]", i+1, m[1]), with(i, l, "[rule."+m[1]+".zz]", "yy = 1"), true, ""},
				mutation{fmt.Sprintf("line %d: [foo.bar] before [rule.%s]", i+1, m[1]), with(i, "[foo.bar]", "x = 1", l), true, `unknown key "foo.bar"`},
				mutation{fmt.Sprintf("line %d: [rule.%s] twice", i+1, m[1]), with(i, l, "", l), true, "already been defined"},
				mutation{fmt.Sprintf("line %d: a dotted key under [rule.%s]", i+1, m[1]), with(i, l, "zz.yy = 1"), true, ""},
			)
			continue
		}
		if strings.TrimSpace(l) == "[[rule]]" {
			out = append(out,
				mutation{fmt.Sprintf("line %d: [[rules]]", i+1), with(i, "[[rules]]"), true, ""},
				mutation{fmt.Sprintf("line %d: [rule]", i+1), with(i, "[rule]"), true, ""},
			)
			continue
		}
		m := keyValueLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent, key, eq, value := m[1], m[2], m[3], m[4]
		if structural[key] {
			out = append(out, mutation{fmt.Sprintf("line %d: %s misspelt", i+1, key), with(i, indent+misspell(key)+eq+value), true, ""})
		}
		out = append(out,
			mutation{fmt.Sprintf("line %d: %s.zz", i+1, key), with(i, indent+key+".zz"+eq+value), true, ""},
			mutation{fmt.Sprintf("line %d: %s twice", i+1, key), with(i, l, l), true, ""},
			mutation{fmt.Sprintf("line %d: %s in unicode", i+1, key), with(i, indent+key+"é"+eq+value), true, ""},
			mutation{fmt.Sprintf("line %d: %s quoted with a control character", i+1, key), with(i, indent+`"`+key+`\u0000"`+eq+value), true, ""},
		)
		for _, v := range wrongValues {
			out = append(out, mutation{name: fmt.Sprintf("line %d: %s = %s", i+1, key, v), src: with(i, indent+key+eq+v)})
		}
		// Inside an inline table: every field of it takes another type.
		if strings.HasPrefix(value, "{") {
			for _, f := range regexp.MustCompile(`([a-z]+)\s*=\s*`).FindAllStringSubmatchIndex(value, -1) {
				field := value[f[2]:f[3]]
				out = append(out,
					mutation{fmt.Sprintf("line %d: %s.%s misspelt", i+1, key, field), with(i, indent+key+eq+value[:f[2]]+misspell(field)+value[f[3]:]), fields[field], ""},
					mutation{name: fmt.Sprintf("line %d: %s.%s = true", i+1, key, field), src: with(i, indent+key+eq+value[:f[1]]+"true, zz_"+value[f[1]:])},
				)
			}
		}
	}
	return out
}

// shapes are hostile documents of any base: deep, huge, long.
func shapes(src string) []mutation {
	rep := func(n int, f func(int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	deep := "the TOML nests more than 32 levels deep"
	return []mutation{
		{"48 KB of nested inline tables", src + "\nx = " + strings.Repeat("{a = ", 8000) + "1" + strings.Repeat("}", 8000) + "\n", true, deep},
		{"16 KB of dotted keys", src + "\n" + strings.Repeat("a.", 8000) + "b = 1\n", true, deep},
		{"arrays 50 000 deep", src + "\nx = " + strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + "\n", true, deep},
		{"a header 40 deep", src + "\n[" + strings.Repeat("a.", 39) + "a]\n", true, deep},
		{"inline tables 33 deep", src + "\nx = " + strings.Repeat("{a = ", 33) + "1" + strings.Repeat("}", 33) + "\n", true, deep},
		{"10 001 keys", src + "\n[zz]\n" + rep(10_001, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }), true, "more than 10000 keys"},
		{"10 001 array items", src + "\nzz = [" + strings.Repeat("1, ", 10_001) + "]\n", true, "more than 10000 keys"},
		{"10 001 rules", src + strings.Repeat("\n[[rule]]", 10_001), true, "more than 10000 keys"},
		{"a key of 300 bytes", src + "\n" + strings.Repeat("k", 300) + " = 1\n", true, "a key of 300 bytes"},
		{"deep keys, many", src + "\n" + rep(1000, func(i int) string { return fmt.Sprintf("%sk%d = 1\n", strings.Repeat("a.", 28), i) }), true, "the keys nest too deep for their number"},
		{"a raw escape byte in a string", strings.Replace(src, `summary = "`, "summary = \"\x1b]0;t\x07", 1), true, ""},
		{"a NUL byte", src + "\n\x00\n", true, ""},
		{"a right-to-left override in a key", src + "\n\"\u202ekey\" = 1\n", true, ""},
	}
}

// checkRefusal: a rule file's error is one line, bad input, naming the
// file, in the docs' words.
func checkRefusal(t *testing.T, name, file string, err error) {
	t.Helper()
	msg := err.Error()
	if !mechanics.IsInput(err) || strings.Contains(msg, "\n") || !strings.Contains(msg, filepath.Base(file)) {
		t.Errorf("%s: %q: want one line of bad input naming %s", name, msg, filepath.Base(file))
	}
	for _, leak := range []string{"interface {}", "map[", "[]any", "int64", "float64", "toml: ", "destination has type", "panic", "goroutine"} {
		if strings.Contains(msg, leak) {
			t.Errorf("%s: %q leaks %q", name, msg, leak)
		}
	}
}

// TestHostileRuleFiles reads every mutation of every base (a sample of
// them under -short).
func TestHostileRuleFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n, step := 0, 1
	if testing.Short() {
		step = 7
	}
	for _, base := range hostileBases {
		src, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := LoadFile(base); err != nil {
			t.Fatalf("the base %s: %v", base, err)
		}
		for k, m := range mutations(string(src)) {
			if k%step != 0 {
				continue
			}
			n++
			file := filepath.Join(dir, fmt.Sprintf("m%d.toml", n))
			if err := os.WriteFile(file, []byte(m.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFile(file)
			switch {
			case err != nil:
				checkRefusal(t, base+": "+m.name, file, err)
				if !strings.Contains(err.Error(), m.want) {
					t.Errorf("%s: %s: %v; want %q", base, m.name, err, m.want)
				}
			case m.refuse:
				t.Errorf("%s: %s: accepted", base, m.name)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d mutations", n)
	}
	t.Logf("%d hostile rule files", n)
}

// TestHostileRuleFileShapes: deep, huge and long documents are refused
// with their line and the limit, allocating a bounded amount (not the
// gigabytes the TOML parser takes on them: 2.6 GB for the first).
func TestHostileRuleFileShapes(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(hostileBases[0])
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range shapes(string(src)) {
		file := filepath.Join(dir, fmt.Sprintf("s%d.toml", i))
		if err := os.WriteFile(file, []byte(m.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := LoadFile(file)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: accepted", m.name)
			continue
		}
		checkRefusal(t, m.name, file, err)
		if !strings.Contains(err.Error(), m.want) {
			t.Errorf("%s: %v; want %q", m.name, err, m.want)
		}
		// The file itself, read and scanned: a few times its size, plus
		// a parse of at most what the limits allow.
		if got, limit := after.TotalAlloc-before.TotalAlloc, 8*uint64(len(m.src))+32<<20; got > limit {
			t.Errorf("%s: allocated %d bytes (limit %d)", m.name, got, limit)
		}
	}
}
