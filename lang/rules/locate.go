package rules

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/lang/notation"
)

// placed is an error at a line and column of a rule file's text that its
// message gives only in part (a TOML syntax error: the line).
type placed struct {
	line, col int
	msg       string
}

func (p *placed) Error() string { return p.msg }

// Place is where a problem with a rule's text is: a line and a column of
// the text, both from 1. Col is 0 when only the line is known, and Line 0
// when the problem is with the rule as a whole.
type Place struct{ Line, Col int }

// Locate finds where an error of a rule's text points in that text, for an
// editor to mark: src is the text and file the name it was read as
// (ParseFile), or file is "" for a one-line expression (FromExpr). The
// error may come from reading the text or from building its model (the
// expressions are compiled then, so a name that is not bound is found
// there).
func Locate(err error, file, src string) Place {
	var pl *placed
	if errors.As(err, &pl) {
		return Place{pl.line, pl.col}
	}
	in := exprPos(err)
	if file == "" {
		return Place{in.Line, in.Col}
	}
	line := fileLine(err.Error(), file)
	if line == 0 {
		return Place{}
	}
	lines := strings.Split(src, "\n")
	if in.Line == 0 || line > len(lines) {
		return Place{Line: line}
	}
	start := valueStart(lines[line-1])
	if start == 0 {
		return Place{Line: line}
	}
	if rest := []rune(lines[line-1])[start-1:]; len(strings.TrimSpace(string(rest))) == 0 {
		// A multi-line string whose text starts on the next line (TOML
		// drops the newline right after the opening quotes).
		return Place{line + in.Line, in.Col}
	}
	if in.Line > 1 {
		return Place{line + in.Line - 1, in.Col}
	}
	return Place{line, start + in.Col - 1}
}

// exprPos is the place inside an expression that an error names.
func exprPos(err error) notation.Pos {
	var se *notation.SyntaxError
	if errors.As(err, &se) {
		return se.Pos
	}
	var re *Error
	if errors.As(err, &re) {
		return re.Pos
	}
	return notation.Pos{}
}

// fileLine is the line of "file:LINE: …" at the start of a message, after
// any prefixes of the mechanic that wrap it ("house.check: file:12: …").
func fileLine(msg, file string) int {
	re := regexp.MustCompile(regexp.QuoteMeta(file) + `:(\d+): `)
	m := re.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// exprKey finds the value of an inline table's expr key.
var exprKey = regexp.MustCompile(`\bexpr\s*=\s*("""|'''|"|')`)

// valueStart is the column (from 1) of the first character inside the
// quotes of the expression a line of a rule file defines: name = "…", or
// name = { expr = "…", … }; 0 when the line holds no such string.
func valueStart(line string) int {
	eq := strings.Index(line, "=")
	if eq < 0 {
		return 0
	}
	rest := line[eq+1:]
	at := eq + 1
	if t := strings.TrimSpace(rest); strings.HasPrefix(t, "{") {
		m := exprKey.FindStringSubmatchIndex(rest)
		if m == nil {
			return 0
		}
		return runeCol(line, at+m[3])
	}
	i := strings.IndexAny(rest, `"'`)
	if i < 0 {
		return 0
	}
	q := 1
	if strings.HasPrefix(rest[i:], `"""`) || strings.HasPrefix(rest[i:], `'''`) {
		q = 3
	}
	return runeCol(line, at+i+q)
}

// runeCol is the column (from 1, in characters) of byte offset off.
func runeCol(line string, off int) int { return len([]rune(line[:off])) + 1 }
