// Package kit holds the building blocks the game systems share: checks of
// a die plus a bonus against a target with natural-roll rules (Check),
// roll-under with a margin (RollUnder), opposed results with a tie rule
// (Opposed), thresholds that cut a value into bands (Thresholds), rounding
// (Rounding), damage after armour and resistance (AfterArmour, Resist),
// counts of successes over repeated tries (Binomial, Success), time to an
// event (TimeToEvent), and records rolled from independent parts (Roll,
// Encode). It also reads a pool of dice as a whole (PoolStat, PoolOf,
// JointPool), for the rule notation of package rules, and writes the
// numbers a describe text formats from the model's constants (Num, Signed).
//
// Every block states the system's success inequality explicitly (a Cmp
// argument or field) instead of hiding one shared comparison: each system
// says which comparison its rules use. Blocks come in two forms that always
// agree: an expression (expr.Expr) over the fields of a declared record, for
// outputs, and a plain Go method, for the functions inside a model's nodes.
// A test checks the two forms against each other for every value.
package kit
