package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Def is one named expression of a rule: a binding or an output.
type Def struct {
	Name, Doc, Src string
	X              notation.Expr
	// Where is where the definition sits in its file (for errors):
	// "house.toml:12" or "--expr".
	Where string
}

// BandDef is a band: an expression whose value 0, 1, … picks a label.
type BandDef struct {
	Def
	Labels []string
}

// Rule is a designer's rule: parameters, bindings in order, and outputs.
type Rule struct {
	ID, Summary, Doc string
	Params           []mechanics.Param
	Lets             []Def
	Vars, Events     []Def
	Bands            []BandDef
	Process          *ProcessDef
	// Source names where the rule comes from ("house.toml", "--expr");
	// Line is the line of its [[rule]] in a file (0 for a one-liner).
	Source string
	Line   int
	// Dialect is whose meaning the rule's expressions have (dialect = "…"
	// in the file); they are kept in oddsmith's form of it.
	Dialect notation.Dialect
	// Readings are the forms of its expressions, written in oddsmith's
	// dialect, that another dice tool reads otherwise (notation.Readings),
	// each placed "file:line: rule id, vars.x: …".
	Readings []string
}

// where names the rule for an error: its file and line, and its id.
func (r *Rule) where() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d: rule %s", r.Source, r.Line, r.ID)
	}
	return r.ID
}

// fail is an error of the rule as a whole, placed at its [[rule]] in a
// file. A one-line rule has no place of its own: the mechanic's id, which
// Model writes before every error of a build, names it (once: "expr: …",
// not "expr: expr: …").
func (r *Rule) fail(format string, a ...any) error {
	if r.Line > 0 {
		return mechanics.Invalid("%s: %s", r.where(), fmt.Sprintf(format, a...))
	}
	return mechanics.Invalid(format, a...)
}

// ruleError places a compilation error: the definition, then the line and
// column inside its expression.
func ruleError(d Def, err error) error {
	return mechanics.Invalid("%s: %w", d.Where, err)
}

// Canonical is the rule's text in one canonical form: part of every
// result's fingerprint.
func (r *Rule) Canonical() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %s\n", r.ID)
	for _, p := range r.Params {
		fmt.Fprintf(&b, "param %s [%s, %s] real=%v\n", p.Name, mechanics.FormatNum(p.Min), mechanics.FormatNum(p.Max), p.Real)
	}
	if pd := r.Process; pd != nil {
		bound := func(v StateVar, k string, n int) string {
			if d, ok := v.Exprs[k]; ok {
				return "(" + notation.String(d.X) + ")"
			}
			return strconv.Itoa(n)
		}
		for _, v := range pd.State {
			fmt.Fprintf(&b, "state %s start %s [%s, %s]\n", v.Name, bound(v, "start", v.Start), bound(v, "min", v.Min), bound(v, "max", v.Max))
		}
		h := strconv.Itoa(pd.Horizon)
		if pd.HorizonX != nil {
			h = "(" + notation.String(pd.HorizonX.X) + ")"
		}
		fmt.Fprintf(&b, "until %s\nhorizon %s %s\n", notation.String(pd.Until.X), h, pd.Unit)
		for _, d := range pd.Next {
			fmt.Fprintf(&b, "next %s = %s\n", d.Name, notation.String(d.X))
		}
	}
	for _, d := range r.Lets {
		fmt.Fprintf(&b, "let %s = %s\n", d.Name, notation.String(d.X))
	}
	for _, d := range r.Vars {
		fmt.Fprintf(&b, "var %s = %s\n", d.Name, notation.String(d.X))
	}
	for _, d := range r.Events {
		fmt.Fprintf(&b, "event %s = %s\n", d.Name, notation.String(d.X))
	}
	for _, d := range r.Bands {
		fmt.Fprintf(&b, "band %s = %s %q\n", d.Name, notation.String(d.X), d.Labels)
	}
	return b.String()
}

// Mechanic registers nothing: it returns the mechanic that runs the rule.
func (r *Rule) Mechanic() *mechanics.Mechanic {
	doc := r.Doc
	if doc == "" {
		doc = r.Summary
	}
	if r.ID != ExprID {
		doc += fmt.Sprintf(" (a rule from %s)", r.Source)
	}
	return &mechanics.Mechanic{
		ID:         r.ID,
		Summary:    r.Summary,
		Doc:        doc,
		Params:     r.Params,
		Build:      r.Build,
		RuleText:   r.Canonical(),
		RuleSource: r.Source,
	}
}

