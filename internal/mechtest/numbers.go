package mechtest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oddsmith/oddsmith/mechanics"
)

// A mechanic's texts must not state a value for a settable parameter that
// is not its default: a summary saying "VS 20" while the checks use the
// parameter vs is wrong as soon as vs is not 20 — and wrong at the
// defaults if the default is not 20. StatedNumbers finds where a text
// (the summary, the doc, an option's doc) states a number for a parameter,
// by the parameter's name or the symbol its doc declares:
//
//	<name or symbol> <number>     "VS 20", "at Stamina 10", "TN 11 by default"
//	<name or symbol> = <number>   "k = 2" (but "k=2", a setting, is a case)
//	<number> <Name or Symbol>     "at 10 Stamina", "has 20 Health" (capitalised,
//	                              after at, has, of, from, starting: an
//	                              amount, "costs 5 Vigor", is no setting)
//
// A symbol is declared by a parameter's doc as a short token after a
// noun ("Durability U", "victory sum VS", "sum M of …", "k: …"). Single
// lowercase letters (a, k, r) count only in the "=" form: in prose they are
// words. A number is not a value stated for the parameter when it is
//
//   - signed ("flesh −1", "Condition −1 a turn"): a change or a modifier;
//   - part of a range, a list or an expression ("COR 1–2", "days 15, 29",
//     "vs 10 + |c|", "2–12 combatants");
//   - a rate ("1 Vigor per 5 Stamina", "6 damage a round");
//   - a case: after "with", "if", "for", "when", "unless", "where", "from" in its
//     clause ("with rounds = 1 the PMF is reported"), or a setting written
//     name=value;
//   - the parameter's minimum or maximum (a limit: "up to 12 combatants"),
//     or outside its range (a state of the quantity the parameter starts
//     or bounds: "at 0 Health", "a revived character has Condition 1");
//   - a value other than the default that the parameter's own doc names
//     (its special values: "0 rolls two dice and keeps the lowest");
//   - inside a command (oddsmith …) or inline code, which other tests run.
//
// What is left is a claim. DefaultMismatches lists those whose number is
// not the parameter's default; Frozen those that state the default without
// saying so ("VS 20" where "VS vs, 20 by default" is meant): a text should
// not freeze a settable number. A text that means a fixed number of the
// rules where a parameter shares its name should say so another way
// ("a MND roll vs TN 11", not "a MND 11 roll").

// Stated is a number a mechanic's text states for a parameter.
type Stated struct {
	Text    string // "summary", "doc", "option NAME"
	Phrase  string // as written: "VS 20"
	Param   string
	Value   float64
	Default float64
	// SaysDefault: the clause says the number is the default ("TN 11 by
	// default").
	SaysDefault bool
}

func (s Stated) String() string {
	return fmt.Sprintf("%s says %q, but %s defaults to %s", s.Text, s.Phrase, s.Param, mechanics.FormatNum(s.Default))
}

// symbolsOf are the names a parameter goes by in prose: its name and the
// symbols its doc declares.
func symbolsOf(p mechanics.Param) []string {
	names := []string{p.Name}
	doc := p.Doc
	// "k: characters …": the doc opens with its symbol.
	if head, _, ok := strings.Cut(doc, ":"); ok && isSymbol(head) {
		names = append(names, head)
	}
	for _, m := range declared.FindAllStringSubmatch(doc, -1) {
		if isSymbol(m[1]) {
			names = append(names, m[1])
		}
	}
	// One name once: names of more than one letter match in any case.
	var out []string
	for _, n := range names {
		if !slices.ContainsFunc(out, func(o string) bool { return o == n || (utf8.RuneCountInString(n) > 1 && strings.EqualFold(o, n)) }) {
			out = append(out, n)
		}
	}
	return out
}

// declared finds a symbol after a word: "Durability U", "sum M of",
// "threat width w:", "group size g (", "starting Condition c₀".
var declared = regexp.MustCompile(`(?:^|\s)\p{L}{3,}\s(\p{L}{1,3}(?:_[a-z]+|[₀-₉]+)?)(?:$|[,:;]|\s\(|\s(?:of|=|in)\s)`)

