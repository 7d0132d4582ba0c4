package study

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// The hostile suite of plans: mutations of the valid plans of the
// repository — misspelt tables and keys, values of every other type,
// dotted keys and sub-tables, deep nesting, huge key counts, long keys,
// control characters and unicode, duplicate tables — each parsed as a
// plan. Every one is read or refused with one line naming the plan, in
// the docs' words (no Go type names); the ones that must be refused are;
// and the hostile shapes are refused with bounded allocations.

// hostilePlans are the valid plans the mutations start from (a plan's
// rule files are read from its directory).
var hostilePlans = []string{
	"../examples/tour.toml",
	"testdata/solve_plan.toml",
	"testdata/charts_shard.toml",
	"../examples/slurm/plan.toml",
	"validation.toml",
}

type planMutation struct {
	name   string
	src    string
	refuse bool
}

var (
	planKeyLine    = regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(.*)$`)
	planHeaderLine = regexp.MustCompile(`^\s*(\[\[?)\s*([a-z.]+)\s*(\]\]?)\s*$`)
)

func planMisspell(s string) string {
	if len(s) >= 2 && s[0] != s[1] {
		return string(s[1]) + string(s[0]) + s[2:]
	}
	return s + s[len(s)-1:]
}

var planWrongValues = []string{`3`, `-1.5`, `"text"`, `true`, `[1, "a"]`, `{ a = 1 }`, `1979-05-27`, `[]`, `{}`, `"\u001b[2J"`, `"\u202e"`, `[[1]]`, `[{ a = 1 }]`}

func planMutations(src string) []planMutation {
	lines := strings.Split(src, "\n")
	with := func(i int, repl ...string) string {
		out := append(append(append([]string{}, lines[:i]...), repl...), lines[i+1:]...)
		return strings.Join(out, "\n")
	}
	var out []planMutation
	inRule := false
	for i, l := range lines {
		if m := planHeaderLine.FindStringSubmatch(l); m != nil {
			inRule = m[2] == "rule" || strings.HasPrefix(m[2], "rule.")
			parts := strings.Split(m[2], ".")
			last := parts[len(parts)-1]
			parts[len(parts)-1] = planMisspell(last)
			out = append(out,
				planMutation{fmt.Sprintf("line %d: %s misspelt", i+1, m[2]), with(i, m[1]+strings.Join(parts, ".")+m[3]), true},
				planMutation{fmt.Sprintf("line %d: %s.zz", i+1, m[2]), with(i, l, "[["+m[2]+".zz]]", "yy = 1"), true},
				planMutation{fmt.Sprintf("line %d: a dotted key under %s", i+1, m[2]), with(i, l, "zz.yy = 1"), true},
				planMutation{fmt.Sprintf("line %d: [foo.bar] before %s", i+1, m[2]), with(i, "[foo.bar]", "x = 1", l), true},
			)
			continue
		}
		m := planKeyLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent, key, eq, value := m[1], m[2], m[3], m[4]
		out = append(out,
			planMutation{fmt.Sprintf("line %d: %s.zz", i+1, key), with(i, indent+key+".zz"+eq+value), !inRule},
			planMutation{fmt.Sprintf("line %d: %s twice", i+1, key), with(i, l, l), true},
			planMutation{fmt.Sprintf("line %d: %s in unicode", i+1, key), with(i, indent+key+"é"+eq+value), true},
		)
		if !inRule {
			out = append(out, planMutation{fmt.Sprintf("line %d: %s misspelt", i+1, key), with(i, indent+planMisspell(key)+eq+value), true})
		}
		for _, v := range planWrongValues {
			out = append(out, planMutation{name: fmt.Sprintf("line %d: %s = %s", i+1, key, v), src: with(i, indent+key+eq+v)})
		}
		if strings.HasPrefix(value, "{") && !inRule {
			// A table inside set, vary, a, b: refused.
			out = append(out, planMutation{fmt.Sprintf("line %d: %s with a table inside", i+1, key), with(i, indent+key+eq+"{ zz = { yy = 1 }, "+value[1:]), true})
		}
	}
	return out
}

// checkPlanRefusal: a plan's error is one line naming the plan, in the
// docs' words.
func checkPlanRefusal(t *testing.T, name, file string, err error) {
	t.Helper()
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, file) {
		t.Errorf("%s: %q: want one line naming %s first", name, msg, file)
	}
	for _, leak := range []string{"interface {}", "map[", "[]any", "int64", "float64", "toml: line", "toml: (last", "destination has type", "time.Time", "panic", "goroutine"} {
		if strings.Contains(msg, leak) {
			t.Errorf("%s: %q leaks %q", name, msg, leak)
		}
	}
}

// TestHostilePlans parses every mutation of every base plan (a sample
// under -short).
func TestHostilePlans(t *testing.T) {
	t.Parallel()
	n, step := 0, 1
	if testing.Short() {
		step = 9
	}
	for _, base := range hostilePlans {
		src, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParsePlan(systems.Default, base, src); err != nil {
			t.Fatalf("the base %s: %v", base, err)
		}
		for k, m := range planMutations(string(src)) {
			if k%step != 0 {
				continue
			}
			n++
			_, err := ParsePlan(systems.Default, base, []byte(m.src))
			switch {
			case err != nil:
				checkPlanRefusal(t, base+": "+m.name, base, err)
			case m.refuse:
				t.Errorf("%s: %s: accepted", base, m.name)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d mutations", n)
	}
	t.Logf("%d hostile plans", n)
}

// TestHostilePlanShapes: deep, huge and long plans are refused with their
// line and the limit, allocating a bounded amount.
func TestHostilePlanShapes(t *testing.T) {
	src, err := os.ReadFile(hostilePlans[1])
	if err != nil {
		t.Fatal(err)
	}
	rep := func(n int, f func(int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	deep := "the TOML nests more than 32 levels deep"
	for _, c := range []struct{ name, src, want string }{
		{"48 KB of nested inline tables", "x = " + strings.Repeat("{a = ", 8000) + "1" + strings.Repeat("}", 8000) + "\n" + string(src), deep},
		{"16 KB of dotted keys", strings.Repeat("a.", 8000) + "b = 1\n" + string(src), deep},
		{"300 KB: inline tables 50 000 deep", "x = " + strings.Repeat("{a = ", 50_000) + "\n" + string(src), deep},
		{"arrays 50 000 deep", "x = " + strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + "\n" + string(src), deep},
		{"10 001 analyses", string(src) + strings.Repeat("\n[[analysis]]", 10_001), "more than 10000 keys"},
		{"10 001 keys", rep(10_001, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }) + string(src), "more than 10000 keys"},
		{"a key of 300 bytes", strings.Repeat("k", 300) + " = 1\n" + string(src), "a key of 300 bytes"},
		{"deep keys, many", rep(1000, func(i int) string { return fmt.Sprintf("%sk%d = 1\n", strings.Repeat("a.", 30), i) }) + string(src), "the keys nest too deep for their number"},
		{"a raw escape byte", "title = \"\x1b[2J\"\n" + string(src), "control characters"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParsePlan(systems.Default, "p.toml", []byte(c.src))
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		checkPlanRefusal(t, c.name, "p.toml", err)
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
		if got, limit := after.TotalAlloc-before.TotalAlloc, 8*uint64(len(c.src))+32<<20; got > limit {
			t.Errorf("%s: allocated %d bytes (limit %d)", c.name, got, limit)
		}
	}
}
