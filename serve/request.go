package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/study"
)

// config names what to run, as a command line does: exactly one of a
// mechanic id, a one-line expression and the text of a rule file (with the
// id of one of its rules, which may be left out when it has one), and the
// settings on top of the defaults.
type config struct {
	Mechanic string   `json:"mechanic"`
	Expr     string   `json:"expr"`
	Rules    *string  `json:"rules"`
	Rule     string   `json:"rule"`
	Set      settings `json:"set"`
	// Dialect is whose meaning Expr has, as --dialect says: oddsmith
	// (the default, also ""), roll20, foundry or dice-roller. A rule text
	// says its own in each [[rule]] (dialect = "…").
	Dialect string `json:"dialect"`
	// strict is the request's: a form another dice tool reads otherwise
	// is refused instead of warned about.
	strict bool
}

// named reports whether the configuration names a mechanic.
func (c *config) named() bool { return c.Mechanic != "" || c.Expr != "" || c.Rules != nil }

// request is the body of every POST: a configuration and what each
// endpoint takes beyond it. Unknown fields are refused.
type request struct {
	config
	Engine    string   `json:"engine"`
	Trials    *int64   `json:"trials"`
	Seed      *uint64  `json:"seed"`
	A         *config  `json:"a"`
	B         *config  `json:"b"`
	Vary      []string `json:"vary"`
	Metric    []string `json:"metric"`
	Delta     string   `json:"delta"`
	Target    []string `json:"target"`
	Minimize  string   `json:"minimize"`
	Maximize  string   `json:"maximize"`
	Tolerance *float64 `json:"tolerance"`
	Strict    bool     `json:"strict"`
}

// settings are "name=value" settings in the order given: a JSON object
// {"skill": 3, "opt.tie": "success"} (numbers as written, or words), or a
// list ["skill=3", "opt.tie=success"].
type settings []string

func (s *settings) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*s = nil
		return nil
	}
	if len(b) > 0 && b[0] == '[' {
		var list []string
		if err := json.Unmarshal(b, &list); err != nil {
			return errors.New(`"set" must be an object {"name": value, …} or a list ["name=value", …]`)
		}
		*s = list
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New(`"set" must be an object {"name": value, …} or a list ["name=value", …]`)
	}
	var out settings
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		switch v := v.(type) {
		case json.Number:
			out = append(out, name+"="+v.String())
		case string:
			out = append(out, name+"="+v)
		case bool:
			out = append(out, name+"="+strconv.FormatBool(v))
		default:
			return fmt.Errorf(`"set": %s must be a number or a word`, name)
		}
	}
	*s = out
	return nil
}

// decode reads a request's body: at most MaxBody bytes (413 beyond), one
// JSON object with known fields only (400 otherwise).
func decode(w http.ResponseWriter, r *http.Request) (*request, error) {
	body := http.MaxBytesReader(w, r.Body, MaxBody)
	data, err := io.ReadAll(body)
	if err != nil {
		var mb *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mb):
			return nil, &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is over %d bytes", MaxBody)}
		case errors.As(err, &ne) && ne.Timeout():
			return nil, &apiError{http.StatusRequestTimeout, "the request was not read in time: " + oneLine(err.Error())}
		}
		return nil, &apiError{http.StatusBadRequest, "cannot read the request: " + oneLine(err.Error())}
	}
	var req request
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, mechanics.Invalid("malformed JSON request: %v", err)
	}
	if dec.More() {
		return nil, mechanics.Invalid("malformed JSON request: more than one JSON value")
	}
	for _, c := range []*config{&req.config, req.A, req.B} {
		if c != nil {
			c.strict = req.Strict
		}
		if c != nil && c.Rules != nil && len(*c.Rules) > MaxRuleText {
			return nil, &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the rule text is %d bytes: at most %d", len(*c.Rules), MaxRuleText)}
		}
		if c != nil && len(c.Expr) > MaxRuleText {
			return nil, &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the expression is %d bytes: at most %d", len(c.Expr), MaxRuleText)}
		}
	}
	return &req, nil
}

// target is a configuration resolved: the mechanic, its settings, and the
// words of a command line that name both.
type target struct {
	m    *mechanics.Mechanic
	c    mechanics.Config
	args []string // "ag.skill_test" | "--expr" E [--dialect D] | "--rules" FILE ID, [--strict], then "--set" name=value …
	// expr is how an expression was read (nil without one); warnings
	// are the forms of the expression or the rule text that another dice
	// tool reads otherwise.
	expr     *exprReading
	warnings []warning
	// dialect and strict are the command line's --dialect and --strict
	// (flags), kept apart from args: a comparison takes them once.
	dialect notation.Dialect
	strict  bool
}

// about adds how the configuration was read to an answer: "expr" (with an
// expression) and "warnings".
func (t *target) about(out map[string]any) map[string]any {
	if t.expr != nil {
		out["expr"] = t.expr
	}
	out["warnings"] = t.warnings
	return out
}

// RulesFile is the name a request's rule text is read under: the rule's
// id and .toml, the name the page downloads the text as, so that the
// command it shows runs on that file (B's text of a comparison of two
// texts is id.b.toml).
func RulesFile(id, suffix string) string { return id + suffix + ".toml" }

// resolve finds a configuration's mechanic and applies its settings, as
// the command line does (study.Lookup, Mechanic.Configure). A rule text is
// laid over the built-in mechanics only, as --rules FILE alone would be,
// and named RulesFile(id, suffix).
func (s *Server) resolve(cf *config, suffix string) (*target, error) {
	t, err := s.lookup(cf, suffix)
	if err != nil {
		return nil, err
	}
	t.args = append(t.args, t.flags()...)
	return t, t.configure(cf.Set)
}

