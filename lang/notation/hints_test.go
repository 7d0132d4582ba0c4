package notation

import (
	"strings"
	"testing"
)

// foreignInputs: constructs of Roll20, Foundry, rpg-dice-roller and
// AnyDice that oddsmith does not read, each refused by its name with the
// oddsmith expression for it where there is one (issue 26, item 4).
var foreignInputs = []struct{ src, err string }{
	// Power.
	// Comments and labels.
	{"3d6#fire", "line 1, column 5: expected a condition after \"#\", such as #>=7, found \"fire\" — # right after dice counts successes; a comment needs a space before the # (3d6 # fire)"},
	{"(3d6 # fire)", "line 1, column 13: expected \")\" to close the \"(\" at line 1, column 1, found end of input — the comment at line 1, column 6 runs to the end of its line: close the \"(\" before the #"},
	{"(3d6)#fire", "line 1, column 6: a comment needs a space before the # ((3d6) # …); a # right after dice counts successes (3d6#>=5)"},
	{"3d6 #>=5", "line 1, column 5: a # after a space starts a comment, but \"#>=5\" reads like a success count: write it right after the dice (3d6#>=5), or put words after the # of a comment"},
	{"1 + [Fire] 2", "line 1, column 5: a label such as [Fire] goes right after a term (2d6[Fire])"},
	// Fudge variants.
	{"dF.3", "line 1, column 3: dF.3: the Fudge variants are dF.1 (d{-1,0,0,0,0,1}) and dF.2 (dF)"},
	// Foundry's and Roll20's modifiers.
	{"10d10cs>=7df=1", "line 1, column 11: \"df=1\" is Foundry's deduct failures (each die meeting it takes one away): write 10d10cs>=7cf=1"},
	{"6d10xo10", "line 1, column 5: \"xo10\" is Foundry's explode once: write 6d10!{1}"},
	{"6d10xo>=9", "line 1, column 5: \"xo>=9\" is Foundry's explode once: write 6d10!>=9{1}"},
	{"2d10x", "line 1, column 5: \"x\" is Foundry's explode: write 2d10!"},
	{"5d10x>=8", "line 1, column 5: \"x>=8\" is Foundry's explode: write 5d10!>=8"},
	{"5d10x5", "line 1, column 5: \"x5\" is Foundry's explode on 5: write 5d10!5 (or --dialect foundry)"},
	{"5d10x2>=8", "line 1, column 5: \"x2>=8\" is Foundry's explode on >=8 with at most 2 explosions in the whole term: write 5d10!>=8{2 in all}"},
	{"5d10xo2>=8", "line 1, column 5: \"xo2>=8\" is Foundry's explode once on >=8 with at most 2 explosions in the whole term: write 5d10!>=8{1, 2 in all}"},
	{"10d6sf", "line 1, column 5: \"sf\" is Foundry's subtract failures (the failed dice's values are taken away), which has no equivalent yet; see docs/translating.md"},
	{"10d10cs>7f1", "line 1, column 10: \"f1\" is Roll20's failures (each die meeting it takes a success away): write 10d10cs>7cf1"},
	{"2d20m", "line 1, column 5: \"m\" is Roll20's match highlighting, which colours matching dice and changes nothing: leave it out, or write 2d20mt to count the matched sets"},
	{"6d6m>3", "line 1, column 4: \"m>3\" is Roll20's match highlighting, which colours matching dice and changes nothing: leave it out, or write 6d6mt to count the matched sets"},
	{"4d6sd", "line 1, column 4: \"sd\" sorts the dice, which does not change the distribution: leave it out (4d6)"},
	{"3d6min", "line 1, column 7: expected a number or a parenthesised expression after \"min\" (4d6min2), found end of input"},
	// AnyDice.
	{"[highest 3 of 4d6]", "line 1, column 1: AnyDice's function call [highest 3 of 4d6] is not supported: write highest(4d6, 3) or 4d6kh3 (docs/translating.md#anydice)"},
	{"[lowest 1 of 3d6]", "line 1, column 1: AnyDice's function call [lowest 1 of 3d6] is not supported: write lowest(3d6) or 3d6kl (docs/translating.md#anydice)"},
	{"[highest of d20 and d20]", "line 1, column 1: AnyDice's function call [highest of d20 and d20] is not supported: write max(d20, d20) (docs/translating.md#anydice)"},
	{"[explode d6]", "line 1, column 1: AnyDice's function call [explode d6] is not supported: AnyDice explodes at most twice: write d6!{2} (docs/translating.md#anydice)"},
	{"[count {5,6} in 8d6]", "line 1, column 1: AnyDice's function call [count {5,6} in 8d6] is not supported: write count(8d6 >= 5) (docs/translating.md#anydice)"},
	{"[count {1, 6} in 8d6]", "line 1, column 1: AnyDice's function call [count {1, 6} in 8d6] is not supported: a set that is not a run at an end of the die is several counts of one pool, named in a rule file (docs/translating.md#anydice)"},
	{"[middle 1 of 3d6]", "line 1, column 1: AnyDice's function call [middle 1 of 3d6] is not supported: the middle dice are highest(pool, n) - highest(pool, m) of one pool, named in a rule file (docs/translating.md#anydice)"},
	{"[sort 3d6]", "line 1, column 1: AnyDice's function call [sort 3d6] is not supported: see docs/translating.md#anydice for its oddsmith form"},
	{"output 3d6", "line 1, column 8: AnyDice's output is not needed: oddsmith prints the distribution of the expression itself, so leave output out — this looks like AnyDice syntax: see docs/translating.md#anydice"},
	{"output [highest 3 of 4d6]", "line 1, column 8: AnyDice's output is not needed: oddsmith prints the distribution of the expression itself, so leave output out; AnyDice's function call [highest 3 of 4d6] is not supported: write highest(4d6, 3) or 4d6kh3 (docs/translating.md#anydice)"},
}

