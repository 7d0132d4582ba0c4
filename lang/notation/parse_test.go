package notation

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/suggest"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// examples: every construct, as written, as String prints it, and as the
// tree the compiler sees.
var examples = []struct{ src, canon, tree string }{
	// numbers and names
	{"7", "7", "7"},
	{"0", "0", "0"},
	{"007", "7", "7"},
	{"0.5", "0.5", "1/2"},
	{"2.50", "2.5", "5/2"},
	{"0.125", "0.125", "1/8"},
	{"3.000", "3", "3"},
	{"0.000000000000000001", "0.000000000000000001", "1/1000000000000000000"},
	{"9223372036854775807", "9223372036854775807", "9223372036854775807"},
	{"bonus", "bonus", "bonus"},
	{"_x1", "_x1", "_x1"},
	{"damage", "damage", "damage"},
	{"dex + dc", "dex + dc", "(+ dex dc)"},
	{"d", "d", "d"},
	{"max", "max", "max"},

	// comments and labels
	{"3d6 # fire damage", "3d6", "(dice 3 6)"},
	{"# a comment\n3d6", "3d6", "(dice 3 6)"},
	{"3d6#>=5 # hits", "3d6#>=5", "(dice 3 6 (success >=5))"},
	{"2d6[Fire] + 1d4[Cold]", "2d6[Fire] + 1d4[Cold]", "(+ (dice 2 6) (dice 1 4))"},
	{"(d6 + 1)[x y] * 2", "(d6 + 1) * 2", "(* (+ (dice _ 6) 1) 2)"},
	{"4d6kh3[best] # c", "4d6kh3[best]", "(dice 4 6 (keep high 3))"},

	// powers
	{"3d20^2", "3d20 ^ 2", "(^ (dice 3 20) 2)"},
	{"2 ** 3", "2 ^ 3", "(^ 2 3)"},
	{"-2^2", "-2 ^ 2", "(neg (^ 2 2))"},
	{"(-2)^2", "(-2) ^ 2", "(^ (neg 2) 2)"},
	{"2^3^2", "2 ^ 3 ^ 2", "(^ 2 (^ 3 2))"},
	{"(2^3)^2", "(2 ^ 3) ^ 2", "(^ (^ 2 3) 2)"},
	{"2 * d6^2", "2 * d6 ^ 2", "(* 2 (^ (dice _ 6) 2))"},
	{"2^-1", "2 ^ -1", "(^ 2 (neg 1))"},
	{"d6[x]^2", "d6[x] ^ 2", "(^ (dice _ 6) 2)"},

	// dice
	{"dF.1", "d{-1, 0, 0, 0, 0, 1}", "(dice _ {-1 0 0 0 0 1})"},
	{"4dF.2kh2", "4dFkh2", "(dice 4 F (keep high 2))"},
	{"d6", "d6", "(dice _ 6)"},
	{"1d6", "1d6", "(dice 1 6)"},
	{"3d6", "3d6", "(dice 3 6)"},
	{"10d10", "10d10", "(dice 10 10)"},
	{"0d6", "0d6", "(dice 0 6)"},
	{"d%", "d%", "(dice _ %)"},
	{"2d%", "2d%", "(dice 2 %)"},
	{"dF", "dF", "(dice _ F)"},
	{"4dF", "4dF", "(dice 4 F)"},
	{"d{1,1,2,3,5,8}", "d{1, 1, 2, 3, 5, 8}", "(dice _ {1 1 2 3 5 8})"},
	{"2d{ -1, 0,0.5 ,}", "2d{-1, 0, 0.5}", "(dice 2 {-1 0 1/2})"},
	{"(skill)d6", "(skill)d6", "(dice skill 6)"},
	{"(n+1)d6", "(n + 1)d6", "(dice (+ n 1) 6)"},
	{"(2)d6", "2d6", "(dice 2 6)"},
	{"( n )d( s )", "(n)d(s)", "(dice n s)"},
	{"d(s)", "d(s)", "(dice _ s)"},
	{"2d(6)", "2d6", "(dice 2 6)"},
	{"(1d4)d6", "(1d4)d6", "(dice (dice 1 4) 6)"},
	{"d(d6)", "d(d6)", "(dice _ (dice _ 6))"},

	// keep and drop
	{"4d6kh3", "4d6kh3", "(dice 4 6 (keep high 3))"},
	{"4d6k3", "4d6kh3", "(dice 4 6 (keep high 3))"},
	{"2d20kh", "2d20kh", "(dice 2 20 (keep high _))"},
	{"2d20k", "2d20kh", "(dice 2 20 (keep high _))"},
	{"2d20kl", "2d20kl", "(dice 2 20 (keep low _))"},
	{"3d20kl1", "3d20kl1", "(dice 3 20 (keep low 1))"},
	{"4d6dl1", "4d6dl1", "(dice 4 6 (drop low 1))"},
	{"4d6d1", "4d6dl1", "(dice 4 6 (drop low 1))"},
	{"4d6d", "4d6dl", "(dice 4 6 (drop low _))"},
	{"4d6dh", "4d6dh", "(dice 4 6 (drop high _))"},
	{"5d6dh2", "5d6dh2", "(dice 5 6 (drop high 2))"},
	{"(n)d6kh(k)", "(n)d6kh(k)", "(dice n 6 (keep high k))"},
	{"6d6kh(3)", "6d6kh3", "(dice 6 6 (keep high 3))"},
	{"4d6khdl", "4d6khdl", "(dice 4 6 (keep high _) (drop low _))"},

	// explode, compound, bursting
	{"2d6!", "2d6!", "(dice 2 6 (explode limit _))"},
	{"d6!>=5", "d6!>=5", "(dice _ 6 (explode >=5 limit _))"},
	{"d6!>5", "d6!>5", "(dice _ 6 (explode >5 limit _))"},
	{"d6!=5", "d6!5", "(dice _ 6 (explode ==5 limit _))"},
	{"d6!5", "d6!5", "(dice _ 6 (explode ==5 limit _))"},
	{"d6!<=2", "d6!<=2", "(dice _ 6 (explode <=2 limit _))"},
	{"d6!<2", "d6!<2", "(dice _ 6 (explode <2 limit _))"},
	{"2d10!{3}", "2d10!{3}", "(dice 2 10 (explode limit 3))"},
	{"2d10!>=9{ n }", "2d10!>=9{n}", "(dice 2 10 (explode >=9 limit n))"},
	{"5d6!!", "5d6!!", "(dice 5 6 (compound limit _))"},
	{"5d6!!>=5", "5d6!!>=5", "(dice 5 6 (compound >=5 limit _))"},
	{"5d6!!{2}", "5d6!!{2}", "(dice 5 6 (compound limit 2))"},
	{"5d10!ekh2", "5d10!ekh2", "(dice 5 10 (explode-each limit _) (keep high 2))"},
	{"6d6!e>=5{2}kh3", "6d6!e>=5{2}kh3", "(dice 6 6 (explode-each >=5 limit 2) (keep high 3))"},
	{"4d6!edl1cs>=5", "4d6!edl1cs>=5", "(dice 4 6 (explode-each limit _) (drop low 1) (success >=5))"},
	{"dF!=-1", "dF!=-1", "(dice _ F (explode ==-1 limit _))"},
	{"d6!p", "d6!p", "(dice _ 6 (explode-penetrate limit _))"},
	{"3d6!p>=5{3}", "3d6!p>=5{3}", "(dice 3 6 (explode-penetrate >=5 limit 3))"},
	{"d6!p=5", "d6!p5", "(dice _ 6 (explode-penetrate ==5 limit _))"},
	{"d6!!p{2}", "d6!!p{2}", "(dice _ 6 (compound-penetrate limit 2))"},
	{"d6!p<3kh1", "d6!p<3kh1", "(dice _ 6 (explode-penetrate <3 limit _) (keep high 1))"},
	{"d6!p-1", "d6!p - 1", "(- (dice _ 6 (explode-penetrate limit _)) 1)"},
	{"d6!(t)", "d6!(t)", "(dice _ 6 (explode ==t limit _))"},
	{"d6!>=(t + 1)", "d6!>=(t + 1)", "(dice _ 6 (explode >=(+ t 1) limit _))"},
	{"d6!-1", "d6! - 1", "(- (dice _ 6 (explode limit _)) 1)"},
	{"2d6! != 7", "2d6! != 7", "(!= (dice 2 6 (explode limit _)) 7)"},
	{"4d6!kh3", "4d6!kh3", "(dice 4 6 (explode limit _) (keep high 3))"},
	{"5d10!>=8{2 in all}", "5d10!>=8{2 in all}", "(dice 5 10 (explode >=8 limit _ in all 2))"},
	{"5d10!>=8{ 1 ,2 in  all }cs>=8", "5d10!>=8{1, 2 in all}cs>=8", "(dice 5 10 (explode >=8 limit 1 in all 2) (success >=8))"},
	{"3d6!{n in all}", "3d6!{n in all}", "(dice 3 6 (explode limit _ in all n))"},
	{"3d6!p{(k + 1) in all}", "3d6!p{k + 1 in all}", "(dice 3 6 (explode-penetrate limit _ in all (+ k 1)))"},

	// rerolls
	{"5d6r1", "5d6r1", "(dice 5 6 (reroll ==1))"},
	{"5d6r=1", "5d6r1", "(dice 5 6 (reroll ==1))"},
	{"5d6r<=2", "5d6r<=2", "(dice 5 6 (reroll <=2))"},
	{"5d6ro<3", "5d6ro<3", "(dice 5 6 (reroll-once <3))"},
	{"5d6ro", "5d6ro", "(dice 5 6 (reroll-once))"},
	{"5d6r", "5d6r", "(dice 5 6 (reroll))"},
	{"5d6r1r2", "5d6r1r2", "(dice 5 6 (reroll ==1) (reroll ==2))"},
	{"4dFr<-0", "4dFr<0", "(dice 4 F (reroll <0))"},
	{"4dFr<-1", "4dFr<-1", "(dice 4 F (reroll <-1))"},
	{"4d6r1d1", "4d6r1dl1", "(dice 4 6 (reroll ==1) (drop low 1))"},
	{"4d6r1.5", "4d6r1.5", "(dice 4 6 (reroll ==3/2))"},
	{"4d6r(-1)", "4d6r(-1)", "(dice 4 6 (reroll ==(neg 1)))"},

	// counting successes and failures
	{"8d10cs>=7", "8d10cs>=7", "(dice 8 10 (success >=7))"},
	{"8d10#>=7", "8d10#>=7", "(dice 8 10 (success >=7))"},
	{"8d10#7", "8d10#7", "(dice 8 10 (success ==7))"},
	{"8d10cs>7cf1", "8d10cs>7cf1", "(dice 8 10 (success >7) (fail ==1))"},
	{"8d10cs", "8d10cs", "(dice 8 10 (success))"},
	{"8d10cf", "8d10cf", "(dice 8 10 (fail))"},
	{"8d10cscf", "8d10cscf", "(dice 8 10 (success) (fail))"},
	{"8d10>7", "8d10 > 7", "(> (dice 8 10) 7)"},

	// arithmetic
	{"1+2", "1 + 2", "(+ 1 2)"},
	{"a - b - c", "a - b - c", "(- (- a b) c)"},
	{"a - (b - c)", "a - (b - c)", "(- a (- b c))"},
	{"a*b/c", "a * b / c", "(/ (* a b) c)"},
	{"a/(b*c)", "a / (b * c)", "(/ a (* b c))"},
	{"7 // 2", "7 // 2", "(// 7 2)"},
	{"7 % 2", "7 % 2", "(% 7 2)"},
	{"d%%10", "d% % 10", "(% (dice _ %) 10)"},
	{"d% // 10", "d% // 10", "(// (dice _ %) 10)"},
	{"-x", "-x", "(neg x)"},
	{"- - x", "-(-x)", "(neg (neg x))"},
	{"-(-3)", "-(-3)", "(neg (neg 3))"},
	{"x - -3", "x - -3", "(- x (neg 3))"},
	{"-2d6", "-2d6", "(neg (dice 2 6))"},
	{"-(a+b)", "-(a + b)", "(neg (+ a b))"},
	{"((((x))))", "x", "x"},
	{"2 * (d6 + 1)", "2 * (d6 + 1)", "(* 2 (+ (dice _ 6) 1))"},

	// functions
	{"floor(x / 2)", "floor(x / 2)", "(call floor (/ x 2))"},
	{"ceil(x)", "ceil(x)", "(call ceil x)"},
	{"round(x)", "round(x)", "(call round x)"},
	{"abs(a - b)", "abs(a - b)", "(call abs (- a b))"},
	{"min(a, b)", "min(a, b)", "(call min a b)"},
	{"max(a, b, 3)", "max(a, b, 3)", "(call max a b 3)"},
	{"clamp(x, 0, 10)", "clamp(x, 0, 10)", "(call clamp x 0 10)"},
	{"max (a,b)", "max(a, b)", "(call max a b)"},

	// pools
	{"highest(5d6)", "highest(5d6)", "(call highest (dice 5 6))"},
	{"highest(pool, 3)", "highest(pool, 3)", "(call highest pool 3)"},
	{"lowest(4d6!, n)", "lowest(4d6!, n)", "(call lowest (dice 4 6 (explode limit _)) n)"},
	{"sum(pool)", "sum(pool)", "(call sum pool)"},
	{"count(pool == highest(pool))", "count(pool == highest(pool))", "(call count (filter pool == (call highest pool)))"},
	{"count(5d6 >= 5)", "count(5d6 >= 5)", "(call count (filter (dice 5 6) >= 5))"},
	{"all(pool == 1)", "all(pool == 1)", "(call all (filter pool == 1))"},
	{"any(pool == 6)", "any(pool == 6)", "(call any (filter pool == 6))"},
	{"any((pool != 6))", "any(pool != 6)", "(call any (filter pool != 6))"},
	{"count(pool > x + 1)", "count(pool > x + 1)", "(call count (filter pool > (+ x 1)))"},
	{"distinct(pool)", "distinct(pool)", "(call distinct pool)"},
	{"largest_set(6d6)", "largest_set(6d6)", "(call largest_set (dice 6 6))"},
	{"straight(5d6)", "straight(5d6)", "(call straight (dice 5 6))"},
	{"count(pool >= 5) >= 2", "count(pool >= 5) >= 2", "(>= (call count (filter pool >= 5)) 2)"},

	// comparisons and logic
	{"nat + bonus >= tn", "nat + bonus >= tn", "(>= (+ nat bonus) tn)"},
	{"a == b", "a == b", "(== a b)"},
	{"a != b", "a != b", "(!= a b)"},
	{"a < b", "a < b", "(< a b)"},
	{"a <= b", "a <= b", "(<= a b)"},
	{"a > b", "a > b", "(> a b)"},
	{"a>=b", "a >= b", "(>= a b)"},
	{"(a < b) < c", "(a < b) < c", "(< (< a b) c)"},
	{"a and b or c", "a and b or c", "(or (and a b) c)"},
	{"a or b and c", "a or b and c", "(or a (and b c))"},
	{"(a or b) and c", "(a or b) and c", "(and (or a b) c)"},
	{"not a", "not a", "(not a)"},
	{"not not a", "not not a", "(not (not a))"},
	{"not a == b", "not a == b", "(not (== a b))"},
	{"not a and b", "not a and b", "(and (not a) b)"},
	{"not (a and b)", "not (a and b)", "(not (and a b))"},
	{"(not a) == b", "(not a) == b", "(== (not a) b)"},
	{"a == (not b)", "a == (not b)", "(== a (not b))"},

	// if
	{"if a then b else c", "if a then b else c", "(if a b c)"},
	{"if a then 1 else if b then 2 else 3", "if a then 1 else if b then 2 else 3", "(if a 1 (if b 2 3))"},
	{"if a then if b then 1 else 2 else 3", "if a then (if b then 1 else 2) else 3", "(if a (if b 1 2) 3)"},
	{"if if a then b else c then 1 else 2", "if (if a then b else c) then 1 else 2", "(if (if a b c) 1 2)"},
	{"if a then b else c + 1", "if a then b else c + 1", "(if a b (+ c 1))"},
	{"(if a then b else c) + 1", "(if a then b else c) + 1", "(+ (if a b c) 1)"},
	{"1 + (if a then 2 else 3)", "1 + (if a then 2 else 3)", "(+ 1 (if a 2 3))"},
	{"max(if a then 1 else 2, 3)", "max(if a then 1 else 2, 3)", "(call max (if a 1 2) 3)"},
	{"if d20 == 20 then 2d8 else 1d8", "if d20 == 20 then 2d8 else 1d8", "(if (== (dice _ 20) 20) (dice 2 8) (dice 1 8))"},

	// lookup
	{"lookup(x, {1..3: 1d6, 4..9: 2d6, 10..: 3d6})", "lookup(x, {1..3: 1d6, 4..9: 2d6, 10..: 3d6})",
		"(lookup x [1..3 (dice 1 6)] [4..9 (dice 2 6)] [10.. (dice 3 6)])"},
	{"lookup(x, {..0: 0, 1: 1, 2..: 2})", "lookup(x, {..0: 0, 1: 1, 2..: 2})", "(lookup x [..0 0] [1..1 1] [2.. 2])"},
	{"lookup(x, {5..5: a, _: b})", "lookup(x, {5: a, _: b})", "(lookup x [5..5 a] [_ b])"},
	{"lookup(x, {-2..-1: a, else: b,})", "lookup(x, {-2..-1: a, _: b})", "(lookup x [-2..-1 a] [_ b])"},
	{"lookup(x, { _ : 0 })", "lookup(x, {_: 0})", "(lookup x [_ 0])"},
	{"lookup(2d6, {2: if a then 1 else 0, 3 .. 12: 1})", "lookup(2d6, {2: if a then 1 else 0, 3..12: 1})",
		"(lookup (dice 2 6) [2..2 (if a 1 0)] [3..12 1])"},
	{"lookup(x, {-9223372036854775808..0: 1})", "lookup(x, {-9223372036854775808..0: 1})", "(lookup x [-9223372036854775808..0 1])"},

	// layout: spaces, tabs and line breaks between tokens
	{"lookup(x, {\n  1..3: 1d6,\n  4..: 2d6,\n})", "lookup(x, {1..3: 1d6, 4..: 2d6})", "(lookup x [1..3 (dice 1 6)] [4.. (dice 2 6)])"},
	{"\t a\r\n+\tb ", "a + b", "(+ a b)"},
}

