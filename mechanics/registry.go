package mechanics

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Param is one numeric parameter of a mechanic.
type Param struct {
	Name     string
	Doc      string
	Default  float64
	Min, Max float64
	// Real allows non-integer values; parameters are integers otherwise.
	Real bool
}

// Option is one ambiguity switch of mechanics.md (`<id>.opt.<name>`). The
// first value is the default.
type Option struct {
	// Name is the full spec name, e.g. "ag.core.opt.tie".
	Name   string
	Doc    string
	Values []string
}

// Short is the name after ".opt." ("tie" for "ag.core.opt.tie"), or, for a
// named choice that is not an ambiguity switch ("ag.fall_damage.surface"),
// the name after the last dot.
func (o Option) Short() string {
	if i := strings.LastIndex(o.Name, ".opt."); i >= 0 {
		return o.Name[i+len(".opt."):]
	}
	return o.Name[strings.LastIndex(o.Name, ".")+1:]
}

// IsChoice reports a named choice (set by its bare name, like a parameter)
// rather than an ambiguity switch.
func (o Option) IsChoice() bool { return !strings.Contains(o.Name, ".opt.") }

// Default is the first value.
func (o Option) Default() string { return o.Values[0] }

// Mechanic is one registered mechanic of mechanics.md.
type Mechanic struct {
	ID      string
	Summary string
	Doc     string
	Params  []Param
	Options []Option
	// Outputs lists what the mechanic reports, for describe.
	Outputs []string
	// MCOnly is set when only the simulator can compute the mechanic; the
	// reason is given in MCReason.
	MCOnly   bool
	MCReason string
	Build    func(Config) (*Spec, error)
}

// Config holds the parameter and option values a model is built from.
type Config struct {
	Params  map[string]float64
	Options map[string]string // keyed by the option's full name
}

// Int returns an integer parameter.
func (c Config) Int(name string) int { return int(c.Params[name]) }

// Float returns a parameter.
func (c Config) Float(name string) float64 { return c.Params[name] }

// Opt returns an option value by full or short name. It panics if the short
// name is unknown or matches more than one option (map order must never
// decide which value a builder reads).
func (c Config) Opt(name string) string {
	if v, ok := c.Options[name]; ok {
		return v
	}
	found, value := 0, ""
	for k, v := range c.Options {
		if strings.HasSuffix(k, ".opt."+name) || (!strings.Contains(k, ".opt.") && strings.HasSuffix(k, "."+name)) {
			found, value = found+1, v
		}
	}
	switch found {
	case 0:
		panic("mechanics: unknown option " + name)
	case 1:
		return value
	}
	panic("mechanics: ambiguous option " + name)
}

// Spec is what a builder returns: the model and what to report.
// Exactly one of Outcome and Process is set.
type Spec struct {
	// Outcome is one integer random variable; every reported quantity is a
	// function of it (several correlated results are packed into it).
	Outcome Node
	Process *Process
	// Vars are derived integer variables; the first is the primary one.
	Vars   []Var
	Events []Event
	Bands  []Bands
}

// Var is an integer function of the outcome.
type Var struct {
	Name, Doc string
	Of        func(o int) int
}

// Event is a yes/no function of the outcome.
type Event struct {
	Name, Doc string
	Of        func(o int) bool
}

// Bands is a categorical function of the outcome, values 0..len(Labels)-1.
type Bands struct {
	Name   string
	Labels []string
	Of     func(o int) int
}

var registry = map[string]*Mechanic{}

// Register adds a mechanic; it panics on a duplicate id or a bad definition.
func Register(m *Mechanic) {
	if _, dup := registry[m.ID]; dup {
		panic("mechanics: duplicate mechanic " + m.ID)
	}
	for _, o := range m.Options {
		if len(o.Values) == 0 {
			panic("mechanics: option " + o.Name + " has no values")
		}
	}
	for _, p := range m.Params {
		if p.Default < p.Min || p.Default > p.Max {
			panic("mechanics: default of " + m.ID + "." + p.Name + " out of range")
		}
	}
	registry[m.ID] = m
}

// Lookup finds a mechanic by id.
func Lookup(id string) (*Mechanic, error) {
	if m, ok := registry[id]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown mechanic %q (run 'oddsmith list')", id)
}

