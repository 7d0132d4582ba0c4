package notation

import (
	"strconv"
	"strings"
	"testing"
)

// maxWorkPerByte bounds the parser's work (see parser.work) per byte of
// source: every byte is read a few times at most. A parser that scans
// again what it has scanned, or counts columns from the start of a line
// for every node, reads some bytes thousands of times on the inputs below.
const maxWorkPerByte = 4

// checkWork fails when parsing src took more than maxWorkPerByte reads a
// byte (and a few for an empty source).
func checkWork(t *testing.T, src string, work int) {
	t.Helper()
	if limit := maxWorkPerByte*len(src) + 16; work > limit {
		t.Errorf("parsing %d bytes read %d (at most %d allowed): the parser reads some bytes again and again", len(src), work, limit)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	deep := "nested too deeply (more than 200 levels)"
	for _, c := range []struct{ name, src, msg string }{
		{"long source", strings.Repeat("1+", MaxSourceLen/2) + "1", "the expression is too long: 65537 bytes, the limit is 65536"},
		{"parentheses", strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), deep},
		{"negations", strings.Repeat("-", 300) + "1", deep},
		{"nots", strings.Repeat("not ", 300) + "a", deep},
		{"ifs", strings.Repeat("if a then 1 else ", 300) + "1", deep},
		{"calls", strings.Repeat("abs(", 300) + "1" + strings.Repeat(")", 300), deep},
		{"dice counts", strings.Repeat("(", 300) + "1" + strings.Repeat(")d6", 300), deep},
		{"dice sides", strings.Repeat("d(", 300) + "6" + strings.Repeat(")", 300), deep},
		{"explode limits", strings.Repeat("d6!{", 300) + "1" + strings.Repeat("}", 300), deep},
		{"hostile opening brackets", strings.Repeat("(", MaxSourceLen), deep},
		{"integer", "9223372036854775808", "too large"},
		{"dice count", "9223372036854775808d6", "too large"},
		{"sides", "d9223372036854775808", "too large"},
		{"decimal places", "1.0000000000000000001", "more than 18 digits after the point"},
		// Non-ASCII text before an error: its column is counted rune by
		// rune, once.
		{"non-ASCII", strings.Repeat("é", MaxSourceLen/2), `expected an expression, found "é"`},
		{"non-ASCII after a long line", strings.Repeat("a + ", MaxSourceLen/8) + "é", "line 1, column 32769"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, work, err := parse(c.src)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v; want one containing %q", err, c.msg)
			}
			checkWork(t, c.src, work)
		})
	}
}

// TestWithinLimits: sources just inside the limits parse, reading each
// byte a few times at most, and the trees print and list their names.
func TestWithinLimits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, src string }{
		{"nesting 199", strings.Repeat("(", 199) + "1" + strings.Repeat(")", 199)},
		{"longest source", strings.Repeat("1+", MaxSourceLen/2-1) + "1"},
		{"long chain of dice", strings.Repeat("d6+", MaxSourceLen/3-1) + "1"},
		{"long name", strings.Repeat("a", MaxSourceLen)},
		{"big lookup", "lookup(x, {" + cases(5000) + "})"},
		{"many lines", strings.Repeat("a +\n", MaxSourceLen/4-1) + "a"},
		{"many spaces", strings.Repeat(" ", MaxSourceLen-1) + "1"},
		{"many modifiers", strings.Repeat("4d6kh3r1!cs>=5cf1 + ", 3000) + "1"},
		{"the largest integer", "9223372036854775807d9223372036854775807kh9223372036854775807"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, work, err := parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			checkWork(t, c.src, work)
			if String(e) == "" {
				t.Error("prints as nothing")
			}
			_ = Names(e)
		})
	}
}

func cases(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": 1, ")
	}
	return b.String()
}
