package notation

import "testing"

// TestBoundUniqueMatches: min/max, u/uo and mt parse right after the dice
// and print canonically; spaced or bare forms are refused.
func TestBoundUniqueMatches(t *testing.T) {
	for _, c := range []struct{ src, want, tree string }{
		{"4d6min3", "4d6min3", "(dice 4 6 (min 3))"},
		{"1d20max15", "1d20max15", "(dice 1 20 (max 15))"},
		{"4dFmin0", "4dFmin0", ""},
		{"dFmin-1", "dFmin-1", "(dice _ F (min -1))"},
		{"d20max(x)", "d20max(x)", "(dice _ 20 (max x))"},
		{"d20max(x + 1)kh", "d20max(x + 1)kh", ""},
		{"3d6u", "3d6u", "(dice 3 6 (unique))"},
		{"3d6uo", "3d6uo", "(dice 3 6 (unique-once))"},
		{"3d6u5", "3d6u5", "(dice 3 6 (unique ==5))"},
		{"3d6u=5", "3d6u5", ""},
		{"3d6uo>3kh2", "3d6uo>3kh2", ""},
		{"6d6mt", "6d6mt", "(dice 6 6 (matches _))"},
		{"5d6mt3", "5d6mt3", "(dice 5 6 (matches 3))"},
		{"5d6mt=5", "5d6mt=5", "(dice 5 6 (matches _ ==5))"},
		{"5d6mt3>=4", "5d6mt3>=4", ""},
		{"5d6mt(n)<3", "5d6mt(n)<3", ""},
		{"4d6r1min2max5", "4d6r1min2max5", ""},
	} {
		x, err := Parse(c.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.src, err)
			continue
		}
		if got := String(x); got != c.want {
			t.Errorf("String(Parse(%q)) = %q, want %q", c.src, got, c.want)
		}
		if c.tree != "" {
			if got := tree(x); got != c.tree {
				t.Errorf("tree(%q) = %s, want %s", c.src, got, c.tree)
			}
		}
		y, err := Parse(String(x))
		if err != nil || String(y) != String(x) {
			t.Errorf("%q does not read back: %v %v", String(x), y, err)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"4d6 min 3", `line 1, column 5: expected an operator or the end of the expression, found "min"`},
		{"4d6maxx", `line 1, column 7: expected a number or a parenthesised expression after "max" (4d6min2), found "x"`},
		{"4d6mtz", `line 1, column 6: unknown dice modifier "z" after "4d6mt"`},
		{"4d6m", `line 1, column 4: "m" is Roll20's match highlighting, which colours matching dice and changes nothing: leave it out, or write 4d6mt to count the matched sets`},
		{"4d6u>", `line 1, column 6: expected a number or a parenthesised expression after "u>", found end of input`},
	} {
		_, err := Parse(c.src)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %s", c.src, c.want)
			continue
		}
		if got := err.Error(); len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("Parse(%q):\n got  %s\n want %s…", c.src, got, c.want)
		}
	}
}
