package rules

import (
	"fmt"
	"slices"
	"strings"

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
	lets, vars, x, err := labelled(x, r.Params)
	if err != nil {
		return nil, err
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
	r.Lets = append(lets, r.Lets...)
	r.Vars = append(r.Vars, vars...)
	return r, nil
}

// labelled takes the labelled dice terms of a one-liner (2d6[Fire] +
// 1d4[Cold]) out into bindings, so that the rule reports each label as a
// variable of its own (fire, cold: the terms that carry it, added) beside
// the whole, which reads the same rolls. x comes back with the terms
// replaced by the bindings' names.
func labelled(x notation.Expr, params []mechanics.Param) (lets, vars []Def, out notation.Expr, err error) {
	var terms []*notation.Dice
	notation.Walk(x, func(e notation.Expr) bool {
		switch e := e.(type) {
		case *notation.Dice:
			if e.Label != "" {
				terms = append(terms, e)
			}
		case *notation.Group:
			// A group's items and their dice are ranked together:
			// their labels name nothing of their own.
			return false
		}
		return true
	})
	if len(terms) == 0 {
		return nil, nil, x, nil
	}
	taken := map[string]bool{"value": true, "total": true, "success": true}
	for _, p := range params {
		taken[p.Name] = true
	}
	fresh := func(base string) string {
		n := base
		for i := 2; taken[n] || reserved(n) != ""; i++ {
			n = fmt.Sprintf("%s_%d", base, i)
		}
		taken[n] = true
		return n
	}
	var order []string
	byLabel := map[string][]string{}
	varName := map[string]string{}
	binding := map[*notation.Dice]string{}
	for _, d := range terms {
		if _, ok := varName[d.Label]; !ok {
			varName[d.Label] = fresh(labelName(d.Label))
			order = append(order, d.Label)
		}
	}
	for _, d := range terms {
		b := varName[d.Label]
		if len(byLabel[d.Label]) > 0 || slices.ContainsFunc(terms, func(o *notation.Dice) bool { return o != d && o.Label == d.Label }) {
			b = fresh(varName[d.Label] + "_term")
		}
		byLabel[d.Label] = append(byLabel[d.Label], b)
		binding[d] = b
		plain := *d
		plain.Label = ""
		lets = append(lets, Def{Name: b, Src: notation.String(&plain), X: &plain, Where: "--expr"})
	}
	for _, l := range order {
		src := strings.Join(byLabel[l], " + ")
		v, err := notation.Parse(src)
		if err != nil {
			return nil, nil, nil, mechanics.Invalid("--expr: internal: label %q: %v", l, err)
		}
		vars = append(vars, Def{Name: varName[l], Src: src, X: v, Doc: fmt.Sprintf("the terms labelled [%s]", l), Where: "--expr"})
	}
	src := notation.StringLabels(x, func(d *notation.Dice) string { return binding[d] })
	if out, err = notation.Parse(src); err != nil {
		return nil, nil, nil, mechanics.Invalid("--expr: internal: %s: %v", src, err)
	}
	return lets, vars, out, nil
}

// labelName is a label as a variable's name: lower case, words joined by
// "_" (Fire damage: fire_damage), "label" when nothing is left.
func labelName(l string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(l) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(c)
		default:
			under = true
		}
	}
	n := b.String()
	if n == "" {
		return "label"
	}
	if n[0] >= '0' && n[0] <= '9' {
		n = "label_" + n
	}
	return n
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

// FromExprIn is FromExpr of a text written in the dialect named dialect
// ("" or "oddsmith": oddsmith's own; see notation.Dialect): the rule is
// that of oddsmith's form of the text's meaning. In oddsmith's dialect it
// also returns the forms of the text another dice tool reads otherwise
// (notation.Readings), each "expr "TEXT": message".
func FromExprIn(src, dialect string) (*Rule, []string, error) {
	d, err := notation.DialectNamed(dialect)
	if err != nil {
		return nil, nil, mechanics.Invalid("%w", err)
	}
	x, err := notation.ParseIn(src, d)
	if err != nil {
		if d != notation.Oddsmith {
			return nil, nil, mechanics.Invalid("--expr: %w (read as %s)", err, d.Title())
		}
		return nil, nil, mechanics.Invalid("--expr: %w", err)
	}
	var readings []string
	if d != notation.Oddsmith {
		src = notation.String(x)
	} else {
		for _, r := range notation.Readings(src, x) {
			readings = append(readings, fmt.Sprintf("expr %q: %s", src, r.Msg))
		}
	}
	r, err := FromExpr(src)
	return r, readings, err
}

// CheckDialect says whether a dialect's name is known ("" is oddsmith's).
func CheckDialect(name string) error {
	if _, err := notation.DialectNamed(name); err != nil {
		return mechanics.Invalid("%w", err)
	}
	return nil
}
