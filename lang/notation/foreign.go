package notation

import (
	"regexp"
	"strings"
)

// foreignForm is a way of writing dice that belongs to another dice
// language: text that does not parse here and matches re is said to look
// like that language, and the message points to its section of
// docs/translating.md.
type foreignForm struct {
	looks, anchor string // "AnyDice syntax", "troll"
	re            *regexp.Regexp
	// may is a quick test that src can match re at all (a substring
	// every match holds), so that most failed parses skip the regexp.
	may func(src string) bool
}

// holdsAny reports whether src holds one of the words.
func holdsAny(src string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

// foreignForms are checked in order; the first that matches names the
// language. They are only consulted once a parse has failed, so a form
// that is also valid here (sum (4d6), a parameter named output) never
// gets a hint.
var foreignForms = []foreignForm{
	// Roll20's and Foundry's chat: /r 4d6kh3, [[1d20+5]].
	{"a Roll20 or Foundry chat roll: write the dice alone (4d6kh3, not /r 4d6kh3 or [[4d6kh3]]);", "foundry-vtt-and-roll20", regexp.MustCompile(`^\s*/(r|roll|gmr|gmroll|gr|br|w)\s|\[\[`),
		func(src string) bool { return holdsAny(src, "/", "[[") }},
	// AnyDice: output …, [highest 3 of 4d6], function: …, named "…",
	// loop N over …, set "…" to …, 1@3d6, X: 4d6.
	{"AnyDice syntax:", "anydice", regexp.MustCompile(`(?m)^\s*output\s+[\w\[{("]|\[\s*[a-z]+\b|\bfunction\s*:|\bnamed\s+"|\bloop\s+[A-Za-z]+\s+over\b` +
		`|\bset\s+"|\d\s*@|^\s*[A-Z][A-Z0-9_]*\s*:\s*[^=\s]`),
		func(src string) bool {
			return holdsAny(src, "output", "[", "function", "named", "loop", "set", "@", ":")
		}},
	// Troll: x := d20, accumulate/repeat/foreach, and its prefix
	// operators written without parentheses (sum largest 3 4d6,
	// count 5<=8d10, max 2d20, count different 5d6).
	{"Troll syntax:", "troll", regexp.MustCompile(`:=|\b(accumulate|repeat|foreach)\s+[A-Za-z]` +
		`|\b(sum|count|largest|least|max|min|maximal|minimal|choose|pick|different|median)\s+(\d|\{|(largest|least|different|accumulate|repeat|max|min)\b|\d*d\d)`),
		func(src string) bool {
			return strings.Contains(src, ":=") || strings.ContainsAny(src, " \t\n\r\f\v") && holdsAny(src, "accumulate", "repeat", "foreach", "sum", "count", "largest", "least", "max", "min", "choose", "pick", "different", "median")
		}},
}

// foreignHint is " — this looks like AnyDice syntax: see
// docs/translating.md#anydice" (or Troll's, or a chat roll's) when src is
// written in another dice language's style, or "".
func foreignHint(src string) string {
	for _, f := range foreignForms {
		if f.may(src) && f.re.MatchString(src) {
			return " — this looks like " + f.looks + " see docs/translating.md#" + f.anchor
		}
	}
	return ""
}

// withForeignHint adds foreignHint(src) to a syntax error's message, once,
// unless the message names the construct and its row of
// docs/translating.md already (hints.go: "AnyDice's function call …").
func withForeignHint(err *SyntaxError, src string) *SyntaxError {
	h := foreignHint(src)
	if h == "" || strings.HasSuffix(err.Msg, h) || strings.Contains(err.Msg, translating) {
		return err
	}
	return &SyntaxError{Pos: err.Pos, Msg: err.Msg + h}
}