// All returns every mechanic sorted by id.
func All() []*Mechanic {
	out := make([]*Mechanic, 0, len(registry))
	for _, m := range registry {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// DefaultConfig is the configuration with every default.
func (m *Mechanic) DefaultConfig() Config {
	c := Config{Params: map[string]float64{}, Options: map[string]string{}}
	for _, p := range m.Params {
		c.Params[p.Name] = p.Default
	}
	for _, o := range m.Options {
		c.Options[o.Name] = o.Default()
	}
	return c
}

// findParam resolves "skill" or "ag.skill_test.skill".
func (m *Mechanic) findParam(name string) *Param {
	name = strings.TrimPrefix(name, m.ID+".")
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}

// findOption resolves "opt.tie", the full name "ag.core.opt.tie" and
// "<id>.opt.tie"; a bare "tie" is not accepted (it could shadow a parameter),
// except for named choices ("surface=grass").
func (m *Mechanic) findOption(name string) *Option {
	// The mechanic's own switches win over shared ones with the same short
	// name (ag.initiative.opt.tie over ag.core.opt.tie).
	for _, own := range []bool{true, false} {
		for i := range m.Options {
			o := &m.Options[i]
			if strings.HasPrefix(o.Name, m.ID+".") != own {
				continue
			}
			if name == o.Name || name == "opt."+o.Short() || name == m.ID+".opt."+o.Short() || (o.IsChoice() && name == o.Short()) {
				return o
			}
		}
	}
	return nil
}

// Set applies one "name=value" setting to c.
func (m *Mechanic) Set(c Config, kv string) error {
	name, val, ok := strings.Cut(kv, "=")
	name, val = strings.TrimSpace(name), strings.TrimSpace(val)
	if !ok || name == "" {
		return fmt.Errorf("setting %q is not of the form name=value", kv)
	}
	if p := m.findParam(name); p != nil {
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: parameter %s=%q is not a number", m.ID, p.Name, val)
		}
		if !p.Real && v != math.Trunc(v) {
			return fmt.Errorf("%s: parameter %s=%s must be a whole number", m.ID, p.Name, val)
		}
		if v < p.Min || v > p.Max {
			return fmt.Errorf("%s: parameter %s=%s out of range [%s, %s]", m.ID, p.Name, val, FormatNum(p.Min), FormatNum(p.Max))
		}
		c.Params[p.Name] = v
		return nil
	}
	if o := m.findOption(name); o != nil {
		for _, allowed := range o.Values {
			if val == allowed {
				c.Options[o.Name] = val
				return nil
			}
		}
		return fmt.Errorf("%s: option %s=%q is not one of %s", m.ID, o.Name, val, strings.Join(o.Values, ", "))
	}
	return fmt.Errorf("%s: unknown parameter or option %q (run 'oddsmith describe %s')", m.ID, name, m.ID)
}

// Configure starts from the defaults and applies settings in order.
func (m *Mechanic) Configure(settings []string) (Config, error) {
	c := m.DefaultConfig()
	for _, kv := range settings {
		if err := m.Set(c, kv); err != nil {
			return c, err
		}
	}
	return c, nil
}

// FormatNum prints a number without a trailing ".0".
func FormatNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// IntParam declares an integer parameter.
func IntParam(name string, def, lo, hi float64, doc string) Param {
	return Param{Name: name, Default: def, Min: lo, Max: hi, Doc: doc}
}

// Switch declares an ambiguity switch "<id>.opt.<name>"; the first value is
// the default.
func Switch(id, name, doc string, values ...string) Option {
	return Option{Name: id + ".opt." + name, Doc: doc, Values: values}
}

// Choice declares a named choice "<id>.<name>", set as name=value.
func Choice(id, name, doc string, values ...string) Option {
	return Option{Name: id + "." + name, Doc: doc, Values: values}
}

// System returns the mechanics of one system ("ag", "grim", …) sorted by id.
func System(prefix string) []*Mechanic {
	var out []*Mechanic
	for _, m := range All() {
		if strings.HasPrefix(m.ID, prefix+".") {
			out = append(out, m)
		}
	}
	return out
}