// Build compiles the rule at one configuration.
func (r *Rule) Build(cfg mechanics.Config) (*mechanics.Spec, error) {
	params := map[string]expr.Rat{}
	for _, p := range r.Params {
		params[p.Name] = cfg.Rat(p.Name)
	}
	if r.Process != nil {
		return r.buildProcess(params)
	}
	c, err := r.bound(params)
	if err != nil {
		return nil, err
	}
	return c.spec(r)
}

// bound is a compiler with the rule's bindings compiled at params (a
// process step's params hold its state variables too).
func (r *Rule) bound(params map[string]expr.Rat) (*compiler, error) {
	c := newCompiler(params)
	if err := c.collectPools(r); err != nil {
		return nil, err
	}
	for _, d := range r.Lets {
		if err := c.bind(d); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// bind compiles one binding.
func (c *compiler) bind(d Def) error {
	if pb, ok := c.pools[d.Name]; ok {
		dice, ok := d.X.(*notation.Dice)
		if !ok {
			return ruleError(d, errAt(d.X.Pos(), "%s is read as a pool, so it must be bound to dice alone (%s = 5d6)", d.Name, d.Name))
		}
		die, n, err := c.poolDie(dice)
		if err != nil {
			return ruleError(d, err)
		}
		if err := c.addPool(d.Name, pb, die, n); err != nil {
			return ruleError(d, errAt(d.X.Pos(), "%v", err))
		}
		c.bindOrder = append(c.bindOrder, d.Name)
		return nil
	}
	v, err := c.compile(d.X)
	if err != nil {
		return ruleError(d, err)
	}
	if v.kind == rnd {
		v = c.field(v, d.Name, d.Doc)
	}
	c.binds[d.Name] = v
	c.bindOrder = append(c.bindOrder, d.Name)
	return nil
}

// addPool makes a named pool one component: a field per statistic read.
func (c *compiler) addPool(name string, pb *poolBinding, die mechanics.Die, n int) error {
	pb.die, pb.n = die, n
	names := make([]string, len(pb.stats))
	for i, k := range pb.keys {
		f := name + "_" + k
		for c.used[f] {
			f += "_"
		}
		c.used[f] = true
		names[i] = f
		pb.field[k] = f
	}
	if n == 0 {
		return fmt.Errorf("a pool needs at least one die")
	}
	if len(pb.stats) == 1 {
		node, err := kit.PoolOf(die, n, pb.stats[0])
		if err != nil {
			return err
		}
		f := pb.stats[0].Fold(n, kit.DistinctFaces(die))
		c.comps = append(c.comps, component{node: node, fields: []mechanics.Field{mechanics.Int(names[0], f.Lo, f.Hi, pb.stats[0].Name()+" of "+name)}})
		return nil
	}
	node, sub, err := kit.JointPool(die, n, names, pb.stats)
	if err != nil {
		return err
	}
	c.comps = append(c.comps, component{node: node, fields: sub.Fields, sub: sub})
	return nil
}

// exploding reports dice that explode (their faces depend on the count:
// an unlimited explosion is followed further for more dice).
func exploding(d *notation.Dice) bool {
	for _, m := range d.Mods {
		if _, ok := m.(*notation.Explode); ok {
			return true
		}
	}
	return false
}

// known is the value of an expression of the parameters alone.
func (c *compiler) known(e notation.Expr) (expr.Rat, bool) {
	if k, ok := c.knownAt[e]; ok {
		return k.v, k.ok
	}
	k, ok := c.evalKnown(e)
	if c.knownAt == nil {
		c.knownAt = map[notation.Expr]knownValue{}
	}
	c.knownAt[e] = knownValue{k, ok}
	return k, ok
}

func (c *compiler) evalKnown(e notation.Expr) (expr.Rat, bool) {
	for _, n := range notation.Names(e) {
		if _, ok := c.params[n]; !ok {
			return expr.Rat{}, false // a binding, a state variable: not known yet
		}
	}
	// A scratch compiler: a dice term in the expression adds its parts
	// there, not to the rule.
	v, err := newCompiler(c.params).compile(e)
	if err != nil {
		return expr.Rat{}, false
	}
	k, err := constOf(v)
	return k, err == nil
}

// collectPools finds the bindings read as pools and every statistic read
// of each.
func (c *compiler) collectPools(r *Rule) error {
	lets := map[string]bool{}
	letX := map[string]notation.Expr{}
	for _, d := range r.Lets {
		lets[d.Name] = true
		letX[d.Name] = d.X
	}
	all := slices.Concat(r.Lets, r.Vars, r.Events)
	if r.Process != nil {
		all = append(all, r.Process.Next...)
	}
	for _, b := range r.Bands {
		all = append(all, b.Def)
	}
	// Pass 1: names that are pool arguments.
	for _, d := range all {
		visitPools(d.X, c.known, func(call *notation.Call, pool notation.Expr) {
			if n, ok := pool.(*notation.Name); ok && lets[n.Name] && c.pools[n.Name] == nil {
				pb := &poolBinding{field: map[string]string{}}
				// The die's faces, when its dice are plain (for reading
				// all and any through highest and lowest).
				if dice, ok := letX[n.Name].(*notation.Dice); ok && !exploding(dice) {
					one := *dice
					one.Count = nil // the faces do not depend on how many dice
					if die, _, err := c.poolDie(&one); err == nil {
						pb.faces = kit.DistinctFaces(die)
						slices.Sort(pb.faces)
					}
				}
				c.pools[n.Name] = pb
			}
		}, nil)
	}
	if len(c.pools) == 0 {
		return nil
	}
	add := func(pb *poolBinding, st kit.PoolStat) {
		k := statKey(st)
		if !slices.Contains(pb.keys, k) {
			pb.keys, pb.stats = append(pb.keys, k), append(pb.stats, st)
		}
	}
	// Pass 2: the statistics. Arguments such as highest(pool, k) are
	// constants: parameters only.
	for _, d := range all {
		var failed error
		visitPools(d.X, c.known, func(call *notation.Call, pool notation.Expr) {
			n, ok := pool.(*notation.Name)
			if !ok || c.pools[n.Name] == nil || failed != nil {
				return
			}
			st, _, err := c.statOf(call)
			if err != nil {
				failed = ruleError(d, err)
				return
			}
			st, _ = reduceAllAny(st, c.pools[n.Name].faces)
			add(c.pools[n.Name], st)
		}, func(n *notation.Name) {
			if pb := c.pools[n.Name]; pb != nil {
				add(pb, kit.PoolSum{}) // read as a number: its sum
			}
		})
		if failed != nil {
			return failed
		}
	}
	return nil
}

// visitPools walks an expression: onCall for every pool evaluator (with
// its pool argument), onName for every other name.
//
// A condition or lookup key on the parameters alone (known: its value)
// visits only the branch taken, as the compiler rolls only that one.
func visitPools(e notation.Expr, known func(notation.Expr) (expr.Rat, bool), onCall func(*notation.Call, notation.Expr), onName func(*notation.Name)) {
	var visit func(e notation.Expr) bool
	walk := func(e notation.Expr) { notation.Walk(e, visit) }
	visit = func(e notation.Expr) bool {
		switch e := e.(type) {
		case *notation.Name:
			if onName != nil {
				onName(e)
			}
		case *notation.If:
			if k, ok := known(e.Cond); ok {
				if k.N != 0 {
					walk(e.Then)
				} else {
					walk(e.Else)
				}
				return false
			}
		case *notation.Call:
			if !notation.PoolFunction(e.Name) || len(e.Args) == 0 {
				return true
			}
			pool := e.Args[0]
			if f, ok := pool.(*notation.Filter); ok {
				pool = f.Pool
				// The compared value: its own pool reads are part of
				// this statistic (count(pool == highest(pool))).
				if _, own := ownExtreme(f); !own {
					walk(f.Value)
				}
			}
			onCall(e, pool)
			if d, ok := pool.(*notation.Dice); ok {
				walk(d) // names inside the dice term
			}
			for _, a := range e.Args[1:] {
				walk(a)
			}
			return false
		case *notation.Lookup:
			if k, ok := known(e.X); ok {
				walk(caseOf(e, k))
				return false
			}
		}
		return true
	}
	walk(e)
}

// spec assembles the record from the components and the outputs.
func (c *compiler) spec(r *Rule) (*mechanics.Spec, error) {
	// Outputs first: they may add fields (a random output written in
	// place).
	type out struct {
		d    Def
		e    expr.Expr
		band []string
	}
	var vars, events, bands []out
	isEvent := false // the last output compiled is already true/false
	compileOut := func(d Def) (expr.Expr, error) {
		v, err := c.compile(d.X)
		if err != nil {
			return nil, ruleError(d, err)
		}
		if v.kind == rnd && !c.used[d.Name] {
			v = c.field(v, d.Name, d.Doc)
		}
		isEvent = v.event
		return c.asDet(v), nil
	}
	for _, d := range r.Vars {
		e, err := compileOut(d)
		if err != nil {
			return nil, err
		}
		vars = append(vars, out{d: d, e: e})
		if c.used[d.Name] {
			c.bindOutput(d.Name, e) // a field's name: read the expression
		} else {
			// Later outputs read the variable by name: computed once per
			// outcome, not again inside every event that uses it.
			c.bindOutput(d.Name, expr.F(d.Name))
		}
	}
	for _, d := range r.Events {
		e, err := compileOut(d)
		if err != nil {
			return nil, err
		}
		if !isEvent {
			e = expr.Ne(e, expr.K(0)) // a number: true when not 0
		}
		events = append(events, out{d: d, e: e})
	}
	for _, b := range r.Bands {
		e, err := compileOut(b.Def)
		if err != nil {
			return nil, err
		}
		bands = append(bands, out{d: b.Def, e: e, band: b.Labels})
	}
	spec, err := c.assemble()
	if err != nil {
		return nil, r.fail("%v", err)
	}
	for _, v := range vars {
		spec.Var(v.d.Name, docOr(v.d), v.e)
	}
	for _, v := range events {
		spec.Event(v.d.Name, docOr(v.d), v.e)
	}
	for _, b := range bands {
		spec.Band(b.d.Name, docOr(b.d), b.band, b.e)
	}
	if len(spec.Vars) == 0 && len(spec.Events) == 0 && len(spec.Bands) == 0 {
		return nil, r.fail("the rule reports nothing: give it vars, events or bands")
	}
	return spec, nil
}

// bindOutput lets the outputs after a variable read it by name (events
// and bands on a variable, a variable on an earlier one).
func (c *compiler) bindOutput(name string, e expr.Expr) {
	if _, ok := c.binds[name]; ok {
		return // the variable restates a binding of the same name
	}
	if _, ok := c.params[name]; ok {
		return
	}
	c.binds[name] = detV(e)
	c.names = append(c.names, name)
}

func docOr(d Def) string {
	if d.Doc != "" {
		return d.Doc
	}
	return d.Src
}

// assemble builds the outcome record (one field per random part) and the
// node that rolls every part, independently.
func (c *compiler) assemble() (*mechanics.Spec, error) {
	if len(c.comps) == 0 {
		// Nothing random: one constant field.
		c.comps = append(c.comps, component{node: mechanics.Const{V: 0}, fields: []mechanics.Field{mechanics.Int(c.fresh("const"), 0, 0, "no roll")}})
	}
	var fields []mechanics.Field
	for _, cp := range c.comps {
		fields = append(fields, cp.fields...)
	}
	rec, err := mechanics.MakeRecord(fields...)
	if err != nil {
		return nil, fmt.Errorf("the rule's random parts are too many or too wide to hold jointly (%v): bind fewer rolls to names, or sum them in one expression", err)
	}
	var outcome mechanics.Node
	for i, cp := range c.comps {
		put := c.putter(rec, cp)
		if i == 0 {
			start := rec.Start()
			outcome = mechanics.Map{X: cp.node, Name: "record", F: func(v int) int { return put(start, v) }}
			continue
		}
		outcome = mechanics.Combine{X: outcome, Y: cp.node, Name: "record", F: put}
	}
	return &mechanics.Spec{Record: rec, Outcome: outcome}, nil
}

// putter writes a component's value into a record code.
func (c *compiler) putter(rec *mechanics.Record, cp component) func(code, v int) int {
	if cp.sub == nil {
		s := rec.Slot(cp.fields[0].Name)
		return func(code, v int) int { return s.Set(code, v) }
	}
	var from, to []mechanics.Slot
	for _, f := range cp.fields {
		from, to = append(from, cp.sub.Slot(f.Name)), append(to, rec.Slot(f.Name))
	}
	return func(code, v int) int {
		for i := range from {
			code = to[i].Set(code, from[i].Get(v))
		}
		return code
	}
}
