// Package expr holds the small expressions that a declared model's
// variables, events and bands are made of: references to the named fields of
// an outcome record, rational constants, arithmetic, comparisons, and/or/not,
// if-then-else and table lookups. Expressions are plain data, so they can be
// printed (describe shows them), fingerprinted and built by a parser (the
// dice notation builds them from text). A Func node is the escape hatch for
// what the closed set cannot say; it names the fields it reads.
//
// Values are exact rationals (Rat). Comparisons and logic give 1 or 0;
// anything non-zero counts as true.
package expr