func TestForeignConstructsTeach(t *testing.T) {
	t.Parallel()
	for _, c := range foreignInputs {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(c.src)
			if err == nil {
				t.Fatalf("Parse(%q) = %s; want an error", c.src, String(e))
			}
			if got := err.Error(); got != c.err {
				t.Errorf("Parse(%q):\n  got  %s\n  want %s", c.src, got, c.err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("Parse(%q): the message is not one line", c.src)
			}
		})
	}
}

// TestForeignSuggestionsParse: the oddsmith forms the messages suggest are
// oddsmith (the text after "write" or "is" up to the end or a bracket).
func TestForeignSuggestionsParse(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"max(4d6, 3d8)", "min(4d6, 2d6)", "(3d20 + 5 >= 21) + (2d20 >= 21)", "4d6 + 3d8", "d{-1,0,0,0,0,1}", "dF",
		"10d10cs>=7cf=1", "6d10!{1}", "6d10!>=9{1}", "2d10!", "5d10!>=8", "10d10cs>7cf1", "highest(4d6, 3)", "4d6kh3",
		"lowest(3d6)", "3d6kl", "max(d20, d20)", "d6!{2}", "count(8d6 >= 5)", "d{2,2,3,4,5,6}", "count(5d6 == 6)",
	} {
		if _, err := Parse(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestForeignHintsReadEachByteABoundedNumberOfTimes: reading a construct
// again for its message keeps parsing linear, nested or long.
func TestForeignHintsReadEachByteABoundedNumberOfTimes(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		strings.Repeat("{1, ", 150) + "2",
		"{" + strings.Repeat("d6 + ", 5000) + "1, 2}kh1r",
		strings.Repeat("[highest 3 of 4d6] ", 100),
	} {
		_, work, err := parse(src)
		if err == nil {
			t.Fatalf("%.20s…: parsed", src)
		}
		checkWork(t, src, work)
	}
}
