// Package rules is the compiler of the language layer: it turns designers'
// own rules — one-line dice expressions (FromExpr) and rule files
// (LoadFile, Parse) — into mechanics that both engines run, like the
// built-in ones.
//
// The language layer (package notation, the syntax; package rules, the
// compiler) sits beside the model core (package mechanics), not inside it.
// It compiles a designer's text into the declared model, a mechanics.Spec
// — an outcome record of independent random parts, nodes that roll them,
// and output expressions over the record's fields — so a designer's rule
// gets the exact engine, the simulator and their cross-check as a built-in
// does. Nothing in the model core imports the parser: a command adds the
// rules it reads to its registry as an overlay (mechanics.Registry.Overlay),
// and nothing global changes.
//
// A name bound to a roll is that roll wherever it is used ("nat = d20",
// then "nat + bonus" and "nat == 20" read the same die); a dice term
// written in an expression is a fresh roll each time it is written. A name
// bound to dice alone and read by a pool evaluator (highest(pool),
// count(pool >= 5)) is a pool: every statistic the rule reads of it comes
// from one roll of its dice.
//
// A rule is compiled, and its errors placed at their file, line and
// column, before it runs. What it can only fail on while it runs — a
// division by zero or a lookup without a case for a value rolled, a
// process's next state outside its bounds or not a whole number — the
// engines return as an error (an output expression's evaluation error, or
// the mechanics.Fault a compiled step raises), and Mechanic.Blame makes it
// the designer's input at fault (exit status 2).
//
// The language itself is described in docs/language.md, and how to write
// other tools' dice rules in it in docs/translating.md.
package rules
