package notation

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Text written in another dice language's style fails with its usual
// message and a pointer to the section of docs/translating.md for that
// language, on the same line; everything else keeps its message as it
// was.
func TestForeignSyntaxHint(t *testing.T) {
	t.Parallel()
	const (
		anydice = " — this looks like AnyDice syntax: see docs/translating.md#anydice"
		troll   = " — this looks like Troll syntax: see docs/translating.md#troll"
		chat    = " — this looks like a Roll20 or Foundry chat roll: write the dice alone (4d6kh3, not /r 4d6kh3 or [[4d6kh3]]); see docs/translating.md#foundry-vtt-and-roll20"
	)
	for _, c := range []struct{ src, err string }{
		// AnyDice
		{"output 3d6", `line 1, column 8: AnyDice's output is not needed: oddsmith prints the distribution of the expression itself, so leave output out` + anydice},
		// A message that names the construct and its row (hints.go)
		// gets no second pointer.
		{"[highest 3 of 4d6]", `line 1, column 1: AnyDice's function call [highest 3 of 4d6] is not supported: write highest(4d6, 3) or 4d6kh3 (docs/translating.md#anydice)`},
		{"output [highest 3 of 4d6]", `line 1, column 8: AnyDice's output is not needed: oddsmith prints the distribution of the expression itself, so leave output out; AnyDice's function call [highest 3 of 4d6] is not supported: write highest(4d6, 3) or 4d6kh3 (docs/translating.md#anydice)`},
		{"[lowest 1 of 3d6]", `line 1, column 1: AnyDice's function call [lowest 1 of 3d6] is not supported: write lowest(3d6) or 3d6kl (docs/translating.md#anydice)`},
		{"d20 + [count {5,6} in 8d6]", `line 1, column 7: AnyDice's function call [count {5,6} in 8d6] is not supported: write count(8d6 >= 5) (docs/translating.md#anydice)`},
		{"function: double X:n { result: 2*X }", `line 1, column 9: expected an operator or the end of the expression, found ":"` + anydice},
		{"3d6 named \"damage\"", `line 1, column 5: expected an operator or the end of the expression, found "named"` + anydice},
		{"1@3d6", `line 1, column 2: expected an operator or the end of the expression, found "@"` + anydice},
		{"X: 4d6", `line 1, column 2: expected an operator or the end of the expression, found ":"` + anydice},
		{"loop N over {1..3} { output Nd6 }", `line 1, column 6: expected an operator or the end of the expression, found "N"` + anydice},
		{"set \"explode depth\" to 3", `line 1, column 5: expected an operator or the end of the expression, found "\""` + anydice},
		// Troll
		{"sum largest 3 4d6", `line 1, column 5: expected an operator or the end of the expression, found "largest"` + troll},
		{"largest 3 4d6", `line 1, column 9: expected an operator or the end of the expression, found "3"` + troll},
		{"max 2d20", `line 1, column 5: expected an operator or the end of the expression, found "2"` + troll},
		{"min 3d6", `line 1, column 5: expected an operator or the end of the expression, found "3"` + troll},
		{"count 5<=8d10", `line 1, column 7: expected an operator or the end of the expression, found "5"` + troll},
		{"count different 5d6", `line 1, column 7: expected an operator or the end of the expression, found "different"` + troll},
		{"sum (accumulate x:=d10 while x=10)", `line 1, column 17: expected "," or ")" in the arguments of sum at line 1, column 5, found "x"` + troll},
		{"accumulate x := d6 while x=6", `line 1, column 12: expected an operator or the end of the expression, found "x"` + troll},
		{"repeat x:=d6 until x>2", `line 1, column 8: expected an operator or the end of the expression, found "x"` + troll},
		{"X := d20", `line 1, column 3: expected an operator or the end of the expression, found ":"` + troll},
		{"x := d20; x", `line 1, column 3: expected an operator or the end of the expression, found ":"` + troll},
		{"choose {1,1,2,3,5,8}", `line 1, column 8: expected an operator or the end of the expression, found "{"` + troll},
		// Roll20 and Foundry chat
		{"/r 4d6kh3", `line 1, column 1: expected an expression, found "/"` + chat},
		{"/roll 1d20+5", `line 1, column 1: expected an expression, found "/"` + chat},
		{"[[1d20+5]]", `line 1, column 1: expected an expression, found "["` + chat},
		// No hint: ordinary mistakes, and names that only resemble the
		// other languages' words.
		{"4d6 +", "line 1, column 6: expected an expression, found end of input"},
		{"hihgest(3d6)", `line 1, column 1: unknown function "hihgest" — did you mean "highest"?`},
		{"d20 + bonus >= tn x", `line 1, column 19: expected an operator or the end of the expression, found "x"`},
		{"outputs 3", `line 1, column 9: expected an operator or the end of the expression, found "3"`},
		{"maximum 2", `line 1, column 9: expected an operator or the end of the expression, found "2"`},
		{"summary x", `line 1, column 9: expected an operator or the end of the expression, found "x"`},
		{"count(8d6 >= 5) 1", `line 1, column 17: expected an operator or the end of the expression, found "1"`},
	} {
		_, err := Parse(c.src)
		if err == nil {
			t.Errorf("Parse(%q) succeeded; want %s", c.src, c.err)
			continue
		}
		if got := err.Error(); got != c.err {
			t.Errorf("Parse(%q):\n  got  %s\n  want %s", c.src, got, c.err)
		}
		if strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("Parse(%q): the message is not one line", c.src)
		}
	}
	// What parses here gets no hint, however foreign its words look: the
	// hint is only ever added to a failure.
	for _, src := range []string{"sum (4d6)", "max (1, 2)", "count (8d6 >= 5)", "output + 1", "different", "named"} {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}

// Every section a hint points to exists in docs/translating.md.
func TestForeignSyntaxHintAnchors(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/translating.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#+ (.+)$`).FindAllStringSubmatch(string(doc), -1) {
		anchors[headingAnchor(m[1])] = true
	}
	for _, f := range foreignForms {
		if !anchors[f.anchor] {
			t.Errorf("the hint for %q points to docs/translating.md#%s, which has no such heading", f.looks, f.anchor)
		}
	}
}

// headingAnchor is GitHub's anchor of a heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestForeignPrefilter: the quick tests never skip a text the regexps
// match (every example and bad input of the tests, and variants).
func TestForeignPrefilter(t *testing.T) {
	var srcs []string
	for _, c := range examples {
		srcs = append(srcs, c.src)
	}
	for _, c := range badInputs {
		srcs = append(srcs, c.src)
	}
	srcs = append(srcs, "/r 4d6", "[[1d20]]", "output 3d6", "[highest 3 of 4d6]", "function: x", `named "a"`, "loop X over {1..3}", `set "a" to 3`, "1@3d6", "X: 4d6",
		"x := d20", "accumulate x", "repeat x", "foreach x", "sum largest 3 4d6", "count 5<=8d10", "max 2d20", "min\t3d6", "maximal {1}", "median 3d6", "choose {1,2}", "pick 2 {1}", "count different 5d6")
	for _, src := range srcs {
		for _, f := range foreignForms {
			if f.re.MatchString(src) && !f.may(src) {
				t.Errorf("%q matches %s's form, but its quick test skips it", src, f.anchor)
			}
		}
	}
}
