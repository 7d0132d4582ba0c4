package mechanics

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Spec is the declared model a builder returns: the outcome record, the
// random variable that produces it (Outcome) or the process whose path
// produces it (Process), and what to report. Exactly one of Outcome and
// Process is set; a Process spec gets its record from ProcessSpec.
type Spec struct {
	// Record declares the fields of an outcome; Outcome yields encoded
	// records (see Record and Slot).
	Record  *Record
	Outcome Node
	Process *Process
	// Vars are reported distributions; the first is the primary one.
	Vars   []Var
	Events []Event
	Bands  []Band
	// Also lists further models of the same mechanic, computed and
	// simulated on their own, whose outputs are reported beside this
	// spec's: for quantities whose joint distribution would be too large
	// to hold (the lifetime of an item with its successful uses, and apart
	// from them the count of its repairs). Every output's distribution is
	// exact, but outputs of different parts must not be read jointly. A
	// part has no parts of its own, and only the main spec's process gives
	// the survival and absorption figures.
	Also []*Spec
	// NoExact, when set, says why the exact engine refuses this
	// configuration (a chain too long for it to follow in reasonable time)
	// while the simulator runs it: a model is still built, so `sim` works
	// where `exact` would take too long. The exact engine answers it as bad
	// input with the advice to simulate. For a simulator-only mechanic
	// (Mechanic.MCOnly) it says what MCReason comes to at this
	// configuration: the size of the model built, from the model. describe
	// shows it in its engines line either way.
	NoExact string
}

// Parts lists the spec and its Also parts, the spec first.
func (s *Spec) Parts() []*Spec { return append([]*Spec{s}, s.Also...) }

// Var is a reported distribution: an expression over the record's fields.
type Var struct {
	Name, Doc string
	// Unit names the unit of the values, for axis labels ("wounds", "m").
	Unit string
	Expr expr.Expr
	// When, if set, says where the variable is defined (the time of
	// absorption is defined only for a process absorbed within its
	// horizon). Elsewhere the result counts the mass apart, as Undefined,
	// labelled by Otherwise ("not absorbed within 12 tests"), and the
	// statistics are those given that the variable is defined.
	When      expr.Expr
	Otherwise string
	// Given, if set, makes the variable a conditional one: its
	// distribution is reported given that Given holds (non-zero). Outcomes
	// where it does not are left out, and the masses of the rest, its
	// values and its undefined mass (When), are divided by P(Given): they
	// sum to 1. GivenLabel names the condition for reports ("contracted").
	Given      expr.Expr
	GivenLabel string
}

// Event is a reported probability: an expression that is true (non-zero)
// or false.
type Event struct {
	Name, Doc string
	Expr      expr.Expr
}

// Band is a reported categorical distribution: an expression whose value is
// the index of one of the labels.
type Band struct {
	Name, Doc string
	Labels    []string
	Expr      expr.Expr
}

// Report adds one output per named field, by its kind: an Int or Scaled
// field becomes a variable, a Flag an event, an Enum a band, each with the
// field's name and doc. It panics on an unknown field.
func (s *Spec) Report(fields ...string) *Spec {
	for _, name := range fields {
		i := s.Record.Index(name)
		if i < 0 {
			panic("mechanics: Report: record has no field " + name)
		}
		f := s.Record.Fields[i]
		switch f.Kind {
		case FlagField:
			s.Events = append(s.Events, Event{Name: f.Name, Doc: f.Doc, Expr: expr.F(f.Name)})
		case EnumField:
			s.Bands = append(s.Bands, Band{Name: f.Name, Doc: f.Doc, Labels: f.Labels, Expr: expr.F(f.Name)})
		default:
			s.Vars = append(s.Vars, Var{Name: f.Name, Doc: f.Doc, Unit: f.Unit, Expr: expr.F(f.Name)})
		}
	}
	return s
}

// Var appends a variable.
func (s *Spec) Var(name, doc string, e expr.Expr) *Spec {
	s.Vars = append(s.Vars, Var{Name: name, Doc: doc, Expr: e})
	return s
}

// Event appends an event.
func (s *Spec) Event(name, doc string, e expr.Expr) *Spec {
	s.Events = append(s.Events, Event{Name: name, Doc: doc, Expr: e})
	return s
}

// Band appends a band.
func (s *Spec) Band(name, doc string, labels []string, e expr.Expr) *Spec {
	s.Bands = append(s.Bands, Band{Name: name, Doc: doc, Labels: labels, Expr: e})
	return s
}