func TestParseExamples(t *testing.T) {
	t.Parallel()
	for _, c := range examples {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(c.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", c.src, err)
			}
			if got := String(e); got != c.canon {
				t.Errorf("String(Parse(%q)) = %q; want %q", c.src, got, c.canon)
			}
			if got := tree(e); got != c.tree {
				t.Errorf("tree(Parse(%q)) =\n  %s; want\n  %s", c.src, got, c.tree)
			}
			if got := e.String(); got != String(e) {
				t.Errorf("%q: method String %q differs from String", c.src, got)
			}
			roundTrip(t, c.src)
			roundTrip(t, c.canon)
		})
	}
}

// TestPrecedence checks the table in the package doc, level by level.
func TestPrecedence(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		// dice bind tightest
		"2d6*2":     "(* (dice 2 6) 2)",
		"2*2d6":     "(* 2 (dice 2 6))",
		"-d6":       "(neg (dice _ 6))",
		"2d6+1d4+3": "(+ (+ (dice 2 6) (dice 1 4)) 3)",
		"4d6kh3*2":  "(* (dice 4 6 (keep high 3)) 2)",
		// negation above * / // %
		"-a*b":    "(* (neg a) b)",
		"-a//b":   "(// (neg a) b)",
		"a*-b":    "(* a (neg b))",
		"-a-b":    "(- (neg a) b)",
		"-abs(x)": "(neg (call abs x))",
		// * / // % above + -, left-associative
		"a+b*c":    "(+ a (* b c))",
		"a*b+c":    "(+ (* a b) c)",
		"a/b*c":    "(* (/ a b) c)",
		"a%b//c/d": "(/ (// (% a b) c) d)",
		"a-b+c":    "(+ (- a b) c)",
		// + - above comparisons
		"a+1>=b-1": "(>= (+ a 1) (- b 1))",
		// comparisons above not
		"not a<b": "(not (< a b))",
		// not above and, and above or
		"not a and not b or c": "(or (and (not a) (not b)) c)",
		"a or b or c":          "(or (or a b) c)",
		"a and b and c":        "(and (and a b) c)",
		// if lowest
		"if a or b then c and d else e or f": "(if (or a b) (and c d) (or e f))",
		"if a then b else c == d":            "(if a b (== c d))",
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", src, err)
			}
			if got := tree(e); got != want {
				t.Errorf("%q parses as %s; want %s", src, got, want)
			}
			roundTrip(t, src)
		})
	}
}

