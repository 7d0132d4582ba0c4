package rules

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/oddsmith/oddsmith/internal/suggest"
	"github.com/oddsmith/oddsmith/internal/tomlscan"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// A rule file is TOML: one [[rule]] table per rule, its parameters, its
// bindings in order (let), and what it reports (vars, events, bands):
//
//	[[rule]]
//	id = "house.check"
//	summary = "d20 + bonus against a target number"
//
//	[rule.params]
//	bonus = { default = 3, min = -10, max = 20, doc = "the roller's bonus" }
//	tn    = { default = 12, min = 1, max = 40 }
//
//	[rule.let]
//	nat   = "d20"
//	total = "nat + bonus"
//
//	[rule.events]
//	success = "total >= tn or nat == 20"
//	crit    = { expr = "nat == 20", doc = "a natural 20" }
//
//	[rule.vars]
//	margin = "total - tn"
//
//	[rule.bands]
//	degree = { expr = "clamp((total - tn) // 5 + 2, 0, 4)", labels = ["bad failure", "failure", "success", "good", "great"] }
//
// A rule with a [rule.process] table goes on over time (see ProcessDef).

// MaxFileSize bounds a rule file.
const MaxFileSize = 1 << 20

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$`)

// LoadFile reads a rule file.
func LoadFile(path string) ([]*Rule, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, mechanics.Invalid("cannot read rules: %v", err)
	}
	if st.Size() > MaxFileSize {
		return nil, mechanics.Invalid("%s: a rule file may be at most %d bytes", path, MaxFileSize)
	}
	if st.IsDir() {
		return nil, mechanics.Invalid("cannot read rules: %s is a directory", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, mechanics.Invalid("cannot read rules: %v", err)
	}
	defer f.Close()
	// A device or a pipe has no size to check first: read one byte past
	// the limit at most.
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, mechanics.Invalid("cannot read rules: %v", err)
	}
	if len(src) > MaxFileSize {
		return nil, mechanics.Invalid("%s: a rule file may be at most %d bytes", path, MaxFileSize)
	}
	return ParseFile(path, src)
}

// ParseFile reads the text of a rule file named file (the name its errors
// give): Parse, and a file holds nothing but [[rule]] tables.
func ParseFile(file string, src []byte) ([]*Rule, error) {
	rs, _, _, err := parse(file, src, true)
	return rs, err
}

type rawRules struct {
	Rule []map[string]any `toml:"rule"`
}

func decodeRules(src []byte) (rawRules, toml.MetaData, error) {
	var raw rawRules
	md, err := toml.Decode(string(src), &raw)
	return raw, md, err
}

// Parse reads the [[rule]] tables of a TOML source (a rule file, or a
// plan that defines rules inline); other top-level keys are left to the
// caller. Every rule is compiled at its defaults before it is returned, so
// a rule that does not compile is an error here, with its place.
func Parse(file string, src []byte) ([]*Rule, error) {
	rs, _, _, err := parse(file, src, false)
	return rs, err
}

// ScanTOML checks a TOML source against the limits of package tomlscan
// (depth, keys, key length) before it is parsed: the error names the file,
// the line and the limit. Plans use it too.
func ScanTOML(file string, src []byte) (*tomlscan.Doc, error) {
	doc, err := tomlscan.Scan(src)
	if err != nil {
		var le *tomlscan.LimitError
		if errors.As(err, &le) {
			return nil, mechanics.Invalid("%s:%d: %s", file, le.Line, le.Msg)
		}
		return nil, mechanics.Invalid("%s: %v", file, err)
	}
	return doc, nil
}

// parse is Parse that also returns the TOML metadata (its keys) and the
// document's shape (the line of every key). A rule file (alone) holds
// [[rule]] tables only: any other key, dotted or in a table of its own,
// is refused before any rule is read.
func parse(file string, src []byte, alone bool) ([]*Rule, toml.MetaData, *tomlscan.Doc, error) {
	doc, err := ScanTOML(file, src)
	if err != nil {
		return nil, toml.MetaData{}, nil, err
	}
	raw, md, err := decodeRules(src)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, md, doc, &mechanics.InputError{Err: &placed{line: pe.Position.Line, col: pe.Position.Col,
				msg: fmt.Sprintf("%s:%d: %s", file, pe.Position.Line, strings.ReplaceAll(pe.Message, "\n", " "))}}
		}
		// A value of the wrong kind (rule = 3): say what a rule is.
		return nil, md, doc, mechanics.Invalid("%s:%d: rule must be a table of tables ([[rule]] with id = …, [rule.vars], …)", file, max(1, doc.Line("rule")))
	}
	for _, k := range md.Undecoded() {
		if !alone {
			break // a plan's keys are the plan's to check
		}
		if k[0] == "rule" {
			continue // checked against the shape of a rule
		}
		msg := fmt.Sprintf("unknown key %q: a rule file holds [[rule]] tables", k.String())
		if s := suggest.Closest(k[0], []string{"rule"}); s != "" {
			msg += fmt.Sprintf(" — did you mean %q?", strings.Join(append([]string{s}, k[1:]...), "."))
		}
		return nil, md, doc, mechanics.Invalid("%s:%d: %s", file, max(1, doc.KeyLine(k)), msg)
	}
	if doc.Tables("rule") < len(raw.Rule) {
		// rule = [ … ] written inline: the rules have no lines of their own.
		return nil, md, doc, mechanics.Invalid("%s:%d: write each rule as a [[rule]] table (id = …, [rule.vars], …), not rule = [ … ]", file, max(1, doc.Line("rule")))
	}
	// The order of keys within each rule (TOML tables are unordered maps;
	// bindings are not), the tables a dotted key makes included.
	order := make([]map[string][]string, len(raw.Rule))
	idx := -1
	var seen map[[2]string]bool
	for _, k := range md.Keys() {
		if len(k) == 0 || k[0] != "rule" {
			continue
		}
		if len(k) == 1 {
			idx++
			order[idx], seen = map[string][]string{}, map[[2]string]bool{}
			continue
		}
		for j := 2; j < len(k) && idx >= 0; j++ {
			parent := strings.Join(k[1:j], ".")
			if !seen[[2]string{parent, k[j]}] {
				seen[[2]string{parent, k[j]}] = true
				order[idx][parent] = append(order[idx][parent], k[j])
			}
		}
	}
	var out []*Rule
	ids := map[string]bool{}
	for i, t := range raw.Rule {
		rd := &ruleReader{file: file, i: i, t: t, order: order[i], doc: doc, names: map[string]string{}}
		r, err := rd.rule()
		if err != nil {
			return nil, md, doc, err
		}
		if ids[r.ID] {
			return nil, md, doc, mechanics.Invalid("%s:%d: rule %s is defined twice", file, rd.line(), r.ID)
		}
		ids[r.ID] = true
		out = append(out, r)
	}
	return out, md, doc, nil
}

// ruleReader reads one [[rule]] table of a file, section by section: the
// table, where its keys are (their order and lines), and the names the
// rule has bound so far.
type ruleReader struct {
	file  string
	i     int // the rule's index in the file
	t     map[string]any
	order map[string][]string // the keys of each table in the order written ("params", "process.state")
	doc   *tomlscan.Doc       // the line of every key
	id    string
	names map[string]string // name → what it is, to refuse clashes
	// process is set for a rule with [rule.process], whose outputs read
	// time and the state: names no parameter or binding may take.
	inProcess bool
	cur       *Rule // the rule read so far (its header)
}

// at is a place in the file: "house.toml:12".
func (rd *ruleReader) at(line int) string { return fmt.Sprintf("%s:%d", rd.file, line) }

// fail is an error of the rule at a line of its file.
func (rd *ruleReader) fail(line int, format string, a ...any) error {
	return mechanics.Invalid("%s: %w", rd.at(line), fmt.Errorf(format, a...))
}

// line is the line of the rule's [[rule]].
func (rd *ruleReader) line() int { return max(1, rd.doc.Line("rule", rd.i)) }

// key is the line of a key of the rule (a path: "params", "bonus"), or of
// the nearest table around it that is written.
func (rd *ruleReader) key(path ...string) int {
	p := []any{"rule", rd.i}
	for _, k := range path {
		p = append(p, k)
	}
	return max(1, rd.doc.Line(p...))
}

// at is the line of a path within the rule (keys and array indexes).
func (rd *ruleReader) lineOf(path []any) int {
	return max(1, rd.doc.Line(append([]any{"rule", rd.i}, path...)...))
}

// str is a string key of the rule ("" when absent).
func (rd *ruleReader) str(k string) (string, error) {
	v, ok := rd.t[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", rd.fail(rd.line(), "rule %d: %s must be a string", rd.i+1, k)
	}
	return s, nil
}

// table is a table of the rule ([rule.k]; nil when absent).
func (rd *ruleReader) table(k string) (map[string]any, error) {
	v, ok := rd.t[k]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, rd.fail(rd.line(), "rule %s: %s must be a table ([rule.%s])", rd.id, k, k)
	}
	return m, nil
}

// claim binds a name the rule's expressions read (a parameter, a binding,
// a state variable), refusing one the notation cannot read, a reserved
// word and a name bound already.
func (rd *ruleReader) claim(line int, name, what string) error {
	if !notation.IsName(name) {
		return rd.fail(line, "rule %s: %q is not a name the notation can read (letters, digits, _; not a keyword or a die like d6)", rd.id, name)
	}
	if why := reserved(name); why != "" {
		return rd.fail(line, "rule %s: %s %q %s: give it another name", rd.id, what, name, why)
	}
	if rd.inProcess && (name == "time" || name == "state") {
		return rd.fail(line, "rule %s: %s %q: %s is reserved in a process (its outputs read time and the state): give it another name", rd.id, what, name, name)
	}
	if prev, ok := rd.names[name]; ok {
		return rd.fail(line, "rule %s: %s %s clashes with %s %s", rd.id, what, name, prev, name)
	}
	rd.names[name] = what
	return nil
}

// rule reads the rule, section by section, and compiles it at its
// defaults.
func (rd *ruleReader) rule() (*Rule, error) {
	if err := ruleShape.check(nil, rd.t); err != nil {
		who := fmt.Sprintf("rule %d", rd.i+1)
		if id, ok := rd.t["id"].(string); ok && idPattern.MatchString(id) {
			who = "rule " + id
		}
		return nil, rd.fail(rd.lineOf(err.path), "%s: %s", who, err.msg)
	}
	_, rd.inProcess = rd.t["process"]
	r, err := rd.header()
	if err != nil {
		return nil, err
	}
	if r.Params, err = rd.params(); err != nil {
		return nil, err
	}
	if _, ok := rd.t["process"]; ok {
		if r.Process, err = rd.process(); err != nil {
			return nil, err
		}
	}
	if r.Lets, _, err = rd.defs("let"); err != nil {
		return nil, err
	}
	if err := rd.next(r.Process); err != nil {
		return nil, err
	}
	if r.Vars, _, err = rd.defs("vars"); err != nil {
		return nil, err
	}
	if r.Events, _, err = rd.defs("events"); err != nil {
		return nil, err
	}
	bands, labels, err := rd.defs("bands")
	if err != nil {
		return nil, err
	}
	for j, b := range bands {
		r.Bands = append(r.Bands, BandDef{Def: b, Labels: labels[j]})
	}
	if len(r.Vars)+len(r.Events)+len(r.Bands) == 0 && r.Process == nil {
		return nil, rd.fail(rd.line(), "rule %s reports nothing: give it [rule.vars], [rule.events] or [rule.bands]", rd.id)
	}
	// Compile once at the defaults: errors surface now, with their place.
	c, err := r.Mechanic().Configure(nil)
	if err != nil {
		return nil, err
	}
	if _, err := r.Build(c); err != nil {
		return nil, err
	}
	return r, nil
}

// header reads the rule's id, summary and doc.
func (rd *ruleReader) header() (*Rule, error) {
	id, err := rd.str("id")
	if err != nil {
		return nil, err
	}
	if !idPattern.MatchString(id) {
		return nil, rd.fail(rd.line(), "rule %d: id %q must be lower-case words joined by dots, like house.check", rd.i+1, id)
	}
	rd.id = id
	r := &Rule{ID: id, Source: rd.file, Line: rd.line()}
	if r.Summary, err = rd.str("summary"); err != nil {
		return nil, err
	}
	if r.Doc, err = rd.str("doc"); err != nil {
		return nil, err
	}
	if r.Summary == "" {
		r.Summary = "a designer's rule from " + rd.file
	}
	dialect, err := rd.str("dialect")
	if err != nil {
		return nil, err
	}
	if r.Dialect, err = notation.DialectNamed(dialect); err != nil {
		return nil, rd.fail(rd.key("dialect"), "rule %s: dialect: %v", id, err)
	}
	rd.cur = r
	return r, nil
}

// params reads [rule.params] in the order written.
func (rd *ruleReader) params() ([]mechanics.Param, error) {
	ps, err := rd.table("params")
	if err != nil {
		return nil, err
	}
	var out []mechanics.Param
	for _, name := range rd.order["params"] {
		line := rd.key("params", name)
		if err := rd.claim(line, name, "parameter"); err != nil {
			return nil, err
		}
		p, err := paramOf(name, ps[name])
		if err != nil {
			return nil, rd.fail(line, "rule %s: parameter %s: %v", rd.id, name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// next reads [rule.next]: the next state of the rule's process (pd), which
// it needs.
func (rd *ruleReader) next(pd *ProcessDef) error {
	nexts, _, err := rd.defs("next")
	if err != nil {
		return err
	}
	switch {
	case pd != nil:
		pd.Next = nexts
		if err := pd.checkNext(); err != nil {
			return rd.fail(rd.key("next", ""), "rule %s: %v", rd.id, err)
		}
	case len(nexts) > 0:
		return rd.fail(rd.key("next", nexts[0].Name), "rule %s: [rule.next] belongs to a process: add [rule.process]", rd.id)
	}
	return nil
}

// defWhat names what a definition of each table is, in errors.
var defWhat = map[string]string{"let": "binding", "next": "next state", "vars": "variable", "events": "event", "bands": "band"}

// defs reads the definitions of a table (let, next, vars, events, bands)
// in the order written, and the labels of each band (nil for the others).
func (rd *ruleReader) defs(k string) ([]Def, [][]string, error) {
	m, err := rd.table(k)
	if err != nil {
		return nil, nil, err
	}
	var out []Def
	var labels [][]string
	for _, name := range rd.order[k] {
		line := rd.key(k, name)
		if k == "let" {
			if err := rd.claim(line, name, defWhat[k]); err != nil {
				return nil, nil, err
			}
		} else if !notation.IsName(name) {
			return nil, nil, rd.fail(line, "rule %s: %q is not a valid output name", rd.id, name)
		}
		d, ls, err := rd.def(k, name, line, m[name])
		if err != nil {
			return nil, nil, err
		}
		out = append(out, d)
		labels = append(labels, ls)
	}
	return out, labels, nil
}

// def reads one definition of table k: an expression in quotes, or
// { expr = "…", doc = "…" } (and labels = […] for a band).
func (rd *ruleReader) def(k, name string, line int, v any) (Def, []string, error) {
	d := Def{Name: name, Where: fmt.Sprintf("%s: rule %s, %s.%s", rd.at(line), rd.id, k, name)}
	var ls []string
	switch v := v.(type) {
	case string:
		d.Src = v
	case map[string]any:
		for _, kk := range slices.Sorted(maps.Keys(v)) {
			if kk != "expr" && kk != "doc" && !(k == "bands" && kk == "labels") {
				return Def{}, nil, rd.fail(line, "rule %s: %s.%s: unknown key %q (want expr, doc%s)", rd.id, k, name, kk,
					map[bool]string{true: ", labels", false: ""}[k == "bands"])
			}
		}
		s, ok := v["expr"].(string)
		if !ok {
			return Def{}, nil, rd.fail(line, "rule %s: %s.%s needs expr = \"…\"", rd.id, k, name)
		}
		d.Src = s
		if doc, ok := v["doc"].(string); ok {
			d.Doc = doc
		}
		if k == "bands" {
			var err error
			if ls, err = rd.labels(name, line, v["labels"]); err != nil {
				return Def{}, nil, err
			}
		}
	default:
		return Def{}, nil, rd.fail(line, "rule %s: %s.%s must be an expression in quotes or { expr = \"…\", doc = \"…\" }", rd.id, k, name)
	}
	if k == "bands" && ls == nil {
		return Def{}, nil, rd.fail(line, "rule %s: band %s needs labels (write it as { expr = \"…\", labels = [\"…\", …] })", rd.id, name)
	}
	x, src, err := rd.parse(d.Src)
	if err != nil {
		return Def{}, nil, rd.fail(line, "rule %s, %s.%s: %w", rd.id, k, name, err)
	}
	if rd.cur.Dialect == notation.Oddsmith {
		for _, r := range notation.Readings(d.Src, x) {
			rd.cur.Readings = append(rd.cur.Readings, fmt.Sprintf("%s: rule %s, %s.%s: %s", rd.at(line), rd.id, k, name, r.Msg))
		}
	}
	d.Src, d.X = src, x
	return d, ls, nil
}

// parse reads an expression of the rule in its dialect: the tree and
// the text in oddsmith's form (src itself in oddsmith's dialect).
func (rd *ruleReader) parse(src string) (notation.Expr, string, error) {
	d := notation.Oddsmith
	if rd.cur != nil {
		d = rd.cur.Dialect
	}
	x, err := notation.ParseIn(src, d)
	switch {
	case err != nil && d != notation.Oddsmith:
		return nil, "", fmt.Errorf("%w (read as %s)", err, d.Title())
	case err != nil:
		return nil, "", err
	case d != notation.Oddsmith:
		src = notation.String(x)
	}
	return x, src, nil
}

// labels reads a band's labels = ["…", …].
func (rd *ruleReader) labels(name string, line int, v any) ([]string, error) {
	raw, ok := v.([]any)
	if !ok || len(raw) == 0 {
		return nil, rd.fail(line, "rule %s: band %s needs labels = [\"…\", …]", rd.id, name)
	}
	var ls []string
	for _, l := range raw {
		s, ok := l.(string)
		if !ok {
			return nil, rd.fail(line, "rule %s: band %s: labels must be strings", rd.id, name)
		}
		ls = append(ls, s)
	}
	return ls, nil
}

// paramOf reads a parameter: a number (its default) or a table with
// default, min, max, doc and real.
func paramOf(name string, v any) (mechanics.Param, error) {
	p := mechanics.Param{Name: name, Doc: "a parameter of the rule", Min: -1e6, Max: 1e6}
	num := func(x any) (float64, bool) {
		switch x := x.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, !math.IsNaN(x) && !math.IsInf(x, 0)
		}
		return 0, false
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if !slices.Contains([]string{"default", "min", "max", "doc", "real"}, k) {
				return p, fmt.Errorf("unknown key %q (want default, min, max, doc, real)", k)
			}
		}
		d, ok := num(v["default"])
		if !ok {
			return p, fmt.Errorf("needs a default (a finite number)")
		}
		p.Default = d
		if x, ok := v["min"]; ok {
			if p.Min, ok = num(x); !ok {
				return p, fmt.Errorf("min must be a finite number")
			}
		}
		if x, ok := v["max"]; ok {
			if p.Max, ok = num(x); !ok {
				return p, fmt.Errorf("max must be a finite number")
			}
		}
		if doc, ok := v["doc"].(string); ok {
			p.Doc = doc
		}
		if real, ok := v["real"].(bool); ok {
			p.Real = real
		}
	default:
		d, ok := num(v)
		if !ok {
			return p, fmt.Errorf("give a default number, or { default = …, min = …, max = … }")
		}
		p.Default = d
	}
	if p.Min > p.Max {
		return p, fmt.Errorf("min %g is above max %g", p.Min, p.Max)
	}
	if p.Default < p.Min || p.Default > p.Max {
		return p, fmt.Errorf("default %g is outside [%g, %g]", p.Default, p.Min, p.Max)
	}
	if !p.Real && (p.Default != math.Trunc(p.Default) || p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max)) {
		return p, fmt.Errorf("a whole-number parameter needs whole default, min and max (or real = true)")
	}
	return p, nil
}