// Check reports a spec that does not hold together: no model or two, an
// output with no expression, an expression naming no field, duplicate output
// names.
func (s *Spec) Check() error {
	names := map[string]bool{}
	for i, part := range s.Parts() {
		if (part.Outcome == nil) == (part.Process == nil) {
			return fmt.Errorf("a model needs exactly one of an outcome and a process")
		}
		if i > 0 && len(part.Also) > 0 {
			return fmt.Errorf("a part of a model cannot have parts of its own")
		}
		if part.Process != nil {
			if err := part.Process.Validate(); err != nil {
				return err
			}
		}
		if _, err := part.Compile(); err != nil {
			return err
		}
		for _, n := range part.outputNames() {
			if names[n] {
				return fmt.Errorf("two parts of the model report %s", n)
			}
			names[n] = true
		}
	}
	return nil
}

func (s *Spec) outputNames() []string {
	var out []string
	for _, v := range s.Vars {
		out = append(out, "variable "+v.Name)
	}
	for _, e := range s.Events {
		out = append(out, "event "+e.Name)
	}
	for _, b := range s.Bands {
		out = append(out, "band "+b.Name)
	}
	return out
}

// Outputs is a spec's outputs compiled against its record: for one encoded
// outcome, the value of every variable, event and band.
//
// An expression may name a record field or a variable of the spec (fields
// first): "success = mos >= 1" reads the variable mos. Variables are
// evaluated in an order where each follows those it names; a cycle is an
// error.
type Outputs struct {
	spec   *Spec
	nf     int
	order  []int // variables in evaluation order
	vars   []expr.Program
	whens  []*expr.Program // nil where a variable is always defined
	givens []*expr.Program // nil where a variable is not conditional
	given  []bool          // whether each variable's condition holds at the last outcome (Eval)
	events []expr.Program
	bands  []expr.Program
	vals   []expr.Rat
}

// Compile resolves every output expression against the record and the
// spec's variables.
func (s *Spec) Compile() (*Outputs, error) {
	o := &Outputs{spec: s}
	if s.Record == nil {
		return nil, fmt.Errorf("the model declares no outcome record")
	}
	o.nf = len(s.Record.Fields)
	o.vals = make([]expr.Rat, o.nf+len(s.Vars))
	varIndex := map[string]int{}
	for i, v := range s.Vars {
		if _, dup := varIndex[v.Name]; dup {
			return nil, fmt.Errorf("two variables named %s", v.Name)
		}
		varIndex[v.Name] = i
	}
	resolve := func(name string) (int, bool) {
		if i := s.Record.Index(name); i >= 0 {
			return i, true
		}
		if i, ok := varIndex[name]; ok {
			return o.nf + i, true
		}
		return 0, false
	}
	// Order the variables so that each follows the variables it names.
	state := make([]int, len(s.Vars)) // 0 new, 1 visiting, 2 done
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 1:
			return fmt.Errorf("variable %s depends on itself", s.Vars[i].Name)
		case 2:
			return nil
		}
		state[i] = 1
		if s.Vars[i].Expr == nil {
			return fmt.Errorf("variable %s: missing expression", s.Vars[i].Name)
		}
		for _, r := range expr.Refs(s.Vars[i].Expr) {
			if s.Record.Index(r) < 0 {
				if j, ok := varIndex[r]; ok {
					if err := visit(j); err != nil {
						return err
					}
				}
			}
		}
		state[i] = 2
		o.order = append(o.order, i)
		return nil
	}
	for i := range s.Vars {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	compile := func(kind, name string, e expr.Expr) (expr.Program, error) {
		if seen[kind+name] {
			return expr.Program{}, fmt.Errorf("two %ss named %s", kind, name)
		}
		seen[kind+name] = true
		p, err := expr.Compile(e, resolve)
		if err != nil {
			return p, fmt.Errorf("%s %s: %w", kind, name, err)
		}
		return p, nil
	}
	for _, v := range s.Vars {
		p, err := compile("variable", v.Name, v.Expr)
		if err != nil {
			return nil, err
		}
		o.vars = append(o.vars, p)
		var w *expr.Program
		if v.When != nil {
			wp, err := expr.Compile(v.When, resolve)
			if err != nil {
				return nil, fmt.Errorf("variable %s: when: %w", v.Name, err)
			}
			w = &wp
		}
		o.whens = append(o.whens, w)
		var g *expr.Program
		if v.Given != nil {
			gp, err := expr.Compile(v.Given, resolve)
			if err != nil {
				return nil, fmt.Errorf("variable %s: given: %w", v.Name, err)
			}
			g = &gp
		}
		o.givens = append(o.givens, g)
	}
	o.given = make([]bool, len(s.Vars))
	for _, e := range s.Events {
		p, err := compile("event", e.Name, e.Expr)
		if err != nil {
			return nil, err
		}
		o.events = append(o.events, p)
	}
	for _, b := range s.Bands {
		if len(b.Labels) == 0 {
			return nil, fmt.Errorf("band %s has no labels", b.Name)
		}
		p, err := compile("band", b.Name, b.Expr)
		if err != nil {
			return nil, err
		}
		o.bands = append(o.bands, p)
	}
	return o, nil
}

