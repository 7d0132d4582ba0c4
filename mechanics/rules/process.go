package rules

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// ProcessDef is a rule that goes on over time: a state, a step and when
// it stops.
type ProcessDef struct{}

func (r *Rule) buildProcess(params map[string]expr.Rat) (*mechanics.Spec, error) {
	return nil, mechanics.Invalid("%s: processes are not supported yet", r.ID)
}