func TestPositions(t *testing.T) {
	t.Parallel()
	src := "a +\n  4d6kh3 >= é"
	if _, err := Parse(src); err == nil {
		t.Fatal("é parsed")
	} else if got := err.Error(); got != `line 2, column 13: expected an expression, found "é"` {
		t.Errorf("error %q", got)
	}
	e, err := Parse("a +\n  4d6kh3 >= tn")
	if err != nil {
		t.Fatal(err)
	}
	cmp := e.(*Compare)
	sum := cmp.X.(*Binary)
	d := sum.Y.(*Dice)
	for _, c := range []struct {
		name      string
		got, want Pos
	}{
		{"compare", cmp.Pos(), Pos{1, 1, 0}},
		{">=", cmp.OpAt, Pos{2, 10, 13}},
		{"+", sum.OpAt, Pos{1, 3, 2}},
		{"dice", d.Pos(), Pos{2, 3, 6}},
		{"count", d.Count.Pos(), Pos{2, 3, 6}},
		{"sides", d.Sides.Pos(), Pos{2, 5, 8}},
		{"kh", d.Mods[0].Pos(), Pos{2, 6, 9}},
		{"kh count", d.Mods[0].(*Keep).Count.Pos(), Pos{2, 8, 11}},
		{"tn", cmp.Y.Pos(), Pos{2, 13, 16}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s at %+v; want %+v", c.name, c.got, c.want)
			}
		})
	}
	// Columns count characters, not bytes.
	_, err = Parse("é")
	if err == nil || err.Error() != `line 1, column 1: expected an expression, found "é"` {
		t.Errorf("é: %v", err)
	}
	_, err = Parse("a+é+ü")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Pos != (Pos{1, 3, 2}) {
		t.Errorf("a+é+ü: %v", err)
	}
	e, _ = Parse("lookup(x, {1..2: a, -3: b})")
	lk := e.(*Lookup)
	if lk.Cases[1].At != (Pos{1, 21, 20}) {
		t.Errorf("case at %+v", lk.Cases[1].At)
	}
	e, _ = Parse("d{1, -2}r<-3")
	d = e.(*Dice)
	if d.Faces[1].At != (Pos{1, 6, 5}) || d.Mods[0].(*Reroll).Cond.At != (Pos{1, 10, 9}) || d.Mods[0].(*Reroll).Cond.Value.Pos() != (Pos{1, 11, 10}) {
		t.Errorf("faces/cond positions %+v %+v %+v", d.Faces[1].At, d.Mods[0].(*Reroll).Cond.At, d.Mods[0].(*Reroll).Cond.Value.Pos())
	}
}

