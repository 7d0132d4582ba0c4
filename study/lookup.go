package study

import (
	"strings"

	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Lookup is the mechanic a command names: the one id of ids in reg, or,
// when expr is not "", the one-line rule of that expression (and then no
// id). An expression without parameters is built at once, so that a rule
// the notation reads but cannot model is refused here; one with
// parameters is built later, at the values set (d(s) is no die at s = 0).
// The command line and the workbench's server both resolve a mechanic
// through it, so that they refuse the same input with the same words.
func Lookup(reg *mechanics.Registry, ids []string, expr string) (*mechanics.Mechanic, error) {
	if expr == "" {
		switch len(ids) {
		case 0:
			return nil, mechanics.Invalid("missing mechanic id (run 'oddsmith list')")
		case 1:
		default:
			return nil, mechanics.Invalid("expected one mechanic id, got %d arguments (%s)", len(ids), strings.Join(ids, " "))
		}
		return reg.Lookup(ids[0])
	}
	if len(ids) > 0 {
		return nil, mechanics.Invalid("give a mechanic id or --expr, not both (got %q)", ids[0])
	}
	r, err := rules.FromExpr(expr)
	if err != nil {
		return nil, err
	}
	m := r.Mechanic()
	if len(m.Params) > 0 {
		return m, nil
	}
	if _, err := m.Model(m.DefaultConfig()); err != nil {
		return nil, err
	}
	return m, nil
}
