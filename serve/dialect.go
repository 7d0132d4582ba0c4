package serve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// exprReading is how a configuration's expression was read: its text as
// sent, the dialect it was read in, and oddsmith's form of it — the
// expression computed (Roll20's 3d6>3 is 3d6cs>=3).
type exprReading struct {
	Text      string `json:"text"`
	Dialect   string `json:"dialect"`
	Title     string `json:"title"`
	Canonical string `json:"canonical"`
}

// warning is a form of the text sent that another dice tool reads with
// another meaning (notation.Readings, rules.Rule.Readings), at its place in
// that text (line and col from 1; col 0 where only the line is known), with
// the line the command line warns with, without its "oddsmith: warning: ".
type warning struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// strictNote ends the message of a form --strict refuses.
const strictNote = " (--strict refuses what another dice tool reads otherwise)"

// dialectOf is the dialect a configuration names, refused as the command
// line's --dialect is.
func dialectOf(cf *config) (notation.Dialect, error) {
	d, err := notation.DialectNamed(cf.Dialect)
	if err != nil {
		return 0, mechanics.Invalid("--dialect: %v", err)
	}
	return d, nil
}

// readExpr reads a configuration's expression as its dialect says, as the
// command line's --expr and --dialect do: the text to compute (oddsmith's
// form of a text in another dialect, the text itself in oddsmith's), how
// it was read, and in oddsmith's own dialect the forms another tool reads
// otherwise (an error instead when the request is strict). A text that
// does not parse in oddsmith's dialect is left to the lookup, which says
// why; in another dialect its error is said here.
func readExpr(cf *config) (string, *exprReading, []warning, error) {
	d, err := dialectOf(cf)
	if err != nil {
		return "", nil, nil, err
	}
	src := cf.Expr
	rd := &exprReading{Text: src, Dialect: d.String(), Title: d.Title()}
	if d != notation.Oddsmith {
		x, err := notation.ParseIn(src, d)
		if err != nil {
			return "", nil, nil, mechanics.Invalid("--expr: %w (read as %s)", err, d.Title())
		}
		rd.Canonical = notation.String(x)
		return rd.Canonical, rd, []warning{}, nil
	}
	x, err := notation.Parse(src)
	if err != nil {
		return src, rd, []warning{}, nil
	}
	rd.Canonical = notation.String(x)
	rs := notation.Readings(src, x)
	if cf.strict && len(rs) > 0 {
		more := ""
		if len(rs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(rs)-1)
		}
		return "", nil, nil, &strictError{warning{rs[0].Pos.Line, rs[0].Pos.Col, "--expr: " + rs[0].String() + more + strictNote}}
	}
	ws := []warning{}
	for _, r := range rs {
		ws = append(ws, warning{r.Pos.Line, r.Pos.Col, "--expr: " + r.String()})
	}
	return src, rd, ws, nil
}

// ruleWarnings are the readings of a rule text's rules (each
// "FILE:LINE: rule id, vars.x: …"), placed at their lines of the text read
// as file; an error instead when the request is strict.
func ruleWarnings(readings []string, file string, strict bool) ([]warning, error) {
	ws := []warning{}
	for i, r := range readings {
		line := 0
		if rest, ok := strings.CutPrefix(r, file+":"); ok {
			if n, _, ok := strings.Cut(rest, ":"); ok {
				line, _ = strconv.Atoi(n)
			}
		}
		if strict {
			more := ""
			if len(readings) > i+1 {
				more = fmt.Sprintf(" (and %d more)", len(readings)-i-1)
			}
			return nil, &strictError{warning{line, 0, r + more + strings.TrimSuffix(strictNote, ")") + "; a rule's dialect = \"roll20\" reads it as Roll20 does)"}}
		}
		ws = append(ws, warning{line, 0, r})
	}
	return ws, nil
}

// strictError is a form that another dice tool reads otherwise, refused
// because the request is strict: bad input, at its place in the text.
type strictError struct{ at warning }

func (e *strictError) Error() string { return e.at.Message }

// Unwrap makes it bad input (mechanics.IsInput).
func (e *strictError) Unwrap() error {
	return &mechanics.InputError{Err: fmt.Errorf("%s", e.at.Message)}
}