func TestNumbers(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]expr.Rat{
		"0.5": expr.Frac(1, 2), "12.75": expr.Frac(51, 4), "0.1": expr.Frac(1, 10),
		"100": expr.Int(100), "1.10": expr.Frac(11, 10),
		"922337203685477580.7":     expr.Frac(9223372036854775807, 10),
		"0.123456789012345678":     expr.Frac(123456789012345678, 1000000000000000000),
		"1.0000000000000000000000": expr.Int(1),
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(src)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if got := e.(*Num).Value; got != want {
				t.Errorf("%s = %v; want %v", src, got, want)
			}
			roundTrip(t, src)
		})
	}
}

func TestWalkAndNames(t *testing.T) {
	t.Parallel()
	e, err := Parse("if nat + bonus >= tn then (n)d6kh(k)!>=(t){lim} + lookup(x, {1: a, _: bonus}) else count(pool == highest(pool, m))")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"nat", "bonus", "tn", "n", "k", "t", "lim", "x", "a", "pool", "m"}
	if got := Names(e); !slices.Equal(got, want) {
		t.Errorf("Names = %v; want %v", got, want)
	}
	var kinds []string
	Walk(e, func(x Expr) bool {
		kinds = append(kinds, strings.TrimPrefix(reflect.TypeOf(x).String(), "*notation."))
		_, isLookup := x.(*Lookup)
		return !isLookup // do not enter the lookup
	})
	got := strings.Join(kinds, " ")
	wantKinds := "If Compare Binary Name Name Name Binary Dice Name Num Name Name Name Lookup Call Filter Name Call Name Name"
	if got != wantKinds {
		t.Errorf("Walk order:\n  %s; want\n  %s", got, wantKinds)
	}
	if Names(nil) != nil {
		t.Error("Names(nil)")
	}
	Walk(nil, func(Expr) bool { t.Error("visited nil"); return true })
	e, _ = Parse("d{1, 2}")
	n := 0
	Walk(e, func(Expr) bool { n++; return true })
	if n != 3 {
		t.Errorf("Walk visits %d nodes of d{1, 2}; want 3", n)
	}
}

