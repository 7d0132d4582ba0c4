// Package notation is the syntax of oddsmith's one-line dice notation: the
// text a designer writes for a rule ("4d6kh3 + bonus >= tn"), familiar to
// Roll20 and Foundry users, and the same text in rule files. It lexes,
// parses and prints; it does not evaluate. Parse turns the text into a tree
// of plain nodes (Expr) that a compiler pattern-matches with a type switch;
// String prints a tree back as canonical text that parses to the same tree;
// Walk and Names find what an expression reads.
//
// It is the syntax half of the language layer, which sits beside the model
// core (package mechanics) rather than inside it: package rules compiles
// the trees into the declared model, a mechanics.Spec, so that designers'
// rules run on both engines like the built-in mechanics. The package
// needs only exact numbers (mechanics/expr) from the core, and nothing in
// the core imports it.
//
// # Values
//
// Numbers are exact rationals: 0.5 is 1/2, and "/" divides exactly (7/2 is
// 7/2, not 3). A dice term on its own is the sum of its dice after its
// modifiers (5d6 is the sum of five d6; 4d6kh3 the sum of the highest three),
// or, with cs, cf or #, the count of the dice meeting the condition. The
// argument of a pool evaluator (highest, count, …) is different: the
// evaluator sees the dice individually. Comparisons, and, or and not give
// events, true or false (1 or 0 where a number is needed).
//
// # Grammar
//
// In EBNF ("{ x }" is zero or more, "[ x ]" optional). Between tokens any
// spaces, tabs and line breaks may appear, except inside a dice term: a
// dice term is written without spaces, apart from inside its parentheses
// and braces ("4d6kh3", "(n+1)d6!{2}", "d{1, 1, 2, 3, 5, 8}").
//
//	expr      = "if" expr "then" expr "else" expr | or .
//	or        = and { "or" and } .
//	and       = not { "and" not } .
//	not       = "not" not | compare .
//	compare   = sum [ cmpop sum ] .                       (no chains: a < b < c is an error)
//	cmpop     = "==" | "!=" | "<" | "<=" | ">" | ">=" .
//	sum       = product { ( "+" | "-" ) product } .
//	product   = unary { ( "*" | "/" | "//" | "%" ) unary } .
//	unary     = "-" unary | primary .
//	primary   = number | name | dice | group | call | lookup | "(" expr ")" .
//
//	dice      = [ count ] "d" sides { modifier } .
//	count     = integer | "(" expr ")" .                   (a name needs parentheses: (n)d6)
//	sides     = integer | "(" expr ")" | "%" | "F" | "{" face { "," face } [ "," ] "}" .
//	face      = [ "-" ] number .
//	modifier  = keep | drop | explode | reroll | success | failure | bound | unique | matches .
//	keep      = ( "kh" | "kl" | "k" ) [ n ] .              (k is kh)
//	drop      = ( "dh" | "dl" | "d" ) [ n ] .              (d is dl)
//	n         = integer | "(" expr ")" .                   (absent: 1)
//	explode   = ( "!" | "!!" ) [ "p" ] [ "e" ] [ cond ] [ "{" expr "}" ] .  (at most one per dice term; no "e" after "!!")
//	reroll    = ( "r" | "ro" ) [ cond ] .
//	success   = "cs" [ cond ] | "#" cond .
//	failure   = "cf" [ cond ] .
//	bound     = ( "min" | "max" ) ( [ "-" ] number | "(" expr ")" ) .
//	unique    = ( "u" | "uo" ) [ cond ] .
//	matches   = "mt" [ n ] [ cond ] .                     (cond with its operator: mt=5)
//	cond      = ( "=" | "<" | "<=" | ">" | ">=" ) value | value .   (a bare value means "=")
//	value     = number | "(" expr ")" .                   (after an operator also "-" number)
//
//	group     = "{" expr { "," expr } "}" { groupmod } .  (modifiers right after the "}")
//	groupmod  = keep | drop | "cs" cond | "cf" cond .
//
//	call      = function "(" [ expr { "," expr } ] ")" .
//	lookup    = "lookup" "(" expr "," "{" case { "," case } [ "," ] "}" ")" .
//	case      = ( int | int ".." | ".." int | int ".." int | "_" | "else" ) ":" expr .
//	int       = [ "-" ] integer .
//
//	number    = integer [ "." digit { digit } ] .
//	integer   = digit { digit } .
//	name      = ( letter | "_" ) { letter | digit | "_" } .
//
// Letters are the ASCII letters; names, keywords, function names and dice
// modifiers are case-sensitive (Bonus and bonus are two names; 2D6 is an
// error). Keywords (and, or, not, if, then, else) are not names; function
// names are names when no "(" follows them. A word that begins with "d" followed by a digit, "%", "{", "("
// or "F" is a die, never a name, so d6, d20x and dFoo are not names (damage,
// dex and dc are); and a number or ")" directly followed by "d" is always a
// dice count (2d6, (n)d6). Dots are not part of names. A comment is a "#"
// at the start of the text or after a space, to the end of its line (3d6 #
// fire); a "#" right after dice counts successes (3d6#>=5). A label
// "[text]" right after an operand (2d6[Fire]) is read and left out: it
// names nothing yet.
//
// # Precedence
//
// From the loosest binding to the tightest:
//
//	level  operators                          associativity
//	1      if … then … else …                 prefix; the else branch reaches as far right as it can
//	2      or                                 left
//	3      and                                left
//	4      not                                prefix (not a == b is not (a == b))
//	5      ==  !=  <  <=  >  >=               none: a < b < c is an error
//	6      +  -                               left
//	7      *  /  //  %                        left
//	8      - (negation)                       prefix (-a * b is (-a) * b)
//	9      ^  ** (power)                      right (2^3^2 is 2^9; -2^2 is -(2^2)); the exponent a constant whole number 0..64
//	10     dice and their modifiers, calls, lookup, parentheses
//
// "if" and "not" may start an expression, a parenthesised group, an
// argument, a case value or an if branch; elsewhere they need parentheses
// (1 + (if c then 2 else 3)).
//
// # Arithmetic
//
//	a / b    exact rational division (7/2 is 7/2)
//	a // b   floor division: floor(a / b) (-7 // 2 is -4)
//	a % b    the remainder of floor division, a - b * (a // b), with the sign of b
//
// # Dice
//
//	NdS, dS        N dice with sides 1..S (d6 is 1d6)
//	d%             the percentile die, 1..100
//	dF             the Fudge die, -1, 0, +1
//	d{1,1,2,3,5,8} a custom die: one face per entry, in order; repeats weight a face;
//	               faces may be negative, and a run a..b lists a, a+1, …, b (d{-1, 0, 0, 5}, d{1..3, 5})
//	(expr)dS, Nd(expr), (expr)d(expr)
//	               counts and sides that are not literals (a name needs parentheses:
//	               (skill)d6, since skilld6 would be one name)
//
// Modifiers follow the sides directly. The parser keeps them in written
// order (Dice.Mods); the order in which they take effect is the compiler's
// to define.
//
//	kh, kh3, kl2, k3        keep the highest (kh, k) or lowest (kl) n dice; n is 1 when absent
//	dl, dl1, dh2, d1        drop the lowest (dl, d) or highest (dh) n dice
//	!                       explode: each die showing its highest face adds another roll of
//	                        the same die, without limit (Roll20's "!", "bursting")
//	!>=9  !>9  !=9  !9  !<=2
//	                        explode on a condition instead of the highest face
//	!{3}  !>=9{3}           explode at most 3 times per die (a limited explode)
//	!!  !!>=5  !!{2}        compounding: the extra rolls add to the die that exploded, so it
//	                        stays one die (for keep, drop and counting)
//	!e  !e>=9  !e{2}        explode, each extra roll a die of its own for keep, drop and
//	                        pools (5d10!ekh2: the two highest of all the rolls)
//	!p  !!p  !p>=5{3}       penetrating: every extra roll counts one less than its face (the
//	                        p right after ! or !!, before the condition and the limit)
//	r  r1  r<=2  r(x)       reroll while the condition holds (r alone: the lowest face)
//	ro  ro<3                reroll once
//	cs>=7  cs  #>=7         count successes: the term is the number of dice meeting the
//	                        condition (cs alone: the highest face; # is cs, and needs a condition)
//	cf1  cf<=2  cf          count failures: subtracted from the successes (cf alone: the lowest face)
//	min3  max15  min(x)     a die below 3 counts as 3 (above 15 as 15); with the rerolls, in the
//	                        order written, they change the die for every later modifier and roll
//	u  uo  u>3              reroll a die showing a face an earlier die shows: until new (u),
//	                        once (uo), or only repeats meeting the condition (u>3)
//	mt  mt3  mt>=4          matched sets: the term is the number of faces at least 2 (3) dice
//	                        show (only faces meeting the condition)
//
// Conditions compare the die's face: "=" (or a bare value), "<", "<=", ">",
// ">=". Unlike Roll20, ">" is strict: 8d10cs>7 counts 8s, 9s and 10s, and
// 8d10cs>=7 counts 7s too. Outside a dice term a comparison compares sums:
// 8d10>7 is the event "the sum of 8d10 is over 7", and, because a dice term
// has no spaces, 2d6!=7 is "2d6 exploding on 7" while 2d6 != 7 is the
// event "the sum is not 7". String always writes binary operators with
// spaces around them.
//
// # Functions
//
//	abs(x)  floor(x)  ceil(x)  round(x)     round: nearest integer, halves away from zero
//	min(x, y, …)  max(x, y, …)               two or more arguments
//	clamp(x, lo, hi)                         min(max(x, lo), hi)
//
// Pool evaluators read a whole roll. Their pool argument must be a dice term
// (5d6, 4d6!) or a name bound to one (in a rule, pool = "5d6"); they see the
// dice individually:
//
//	highest(pool)  highest(pool, n)   the highest die; the sum of the n highest
//	lowest(pool)   lowest(pool, n)    the lowest die; the sum of the n lowest
//	sum(pool)                         the sum of the dice (the same as the bare term)
//	count(pool OP x)                  how many dice satisfy the comparison
//	all(pool OP x)  any(pool OP x)    whether every / some die satisfies it
//	distinct(pool)                    how many different faces show
//	largest_set(pool)                 the size of the largest set of equal faces
//	straight(pool)                    the length of the longest run of consecutive faces
//
// The argument of count, all and any is a comparison whose left side is the
// pool and whose right side is any expression, which may itself read the
// pool: count(pool == highest(pool)) is how many dice tie for the highest.
// The parser records it as a Filter node.
//
// # Lookup tables
//
//	lookup(x, {1..3: 1d6, 4..9: 2d6, 10..: 3d6, _: 0})
//
// picks the value of the case whose range holds x. A case is a whole number
// (5), a closed range (1..3, both ends included), a range open above (10..)
// or below (..0), and last, optionally, the default "_" (or "else"). Bounds
// are integer literals, possibly negative (-2..2). Cases may not overlap;
// the parser reports overlaps and empty ranges (5..3). A trailing comma is
// allowed, so that a table can be written one case a line.
//
// # Errors and limits
//
// Parse reports the first problem as a *SyntaxError: "line L, column C:
// problem", the column counting characters from 1. Misspelled functions and
// keywords get a suggestion (package rules suggests its own names the same
// way). A source longer than MaxSourceLen bytes, nesting deeper than
// MaxDepth (parentheses, calls, negations, not, if), integers beyond int64
// and decimals with more than 18 digits after the point are errors.
package notation
