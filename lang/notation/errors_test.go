package notation

import (
	"errors"
	"strings"
	"testing"
)

// badInputs: text that must not parse, with the whole message.
var badInputs = []struct{ src, err string }{
	{"", "line 1, column 1: expected an expression, found end of input"},
	{"   ", "line 1, column 4: expected an expression, found end of input"},
	{"1 +", "line 1, column 4: expected an expression, found end of input"},
	{"(1 + 2", "line 1, column 7: expected \")\" to close the \"(\" at line 1, column 1, found end of input"},
	{"max(1, 2", "line 1, column 9: expected \",\" or \")\" in the arguments of max at line 1, column 4, found end of input"},
	{"4dx", "line 1, column 3: expected a number of sides after \"d\", found \"x\""},
	{"4d", "line 1, column 3: expected a number of sides after \"d\", found end of input"},
	{"4d 6", "line 1, column 3: expected a number of sides after \"d\", found a space"},
	{"2 d6", "line 1, column 3: expected an operator or the end of the expression, found \"d6\" — a dice term is written without spaces (2d6, (n)d6)"},
	{"5d10!!ekh2", "line 1, column 5: !!e is contradictory: !! adds each die's extra rolls into one die, !e makes each extra roll a die of its own — write one of them"},
	{"5d10!>=8{1, 2}", `line 1, column 14: expected "in all" after the second number in the braces ({1, 2 in all}: at most 1 extra roll per die, 2 in the whole term), found "}"`},
	{"5d10!>=8{2 in}", `line 1, column 14: expected "all" after "in" ({2 in all}: at most 2 extra rolls in the whole term), found "}"`},
	{"5d10!>=8{2 in all", `line 1, column 18: expected "}" to close the "{" at line 1, column 9, found end of input`},
	{"d6x", "line 1, column 3: \"x\" is Foundry's explode: write d6!"},
	{"d20bonus", "line 1, column 4: unknown dice modifier \"bonus\" after \"d20\" — modifiers are kh, kl, k, dh, dl, d, r, ro, cs, cf, #, !, !!, min, max, u, uo and mt; names cannot begin with \"d\" and a digit or \"F\""},
	{"dFoo", "line 1, column 3: unknown dice modifier \"oo\" after \"dF\" — modifiers are kh, kl, k, dh, dl, d, r, ro, cs, cf, #, !, !!, min, max, u, uo and mt; names cannot begin with \"d\" and a digit or \"F\""},
	{"4d6kh3x", "line 1, column 7: \"x\" is Foundry's explode: write 4d6kh3!"},
	{"1.5d6", "line 1, column 1: the number of dice must be a whole number, found 1.5"},
	{"4d6.5", "line 1, column 3: the number of sides must be a whole number, found 6.5"},
	{"4d6kh1.5", "line 1, column 6: the number of dice to keep or drop must be a whole number, found 1.5"},
	{"99999999999999999999", "line 1, column 1: the number 99999999999999999999 is too large (the limit is 9223372036854775807)"},
	{"0.1234567890123456789", "line 1, column 1: the number 0.1234567890123456789 has more than 18 digits after the point"},
	{"12345678901234567890.5", "line 1, column 1: the number 12345678901234567890.5 is too large (the limit is 9223372036854775807)"},
	{"hihgest(pool)", "line 1, column 1: unknown function \"hihgest\" — did you mean \"highest\"?"},
	{"bonus(3)", "line 1, column 1: unknown function \"bonus\""},
	{"d (6)", "line 1, column 1: unknown function \"d\" — a die is written without a space: d(n)"},
	{"a < b < c", "line 1, column 7: comparisons cannot be chained: write a < b and b < c, found a second \"<\""},
	{"a == b != c", "line 1, column 8: comparisons cannot be chained: write a == b and b != c, found a second \"!=\""},
	{"x = 3", "line 1, column 3: expected an operator or the end of the expression, found \"=\" — write \"==\" to compare"},
	{"!x", "line 1, column 1: expected an expression, found \"!\" — write \"not\" to negate a condition"},
	{"x!", "line 1, column 2: expected an operator or the end of the expression, found \"!\" — only dice explode, with \"!\" right after them (2d6!); \"not\" negates"},
	{"+3", "line 1, column 1: expected an expression, found \"+\" — there is no unary \"+\""},
	{".5", "line 1, column 1: expected an expression, found \".\" — write decimals with a digit before the point (0.5)"},
	{"1 +* 2", "line 1, column 4: expected an expression, found \"*\""},
	{"iff x then 1 else 2", "line 1, column 5: expected an operator or the end of the expression, found \"x\" — \"iff\" is not a keyword: did you mean \"if\"?"},
	{"if x thn 1 else 2", "line 1, column 6: expected \"then\" after the condition of the if at line 1, column 1, found \"thn\" — did you mean \"then\"?"},
	{"if x then 1 esle 2", "line 1, column 13: expected \"else\" after the then branch of the if at line 1, column 1, found \"esle\" — did you mean \"else\"?"},
	{"if x then 1", "line 1, column 12: expected \"else\" after the then branch of the if at line 1, column 1, found end of input"},
	{"a adn b", "line 1, column 3: expected an operator or the end of the expression, found \"adn\" — did you mean \"and\"?"},
	{"a orr b", "line 1, column 3: expected an operator or the end of the expression, found \"orr\" — did you mean \"or\"?"},
	{"nott a", "line 1, column 6: expected an operator or the end of the expression, found \"a\" — \"nott\" is not a keyword: did you mean \"not\"?"},
	{"1 + if a then 1 else 2", "line 1, column 5: expected an operand, found \"if\" — put if … then … else … in parentheses here"},
	{"a == not b", "line 1, column 6: expected an operand, found \"not\" — put not … in parentheses here"},
	{"and", "line 1, column 1: expected an expression, found \"and\""},
	{"4d6 kh3", "line 1, column 5: expected an operator or the end of the expression, found \"kh3\" — dice modifiers follow the dice without a space (4d6kh3)"},
	{"clamp(x, 1)", "line 1, column 1: clamp takes 3 arguments (clamp(x, lo, hi)), found 2"},
	{"max(5d6)", "line 1, column 1: max takes at least 2 arguments (max(x, y, …)), found 1 — for the highest die of a pool write highest(pool)"},
	{"min(a)", "line 1, column 1: min takes at least 2 arguments (min(x, y, …)), found 1 — for the lowest die of a pool write lowest(pool)"},
	{"abs()", "line 1, column 1: abs takes 1 argument (abs(x)), found 0"},
	{"abs(1, 2)", "line 1, column 1: abs takes 1 argument (abs(x)), found 2"},
	{"highest(5d6, 1, 2)", "line 1, column 1: highest takes 1 or 2 arguments (highest(pool) or highest(pool, n)), found 3"},
	{"highest(3)", "line 1, column 9: the pool of highest must be dice such as 5d6 or a name bound to them, found 3"},
	{"highest(a + b)", "line 1, column 9: the pool of highest must be dice such as 5d6 or a name bound to them, found a + b"},
	{"count(pool)", "line 1, column 7: the argument of count must compare the dice of a pool, as in count(pool >= 5)"},
	{"count(3 >= pool)", "line 1, column 7: the pool of count goes on the left of the comparison, as in count(pool >= 5), found 3"},
	{"count(1 + 1 == 2)", "line 1, column 7: the pool of count must be dice such as 5d6 or a name bound to them, found 1 + 1"},
	{"lookup(x)", "line 1, column 9: expected \",\" after the value to look up, found \")\""},
	{"lookup(x, 1)", "line 1, column 11: expected \"{\" to begin the cases of lookup, found \"1\""},
	{"lookup(x, {})", "line 1, column 12: expected a case (a whole number, a range such as 1..3, or _) in the lookup table at line 1, column 11, found \"}\""},
	{"lookup(x, {1..5: a, 3..7: b})", "line 1, column 21: the case 3..7 overlaps the case 1..5"},
	{"lookup(x, {5..3: a})", "line 1, column 12: the range 5..3 is empty: its low end is above its high end"},
	{"lookup(x, {_: a, 1: b})", "line 1, column 18: the default case _ must come last, found \"1\" after it"},
	{"lookup(x, {1.5: a})", "line 1, column 12: a case of a lookup must be a whole number, found 1.5"},
	{"lookup(x, {a: 1})", "line 1, column 12: expected a case (a whole number, a range such as 1..3, or _) in the lookup table at line 1, column 11, found \"a\""},
	{"lookup(x, {1 a})", "line 1, column 14: expected \":\" after the case 1, found \"a\""},
	{"lookup(x, {1: a b})", "line 1, column 17: expected \",\" or \"}\" after a case of the lookup at line 1, column 1, found \"b\""},
	{"lookup(x, {..: a})", "line 1, column 14: expected a case (a whole number, a range such as 1..3, or _) in the lookup table at line 1, column 11, found \":\""},
	{"lookup(x, {..0: a, ..5: b})", "line 1, column 20: the case ..5 overlaps the case ..0"},
	{"lookup(x, {3..: a, 10: b})", "line 1, column 20: the case 10 overlaps the case 3.."},
	{"lookup(x, {99999999999999999999: a})", "line 1, column 12: the case 99999999999999999999 is too large (the limit is 9223372036854775807)"},
	{"lookup(x, {1: a}", "line 1, column 17: expected \")\" to close the \"(\" at line 1, column 7, found end of input"},
	{"d{}", "line 1, column 3: expected a face (a number) of the die d{…} at line 1, column 2, found \"}\""},
	{"d{a}", "line 1, column 3: expected a face (a number) of the die d{…} at line 1, column 2, found \"a\""},
	{"d{1 2}", "line 1, column 5: expected \",\" or \"}\" after a face of the die d{…} at line 1, column 2, found \"2\""},
	{"d{1,", "line 1, column 5: expected a face (a number) of the die d{…} at line 1, column 2, found end of input"},
	{"4d6!!!", "line 1, column 6: the dice already explode: one explode modifier (! or !!) per dice term"},
	{"4d6!>5!", "line 1, column 7: the dice already explode: one explode modifier (! or !!) per dice term"},
	{"2d6r==1", "line 1, column 5: a dice condition takes a single \"=\" (r=1, or just r1), found \"==\""},
	{"8d10#", "line 1, column 6: expected a condition after \"#\", such as #>=7, found end of input"},
	{"8d10#x", "line 1, column 6: expected a condition after \"#\", such as #>=7, found \"x\""},
	{"4d6cx", "line 1, column 4: unknown dice modifier \"cx\" — expected \"cs\" (count successes) or \"cf\" (count failures)"},
	{"4d6r<", "line 1, column 6: expected a number or a parenthesised expression after \"r<\", found end of input"},
	{"4d6!>=x", "line 1, column 7: expected a number or a parenthesised expression after \"!>=\", found \"x\""},
	{"4d6kh(", "line 1, column 7: expected an expression, found end of input"},
	{"4d6!{2", "line 1, column 7: expected \"}\" to close the \"{\" at line 1, column 5, found end of input"},
	{"d6x3", "line 1, column 3: \"x3\" is Foundry's explode on 3: write d6!3 (or --dialect foundry)"},
	{"2d6 x", "line 1, column 5: expected an operator or the end of the expression, found \"x\""},
	{"a $ b", "line 1, column 3: expected an operator or the end of the expression, found \"$\""},
	{"a\x00b", "line 1, column 2: expected an operator or the end of the expression, found \"\\x00\""},
	{"(", "line 1, column 2: expected an expression, found end of input"},
	{")", "line 1, column 1: expected an expression, found \")\""},
	{"a)", "line 1, column 2: expected an operator or the end of the expression, found \")\""},
	{"a,b", "line 1, column 2: expected an operator or the end of the expression, found \",\""},
	{"d(", "line 1, column 3: expected an expression, found end of input"},
	{"((((1))))))", "line 1, column 10: expected an operator or the end of the expression, found \")\""},
	{"1 2", "line 1, column 3: expected an operator or the end of the expression, found \"2\""},
	{"f(x)", "line 1, column 1: unknown function \"f\""},
	{"x.y", "line 1, column 2: expected an operator or the end of the expression, found \".\" — names cannot contain \".\""},
	{"2D6", "line 1, column 2: expected an operator or the end of the expression, found \"D6\" — dice are written with a lowercase \"d\" (2d6)"},
	{"5d6 ! 2", "line 1, column 5: expected an operator or the end of the expression, found \"!\" — only dice explode, with \"!\" right after them (2d6!); \"not\" negates"},
	{"a == = b", "line 1, column 6: expected an expression, found \"=\""},
	{"lookup(x, {1: a,, 2: b})", "line 1, column 17: expected a case (a whole number, a range such as 1..3, or _) in the lookup table at line 1, column 11, found \",\""},
}

func TestErrors(t *testing.T) {
	t.Parallel()
	for _, c := range badInputs {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(c.src)
			if err == nil {
				t.Fatalf("Parse(%q) = %s; want an error", c.src, String(e))
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): %T is not a *SyntaxError", c.src, err)
			}
			if e != nil {
				t.Errorf("Parse(%q) returned a tree with its error", c.src)
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
