package notation

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	wantErr := func(name, src, msg string) {
		t.Helper()
		_, err := Parse(src)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v; want one containing %q", name, err, msg)
		}
	}
	wantErr("long source", strings.Repeat("1+", MaxSourceLen/2)+"1", "the expression is too long: 65537 bytes, the limit is 65536")
	deep := "nested too deeply (more than 200 levels)"
	wantErr("parentheses", strings.Repeat("(", 300)+"1"+strings.Repeat(")", 300), deep)
	wantErr("negations", strings.Repeat("-", 300)+"1", deep)
	wantErr("nots", strings.Repeat("not ", 300)+"a", deep)
	wantErr("ifs", strings.Repeat("if a then 1 else ", 300)+"1", deep)
	wantErr("calls", strings.Repeat("abs(", 300)+"1"+strings.Repeat(")", 300), deep)
	wantErr("dice counts", strings.Repeat("(", 300)+"1"+strings.Repeat(")d6", 300), deep)
	wantErr("dice sides", strings.Repeat("d(", 300)+"6"+strings.Repeat(")", 300), deep)
	wantErr("explode limits", strings.Repeat("d6!{", 300)+"1"+strings.Repeat("}", 300), deep)
	wantErr("hostile opening brackets", strings.Repeat("(", MaxSourceLen), deep)
	wantErr("integer", "9223372036854775808", "too large")
	wantErr("dice count", "9223372036854775808d6", "too large")
	wantErr("sides", "d9223372036854775808", "too large")
	wantErr("decimal places", "1.0000000000000000001", "more than 18 digits after the point")

	// Just inside the limits.
	ok := func(name, src string) {
		t.Helper()
		start := time.Now()
		e, err := Parse(src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: parsing took %v", name, d)
		}
		_ = String(e)
		_ = Names(e)
	}
	ok("nesting 199", strings.Repeat("(", 199)+"1"+strings.Repeat(")", 199))
	ok("longest source", strings.Repeat("1+", MaxSourceLen/2-1)+"1")
	ok("long chain of dice", strings.Repeat("d6+", MaxSourceLen/3-1)+"1")
	ok("long name", strings.Repeat("a", MaxSourceLen))
	ok("big lookup", "lookup(x, {"+cases(5000)+"})")
	ok("many lines", strings.Repeat("a +\n", MaxSourceLen/4-1)+"a")
	ok("the largest integer", "9223372036854775807d9223372036854775807kh9223372036854775807")

	// A long line of non-ASCII text before an error is still quick.
	start := time.Now()
	Parse(strings.Repeat("é", MaxSourceLen/2))
	if d := time.Since(start); d > time.Second {
		t.Errorf("non-ASCII took %v", d)
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