// isSymbol: a token of at most three letters (Latin or Greek) with an
// optional subscript, that is a single letter or starts with a capital.
func isSymbol(s string) bool {
	base := strings.TrimRight(s, "₀₁₂₃₄₅₆₇₈₉")
	if i := strings.IndexByte(base, '_'); i > 0 {
		base = base[:i]
	}
	n := utf8.RuneCountInString(base)
	if n == 0 || n > 3 {
		return false
	}
	for _, r := range base {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	first, _ := utf8.DecodeRuneInString(base)
	return n == 1 || (unicode.IsUpper(first) && strings.ToUpper(base) == base)
}

var (
	number   = `(\d+(?:\.\d+)?)`
	cmdOrTic = regexp.MustCompile("`[^`]*`|oddsmith [^.;)]*")
	// After the number: a range, a list, an expression or a sign-like
	// continuation makes it no single value.
	continued = regexp.MustCompile(`^(?:\s*[–…+−×·*/^]|\.\.|\s*-\s*\d|,\s*\d|\s+(?:per|a|an|each|every|back)\b|d\d|%|[\p{L}\d_])`)
	// Before the name: a case or a rate.
	casePrefix = regexp.MustCompile(`(?i)\b(?:with|if|for|when|unless|where|from|per)\s+(?:\S+\s+){0,2}$`)
	// Before "<number> <Name>": the words that make it a setting.
	settingWord = regexp.MustCompile(`(?i)\b(?:at|has|have|had|of|from|starts|starting|start)\s+$`)
	// Before the number (in "<number> <Name>"): a range or a sign.
	signedOrRange = regexp.MustCompile(`(?:[–…+−\-/]|\.\.|per\s)$`)
)

// StatedNumbers lists the numbers m's texts state for its parameters
// (see the comment above for what counts).
func StatedNumbers(m *mechanics.Mechanic) []Stated {
	texts := [][2]string{{"summary", m.Summary}, {"doc", m.Doc}}
	for _, o := range m.Options {
		texts = append(texts, [2]string{"option " + o.Name, o.Doc})
	}
	var out []Stated
	for _, p := range m.Params {
		for _, sym := range symbolsOf(p) {
			for _, t := range texts {
				out = append(out, stated(t[0], cmdOrTic.ReplaceAllStringFunc(t[1], blank), p, sym)...)
			}
		}
	}
	return out
}

// blank keeps a text's length while hiding a command or code in it.
func blank(s string) string { return strings.Repeat(" ", len(s)) }

func stated(where, text string, p mechanics.Param, sym string) []Stated {
	lower := utf8.RuneCountInString(sym) == 1 && unicode.IsLower([]rune(sym)[0])
	flags := "(?i)"
	if utf8.RuneCountInString(sym) == 1 {
		flags = "" // k and K are different symbols
	}
	q := regexp.QuoteMeta(sym)
	word := `(?:^|[^\p{L}\d_.])`
	after := regexp.MustCompile(flags + word + `(` + q + `(\s*=\s*|\s+)` + number + `)`)
	before := regexp.MustCompile(flags + `(?:^|[^\p{L}\d_.])(` + number + `\s+` + q + `)(?:$|[^\p{L}\d_])`)
	var out []Stated
	claim := func(phrase, num string, start, end int) {
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v <= p.Min || v >= p.Max || (v != p.Default && mentions(p.Doc, num)) {
			return
		}
		if continued.MatchString(text[end:]) || casePrefix.MatchString(text[:start]) {
			return
		}
		out = append(out, Stated{Text: where, Phrase: phrase, Param: p.Name, Value: v, Default: p.Default,
			SaysDefault: strings.Contains(clause(text, start, end), "default")})
	}
	for _, m := range after.FindAllStringSubmatchIndex(text, -1) {
		phrase, sep, num := text[m[2]:m[3]], text[m[4]:m[5]], text[m[6]:m[7]]
		if sep == "=" { // name=value: a setting, a case
			continue
		}
		if lower && !strings.Contains(sep, "=") {
			continue // "a 20", "k 3": words, not symbols
		}
		claim(phrase, num, m[2], m[7])
	}
	for _, m := range before.FindAllStringSubmatchIndex(text, -1) {
		phrase, num := text[m[2]:m[3]], text[m[4]:m[5]]
		first, _ := utf8.DecodeRuneInString(text[m[5]:][len(text[m[5]:])-len(strings.TrimLeft(text[m[5]:], " ")):])
		if !unicode.IsUpper(first) || signedOrRange.MatchString(strings.TrimRight(text[:m[4]], " ")) || !settingWord.MatchString(text[:m[2]]) {
			continue // "1 box", "per 5 Stamina", "2–12 combatants", "costs 5 Vigor"
		}
		claim(phrase, num, m[2], m[3])
	}
	return out
}

// clause is the clause of text around start..end: from the last ".", ";"
// or ":" before it to the next after it.
func clause(text string, start, end int) string {
	from := strings.LastIndexAny(text[:start], ".;:") + 1
	to := strings.IndexAny(text[end:], ".;:")
	if to < 0 {
		return text[from:]
	}
	return text[from : end+to]
}

// Frozen lists the numbers m's texts state for a parameter that are its
// default without saying so.
func Frozen(m *mechanics.Mechanic) []Stated {
	var out []Stated
	for _, s := range StatedNumbers(m) {
		if s.Value == s.Default && !s.SaysDefault {
			out = append(out, s)
		}
	}
	return out
}

// mentions reports whether a parameter's doc names the number num (as a
// whole number of its own).
func mentions(doc, num string) bool {
	return regexp.MustCompile(`(?:^|[^\d.])` + regexp.QuoteMeta(num) + `(?:$|[^\d])`).MatchString(doc)
}

// DefaultMismatches lists the numbers m's texts state for a parameter that
// are not its default.
func DefaultMismatches(m *mechanics.Mechanic) []Stated {
	var out []Stated
	for _, s := range StatedNumbers(m) {
		if s.Value != s.Default {
			out = append(out, s)
		}
	}
	return out
}
