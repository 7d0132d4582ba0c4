package rules

import (
	"fmt"
	"slices"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// ExprID is the mechanic id of a one-line expression.
const ExprID = "expr"

// FromExpr makes a rule of one expression (oddsmith exact --expr
// '4d6kh3'). Its value is the variable "value"; a comparison at the top
// ("3d6 + bonus >= tn") reports its left side as the variable "total" and
// the event "success"; "and", "or" and "not" give the event "value". Free
// names are parameters, 0 unless set (--set bonus=2).
func FromExpr(src string) (*Rule, error) {
	x, err := notation.Parse(src)
	if err != nil {
		return nil, mechanics.Invalid("--expr: %w", err)
	}
	r := &Rule{ID: ExprID, Summary: src, Doc: "the expression " + src, Source: src}
	for _, n := range notation.Names(x) {
		if why := reserved(n); why != "" {
			return nil, mechanics.Invalid("--expr: %q %s: a parameter needs another name", n, why)
		}
		r.Params = append(r.Params, mechanics.Param{Name: n, Doc: "a name in the expression", Min: -1e9, Max: 1e9, Real: true})
	}
	def := func(name string, e notation.Expr) Def {
		return Def{Name: name, Src: notation.String(e), X: e, Where: "--expr"}
	}
	switch t := x.(type) {
	case *notation.Compare:
		r.Lets = []Def{def("total", t.X)}
		r.Vars = []Def{def("total", &notation.Name{At: t.X.Pos(), Name: "total"})}
		r.Events = []Def{def("success", &notation.Compare{At: t.At, OpAt: t.OpAt, Op: t.Op, X: &notation.Name{At: t.X.Pos(), Name: "total"}, Y: t.Y})}
		r.Vars[0].Src, r.Events[0].Src = notation.String(t.X), src
	case *notation.Logic, *notation.Not:
		r.Events = []Def{def("value", x)}
	case *notation.Call:
		if t.Name == "all" || t.Name == "any" {
			r.Events = []Def{def("value", x)}
		} else {
			r.Vars = []Def{def("value", x)}
		}
	default:
		r.Vars = []Def{def("value", x)}
	}
	for _, p := range r.Params {
		if _, cmp := x.(*notation.Compare); cmp && p.Name == "total" {
			return nil, mechanics.Invalid("--expr: the name total is taken by the comparison's left side; call it something else")
		}
	}
	return r, nil
}

// reserved says why a name cannot name a parameter or a binding ("" when
// it can): a function's name (max without its parentheses), or d alone,
// which reads as a die.
func reserved(name string) string {
	if slices.Contains(notation.Functions(), name) {
		return fmt.Sprintf("is a function (%s(…))", name)
	}
	if name == "d" {
		return "reads as a die"
	}
	return ""
}