func TestIsNameAndLists(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"bonus": true, "_": true, "tn2": true, "d": true, "dc": true, "damage": true, "D6": true,
		"d6": false, "dF": false, "dFoo": false, "2x": false, "": false, "a.b": false, "if": false, "not": false,
		"é": false, "a-b": false,
	} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			if got := IsName(s); got != want {
				t.Errorf("IsName(%q) = %v", s, got)
			}
		})
	}
	fs := Functions()
	if !slices.IsSorted(fs) || !slices.Contains(fs, "lookup") || !slices.Contains(fs, "largest_set") || len(fs) != 17 {
		t.Errorf("Functions() = %v", fs)
	}
	if k := Keywords(); len(k) != 6 {
		t.Errorf("Keywords() = %v", k)
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	fs := Functions()
	for name, want := range map[string]string{
		"hihgest": "highest", "higest": "highest", "Highest": "highest", "lowset": "lowest",
		"cont": "count", "lokup": "lookup", "larget_set": "largest_set", "straigth": "straight",
		"mx": "max", "abss": "abs", "clmp": "clamp", "xyz": "", "h": "", "": "",
		"highest": "", "zzzzzzzz": "",
	} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			if got := suggest.Closest(name, fs); got != want {
				t.Errorf("suggest.Closest(%q) = %q; want %q", name, got, want)
			}
		})
	}
	params := []string{"tn", "bonus", "skill", "attribute"}
	for name, want := range map[string]string{"tm": "tn", "bouns": "bonus", "skil": "skill", "atribute": "attribute", "x": ""} {
		if got := suggest.Closest(name, params); got != want {
			t.Errorf("suggest.Closest(%q, params) = %q; want %q", name, got, want)
		}
	}
	if suggest.Closest(strings.Repeat("a", 100), []string{strings.Repeat("a", 99)}) != "" {
		t.Error("long names are not compared")
	}
}