// flags are the command line's --dialect (with an expression in another
// dialect than oddsmith's) and --strict, as the request asks.
func (t *target) flags() []string {
	var out []string
	if t.dialect != notation.Oddsmith {
		out = append(out, "--dialect", t.dialect.String())
	}
	if t.strict {
		out = append(out, "--strict")
	}
	return out
}

// lookup finds a configuration's mechanic (resolve without the settings).
func (s *Server) lookup(cf *config, suffix string) (*target, error) {
	t := &target{warnings: []warning{}, strict: cf.strict}
	var err error
	if _, err := dialectOf(cf); err != nil {
		return nil, err
	}
	switch {
	case cf.Rules != nil && (cf.Mechanic != "" || cf.Expr != ""):
		return nil, mechanics.Invalid("give one of a mechanic, an expression and rule text, not several")
	case cf.Rules != nil:
		var readings []string
		if t.m, t.args, readings, err = s.ruleText(*cf.Rules, cf.Rule, suffix); err != nil {
			return nil, err
		}
		if t.warnings, err = ruleWarnings(readings, t.args[1], cf.strict); err != nil {
			return nil, err
		}
	case cf.Expr != "":
		var ids []string
		if cf.Mechanic != "" {
			ids = []string{cf.Mechanic}
		}
		src, rd, ws, err := readExpr(cf)
		if err != nil {
			return nil, err
		}
		if t.m, err = study.Lookup(s.reg, ids, src); err != nil {
			return nil, err
		}
		t.expr, t.warnings = rd, ws
		t.dialect, _ = dialectOf(cf)
		t.args = []string{"--expr", cf.Expr}
	default:
		var ids []string
		if cf.Mechanic != "" {
			ids = []string{cf.Mechanic}
		}
		if t.m, err = study.Lookup(s.reg, ids, ""); err != nil {
			return nil, err
		}
		t.args = []string{t.m.ID}
		if s.fromFiles[t.m.ID] {
			t.args = []string{"--rules", t.m.RuleSource, t.m.ID}
		}
	}
	return t, nil
}

// configure applies settings to the mechanic's defaults.
func (t *target) configure(set settings) error {
	var err error
	if t.c, err = t.m.Configure(set); err != nil {
		return err
	}
	for _, kv := range set {
		t.args = append(t.args, "--set", kv)
	}
	return nil
}

// ruleText reads a rule file's text and picks the rule named id (or its
// one rule), read as the file RulesFile(id, suffix).
func (s *Server) ruleText(text, id, suffix string) (*mechanics.Mechanic, []string, []string, error) {
	if id == "" {
		// Read it once to learn the id: the file is named after it.
		rs, err := rules.ParseFile("rules.toml", []byte(text))
		if err == nil && len(rs) != 1 {
			var ids []string
			for _, r := range rs {
				ids = append(ids, r.ID)
			}
			return nil, nil, nil, mechanics.Invalid("the rule text defines %d rules (%s): name one in \"rule\"", len(rs), strings.Join(ids, ", "))
		}
		if err == nil {
			id = rs[0].ID
		} else {
			id = "rules"
		}
	}
	file := RulesFile(id, suffix)
	rs, err := rules.ParseFile(file, []byte(text))
	if err != nil {
		return nil, nil, nil, err
	}
	var ms []*mechanics.Mechanic
	var readings []string
	for _, r := range rs {
		ms = append(ms, r.Mechanic())
		readings = append(readings, r.Readings...)
	}
	reg, err := s.base.Overlay(ms)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := study.Lookup(reg, []string{id}, "")
	if err != nil {
		return nil, nil, nil, err
	}
	return m, []string{"--rules", file, id}, readings, nil
}

// engineOf is the engine a request asks for (kind when it names none),
// with the trials and seed of a simulation (defaults: trials, seed 1), and
// the flags that say so on a command line (flag: "--engine" or "").
func (s *Server) engineOf(req *request, kind engine.Kind, trials int64, flag bool) (study.Engine, []string, error) {
	if req.Engine != "" {
		kind = engine.Kind(req.Engine)
	}
	if kind != engine.Exact && kind != engine.Sim {
		return study.Engine{}, nil, mechanics.Invalid("unknown engine %q (want exact or sim)", req.Engine)
	}
	e := study.Engine{Kind: kind, Trials: trials, Seed: 1, MemoryBytes: s.opt.MemoryBytes}
	if req.Trials != nil {
		e.Trials = *req.Trials
	}
	if req.Seed != nil {
		e.Seed = *req.Seed
	}
	var args []string
	if flag && kind == engine.Sim {
		args = append(args, "--engine", "sim")
	}
	if kind == engine.Sim {
		if e.Trials < 1 || e.Trials > study.MaxTrials {
			return study.Engine{}, nil, mechanics.Invalid("--trials must be between 1 and %d, got %d", study.MaxTrials, e.Trials)
		}
		args = append(args, "-n", strconv.FormatInt(e.Trials, 10), "-s", strconv.FormatUint(e.Seed, 10))
	}
	return e, args, nil
}

// command is a command line of words, quoted for a POSIX shell where
// needed.
func command(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellQuote(w)
	}
	return "oddsmith " + strings.Join(q, " ")
}

// shellQuote quotes a word for a POSIX shell when it holds anything but
// letters, digits and -_./=:,+@%.
func shellQuote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