// Eval computes the outputs of one encoded outcome into vars, events and
// bands (lengths as in the spec), and into defined whether each variable is
// defined there (see Var.When; defined may be nil). It is not safe for
// concurrent use.
func (o *Outputs) Eval(code int, vars []expr.Rat, events []bool, bands []int, defined []bool) error {
	s := o.spec
	s.Record.Values(code, o.vals[:o.nf])
	for _, i := range o.order {
		v, err := o.vars[i].Eval(o.vals)
		if err != nil {
			return fmt.Errorf("variable %s at %s: %w", s.Vars[i].Name, s.Record.Format(code), err)
		}
		o.vals[o.nf+i] = v
		vars[i] = v
	}
	for i, w := range o.whens {
		if defined == nil {
			break
		}
		defined[i] = true
		if w != nil {
			v, err := w.Eval(o.vals)
			if err != nil {
				return fmt.Errorf("variable %s (when) at %s: %w", s.Vars[i].Name, s.Record.Format(code), err)
			}
			defined[i] = v.N != 0
		}
	}
	for i, g := range o.givens {
		o.given[i] = true
		if g != nil {
			v, err := g.Eval(o.vals)
			if err != nil {
				return fmt.Errorf("variable %s (given) at %s: %w", s.Vars[i].Name, s.Record.Format(code), err)
			}
			o.given[i] = v.N != 0
		}
	}
	for i, p := range o.events {
		v, err := p.Eval(o.vals)
		if err != nil {
			return fmt.Errorf("event %s at %s: %w", s.Events[i].Name, s.Record.Format(code), err)
		}
		events[i] = v.N != 0
	}
	for i, p := range o.bands {
		v, err := p.Eval(o.vals)
		if err != nil {
			return fmt.Errorf("band %s at %s: %w", s.Bands[i].Name, s.Record.Format(code), err)
		}
		if !v.IsInt() || v.N < 0 || v.N >= int64(len(s.Bands[i].Labels)) {
			return fmt.Errorf("band %s at %s: value %s is not one of its %d labels", s.Bands[i].Name, s.Record.Format(code), v, len(s.Bands[i].Labels))
		}
		bands[i] = int(v.N)
	}
	return nil
}

// InGiven reports whether variable i's condition (Var.Given) holds at the
// outcome Eval last computed; true for a variable that is not
// conditional.
func (o *Outputs) InGiven(i int) bool { return o.given[i] }

// Fingerprint is the stable identity of a model: a hash of its canonical
// text (see Canonical). Two results with the same fingerprint were computed
// from the same model by the same version of oddsmith.
func Fingerprint(canonical string) string {
	h := sha256.Sum256([]byte(canonical))
	return "sha256:" + hex.EncodeToString(h[:16])
}

// Canonical is the canonical text of a model: the oddsmith version, the
// mechanic id (or a rule's canonical text), the parameters and the options
// in declaration order with their values printed in one way.
func Canonical(id string, params []NamedValue, options []NamedString) string {
	var b strings.Builder
	fmt.Fprintf(&b, "oddsmith %s\n%s\n", Version, id)
	for _, p := range params {
		fmt.Fprintf(&b, "%s=%s\n", p.Name, FormatNum(p.Value))
	}
	for _, o := range options {
		fmt.Fprintf(&b, "%s=%s\n", o.Name, o.Value)
	}
	return b.String()
}

// Version is oddsmith's version, recorded in every result and in its
// fingerprint.
const Version = "0.1.0"

// NamedValue is a parameter and its value; Means, when the value is one
// of the parameter's Sentinels, says what it stands for ("the preset's").
type NamedValue struct {
	Name  string
	Value float64
	Means string
}

// NamedString is an option and its value.
type NamedString struct {
	Name, Value string
}

// Settings lists c's parameters and options in declaration order, as
// results report them.
func (m *Mechanic) Settings(c Config) ([]NamedValue, []NamedString) {
	var params []NamedValue
	var options []NamedString
	for _, p := range m.Params {
		v := c.Params[p.Name]
		params = append(params, NamedValue{Name: p.Name, Value: v, Means: p.Sentinels[v]})
	}
	for _, o := range m.Options {
		options = append(options, NamedString{Name: o.Name, Value: c.Options[o.Name]})
	}
	return params, options
}

// Fingerprint is the fingerprint of m's model at c: the hash of the
// canonical text of its id (with a rule's canonical text) and settings.
func (m *Mechanic) Fingerprint(c Config) string {
	id := m.ID
	if m.RuleText != "" {
		id += "\n" + m.RuleText
	}
	params, options := m.Settings(c)
	return Fingerprint(Canonical(id, params, options))
}