// TestHandBuilt prints trees no parse gives.
func TestHandBuilt(t *testing.T) {
	t.Parallel()
	one := &Num{Value: expr.Int(1)}
	for _, c := range []struct {
		e    Expr
		want string
	}{
		{&Num{Value: expr.Frac(1, 3)}, "(1 / 3)"},
		{&Num{Value: expr.Rat{N: 5, D: 10}}, "0.5"},
		{&Num{Value: expr.Int(-2)}, "-2"},
		{&Neg{X: &Num{Value: expr.Int(-2)}}, "-(-2)"},
		{&Num{}, "0"},
		{&Dice{Count: &Num{Value: expr.Frac(3, 2)}, Sides: &Num{Value: expr.Int(-6)}}, "(1.5)d(-6)"},
		{&Dice{Sides: one, Mods: []Mod{&Keep{Count: &Num{Value: expr.Frac(1, 2)}}, &Reroll{Cond: &Cond{Op: Ge, Value: &Name{Name: "x"}}}}}, "d1kh(0.5)r>=(x)"},
		{&Dice{Sides: one, Mods: []Mod{&CountSuccess{Cond: &Cond{Op: Eq, Value: &Neg{X: one}}}}}, "d1cs(-1)"},
		{&Lookup{X: one}, "lookup(1, {})"},
		{nil, "<nil>"},
		{&Binary{Op: Mul, X: &Binary{Op: Add, X: one, Y: one}, Y: &Neg{X: &Binary{Op: Sub, X: one, Y: one}}}, "(1 + 1) * -(1 - 1)"},
	} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			if got := String(c.e); got != c.want {
				t.Errorf("String = %q; want %q", got, c.want)
			}
		})
	}
	for _, m := range []Mod{&Keep{End: Low}, &Drop{}, &Explode{Compound: true, Limit: one}, &Reroll{Once: true}, &CountFail{}} {
		if m.String() == "" {
			t.Errorf("%T prints nothing", m)
		}
	}
	if Sided.String() != "sided" || Custom.String() != "custom" || DieKind(9).String() != "DieKind(9)" || Modulo.String() != "%" ||
		Ge.String() != ">=" || Or.String() != "or" || Low.String() != "low" || BinOp(9).String() == "" || CmpOp(9).String() == "" ||
		LogicOp(9).String() == "" || End(9).String() == "" {
		t.Error("operator names")
	}
	if (Pos{2, 3, 9}).String() != "line 2, column 3" {
		t.Error("Pos.String")
	}
}
