package notation

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/internal/suggest"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Limits on the input, so that hostile text can neither hang the parser nor
// exhaust its stack or memory.
const (
	MaxSourceLen = 64 << 10 // bytes of source
	MaxDepth     = 200      // nested parentheses, calls, negations, nots and ifs
)

// funcInfo describes a function: its arity (max < 0: no limit), whether
// its first argument is a pool, whether its only argument is a filter, and
// how its use is written in messages.
type funcInfo struct {
	min, max int
	pool     bool
	filter   bool
	usage    string
}

var funcs = map[string]funcInfo{
	"abs":         {1, 1, false, false, "abs(x)"},
	"floor":       {1, 1, false, false, "floor(x)"},
	"ceil":        {1, 1, false, false, "ceil(x)"},
	"round":       {1, 1, false, false, "round(x)"},
	"min":         {2, -1, false, false, "min(x, y, …)"},
	"max":         {2, -1, false, false, "max(x, y, …)"},
	"clamp":       {3, 3, false, false, "clamp(x, lo, hi)"},
	"highest":     {1, 2, true, false, "highest(pool) or highest(pool, n)"},
	"lowest":      {1, 2, true, false, "lowest(pool) or lowest(pool, n)"},
	"sum":         {1, 1, true, false, "sum(pool)"},
	"count":       {1, 1, false, true, "count(pool >= 5)"},
	"all":         {1, 1, false, true, "all(pool >= 5)"},
	"any":         {1, 1, false, true, "any(pool == 6)"},
	"distinct":    {1, 1, true, false, "distinct(pool)"},
	"largest_set": {1, 1, true, false, "largest_set(pool)"},
	"straight":    {1, 1, true, false, "straight(pool)"},
}

// Functions lists the names that can be called, lookup included, sorted.
func Functions() []string {
	names := []string{"lookup"}
	for n := range funcs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// PoolFunction reports a function that reads a pool die by die (its first
// argument): highest(pool), sum(pool), count(pool >= 5), ….
func PoolFunction(name string) bool {
	f := funcs[name]
	return f.pool || f.filter
}

// Keywords lists the words that are not names: and, or, not, if, then, else.
func Keywords() []string { return slices.Clone(keywords) }

// Parse reads one expression. Its error, if any, is a *SyntaxError.
func Parse(src string) (Expr, error) {
	e, _, err := parse(src)
	return e, err
}

// parse is Parse that also returns the parser's work (see parser.work).
func parse(src string) (e Expr, work int, err error) { return parseIn(src, Oddsmith) }

// parseIn is ParseIn that also returns the parser's work.
func parseIn(src string, dialect Dialect) (e Expr, work int, err error) {
	if len(src) > MaxSourceLen {
		return nil, 0, &SyntaxError{Pos{1, 1, 0}, fmt.Sprintf("the expression is too long: %d bytes, the limit is %d", len(src), MaxSourceLen)}
	}
	if dialect != Oddsmith {
		src = unwrap(src, dialect)
	}
	p := &parser{src: src, positions: newPositions(src), dialect: dialect}
	// A syntax error unwinds the parser's stack as a bailout; any other
	// panic is a bug and goes on.
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			e, work, err = nil, p.work, withForeignHint(b.err, src)
		}
	}()
	x := p.parseExpr()
	if t := p.peek(); t.kind != tEOF && dialect == Roll20 && t.off > 0 && isSpace(p.src[t.off-1]) && t.kind == tIdent {
		// Roll20 shows words after the formula beside the roll.
		return x, p.work, nil
	}
	if t := p.peek(); t.kind != tEOF {
		if msg := p.foreignAfterOperand(t); msg != "" {
			p.failAt(t.off, "%s", msg)
		}
		p.failAt(t.off, "expected an operator or the end of the expression, found %s%s", p.desc(t), p.afterOperand(t))
	}
	return x, p.work, nil
}

type parser struct {
	src     string
	dialect Dialect // whose meaning the text has
	positions
	off   int // where the unread input begins
	depth int

	cache   token // the token at cacheAt, after spaces
	cacheAt int
	cached  bool

	lastName token // the identifier of the last Name read
	comment  int   // the offset of the last comment's "#", plus one; 0: none

	// work counts what the parser has read: the bytes of every token
	// scanned (the spaces before it included) and of every column counted
	// rune by rune, and one for every position found. A bounded number of
	// reads of each byte keeps any input from making parsing quadratic;
	// the tests hold it to that.
	work int
}

// bailout carries a syntax error up the parser's stack to Parse.
type bailout struct{ err *SyntaxError }

func (p *parser) failAt(off int, format string, args ...any) {
	panic(bailout{&SyntaxError{Pos: p.pos(off), Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) desc(t token) string { return describe(p.src, t) }

// pos is the line and column of the byte at off.
func (p *parser) pos(off int) Pos {
	at, read := p.positions.at(off)
	p.work += read
	return at
}

// at is the byte at off, or 0 past the end.
func (p *parser) at(off int) byte {
	if off < len(p.src) {
		return p.src[off]
	}
	return 0
}

// peek is the next token, after any spaces.
func (p *parser) peek() token {
	if p.cached && p.cacheAt == p.off {
		return p.cache
	}
	off := p.skipSpace(p.off)
	p.cache, p.cacheAt, p.cached = scanToken(p.src, off), p.off, true
	p.work += p.cache.end - p.off + 1
	return p.cache
}

// skipSpace is the offset after the spaces, comments and labels at off.
// A comment is a "#" at the start of the input or after a space, and runs
// to the end of its line; a "#" right after another character is a
// success count (3d6#>=5) or an error. A label is "[text]" right after an
// operand (2d6[Fire]); it names nothing yet.
func (p *parser) skipSpace(off int) int {
	for off < len(p.src) {
		switch c := p.src[off]; {
		case isSpace(c):
			off++
		case c == '#' && (off == 0 || isSpace(p.src[off-1])):
			// A comment that begins like a success count (3d6 #>=5)
			// would silently drop the count: refused, not read.
			if rest := strings.TrimLeft(p.src[off+1:], " \t"); off > 0 && rest != "" && strings.ContainsRune("<>=", rune(rest[0])) {
				p.failAt(off, "a # after a space starts a comment, but %q reads like a success count: write it right after the dice (3d6#>=5), or put words after the # of a comment", "#"+firstLine(p.src[off+1:]))
			}
			p.comment = off + 1
			for off < len(p.src) && p.src[off] != '\n' {
				off++
			}
		default:
			return off
		}
	}
	return off
}

// next consumes the next token.
func (p *parser) next() token {
	t := p.peek()
	p.off = t.end
	return t
}

// expect consumes the token text or fails with "expected …, found …".
func (p *parser) expect(text, what string) token {
	t := p.peek()
	if !t.is(text) {
		p.failAt(t.off, "expected %s, found %s", what, p.desc(t))
	}
	return p.next()
}

// closing consumes the token that closes the bracket open at off.
func (p *parser) closing(close string, open int) {
	t := p.peek()
	if !t.is(close) {
		op := p.pos(open)
		if t.kind == tEOF && p.comment > open {
			p.failAt(t.off, "expected %q to close the %q at line %d, column %d, found end of input — the comment at %s runs to the end of its line: close the %q before the #",
				close, p.src[open:open+1], op.Line, op.Col, p.pos(p.comment-1), p.src[open:open+1])
		}
		p.failAt(t.off, "expected %q to close the %q at line %d, column %d, found %s%s",
			close, p.src[open:open+1], op.Line, op.Col, p.desc(t), p.afterOperand(t))
	}
	p.next()
}

func (p *parser) enter(off int) {
	p.depth++
	if p.depth > MaxDepth {
		p.failAt(off, "the expression is nested too deeply (more than %d levels)", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// foreignAfterOperand is the refusal of another tool's construct found
// where an operator was expected (a comment, a label, a power, AnyDice's
// output), or "".
func (p *parser) foreignAfterOperand(t token) string {
	if n := p.lastName; n.text == "output" && n.end == p.off && t.kind != tOp {
		msg := "AnyDice's output is not needed: oddsmith prints the distribution of the expression itself, so leave output out"
		if t.text == "[" {
			if b := p.bracketMessage(t.off); b != "" {
				msg += "; " + b
			}
		}
		return msg
	}
	switch {
	case t.is("#"):
		return p.commentMessage(t.off)
	case t.text == "[":
		return p.bracketMessage(t.off)
	}
	return ""
}

// afterOperand is a hint for a token found where an operator was expected.
func (p *parser) afterOperand(t token) string {
	if msg := p.foreignAfterOperand(t); msg != "" {
		return " — " + msg
	}
	switch {
	case t.is("="):
		return ` — write "==" to compare`
	case t.is("!"):
		return ` — only dice explode, with "!" right after them (2d6!); "not" negates`
	case t.kind == tDie:
		return " — a dice term is written without spaces (2d6, (n)d6)"
	case t.kind == tIdent:
		if s := didYouMean(t.text, []string{"and", "or", "then", "else"}); s != "" {
			return s
		}
		if isModWord(t.text) {
			return " — dice modifiers follow the dice without a space (4d6kh3)"
		}
		if t.text[0] == 'D' && dieStart("d"+t.text[1:], 0) {
			return ` — dice are written with a lowercase "d" (2d6)`
		}
	}
	// The operand just read was a name: "iff x" misspells a keyword,
	// "a.b" is not a name.
	if n := p.lastName; n.end == p.off && n.end > 0 {
		if t.is(".") {
			return ` — names cannot contain "."`
		}
		if t.kind == tIdent || t.kind == tNum || t.kind == tDie || t.is("(") {
			if s := suggest.Closest(n.text, []string{"if", "not"}); s != "" {
				return fmt.Sprintf(" — %q is not a keyword: did you mean %q?", n.text, s)
			}
		}
	}
	return ""
}

// isModWord reports a word that reads as a dice modifier (kh3, ro, cs).
func isModWord(w string) bool {
	i := 0
	for i < len(w) && !isDigit(w[i]) {
		i++
	}
	for j := i; j < len(w); j++ {
		if !isDigit(w[j]) {
			return false
		}
	}
	switch w[:i] {
	case "k", "kh", "kl", "dh", "dl", "r", "ro", "cs", "cf", "u", "uo", "mt":
		return true
	}
	return false
}

// parseExpr: expr = "if" expr "then" expr "else" expr | or.
func (p *parser) parseExpr() Expr {
	t := p.peek()
	p.enter(t.off)
	defer p.leave()
	if !t.is("if") {
		return p.parseOr()
	}
	p.next()
	c := p.parseExpr()
	if u := p.peek(); !u.is("then") {
		p.failAt(u.off, "expected %q after the condition of the if at %s, found %s%s",
			"then", p.pos(t.off), p.desc(u), p.keywordHint(u, "then"))
	}
	p.next()
	a := p.parseExpr()
	if u := p.peek(); !u.is("else") {
		p.failAt(u.off, "expected %q after the then branch of the if at %s, found %s%s",
			"else", p.pos(t.off), p.desc(u), p.keywordHint(u, "else"))
	}
	p.next()
	b := p.parseExpr()
	return &If{At: p.pos(t.off), Cond: c, Then: a, Else: b}
}

func (p *parser) keywordHint(t token, want string) string {
	if t.kind == tIdent {
		if s := didYouMean(t.text, []string{want}); s != "" {
			return s
		}
	}
	return p.afterOperand(t)
}

func (p *parser) parseOr() Expr {
	x := p.parseAnd()
	for p.peek().is("or") {
		t := p.next()
		y := p.parseAnd()
		x = &Logic{At: x.Pos(), OpAt: p.pos(t.off), Op: Or, X: x, Y: y}
	}
	return x
}

func (p *parser) parseAnd() Expr {
	x := p.parseNot()
	for p.peek().is("and") {
		t := p.next()
		y := p.parseNot()
		x = &Logic{At: x.Pos(), OpAt: p.pos(t.off), Op: And, X: x, Y: y}
	}
	return x
}

func (p *parser) parseNot() Expr {
	t := p.peek()
	if !t.is("not") {
		return p.parseCompare()
	}
	p.next()
	p.enter(t.off)
	x := p.parseNot()
	p.leave()
	return &Not{At: p.pos(t.off), X: x}
}

func cmpOpOf(t token) (CmpOp, bool) {
	if t.kind != tOp {
		return 0, false
	}
	switch t.text {
	case "==":
		return Eq, true
	case "!=":
		return Ne, true
	case "<":
		return Lt, true
	case "<=":
		return Le, true
	case ">":
		return Gt, true
	case ">=":
		return Ge, true
	}
	return 0, false
}

func (p *parser) parseCompare() Expr {
	x := p.parseSum()
	op, ok := cmpOpOf(p.peek())
	if !ok {
		return x
	}
	t := p.next()
	y := p.parseSum()
	if u := p.peek(); u.kind == tOp {
		if _, ok := cmpOpOf(u); ok {
			p.failAt(u.off, "comparisons cannot be chained: write a %s b and b %s c, found a second %q", t.text, u.text, u.text)
		}
	}
	return &Compare{At: x.Pos(), OpAt: p.pos(t.off), Op: op, X: x, Y: y}
}

// opToken is a binary operator's token; an opLevel is one level of
// left-associative operators.
type opToken struct {
	tok string
	op  BinOp
}

type opLevel []opToken

var (
	sumOps     = opLevel{{"+", Add}, {"-", Sub}}
	productOps = opLevel{{"*", Mul}, {"/", Div}, {"//", FloorDiv}, {"%", Modulo}}
)

// parseLeft reads operands (by next) joined by the level's operators, left
// to right.
func (p *parser) parseLeft(ops opLevel, next func() Expr) Expr {
	x := next()
	for {
		t := p.peek()
		i := slices.IndexFunc(ops, func(o opToken) bool { return t.is(o.tok) })
		if i < 0 {
			return x
		}
		p.next()
		y := next()
		x = &Binary{At: x.Pos(), OpAt: p.pos(t.off), Op: ops[i].op, X: x, Y: y}
	}
}

func (p *parser) parseSum() Expr { return p.parseLeft(sumOps, p.parseProduct) }

func (p *parser) parseProduct() Expr { return p.parseLeft(productOps, p.parseUnary) }

func (p *parser) parseUnary() Expr {
	t := p.peek()
	if !t.is("-") {
		return p.parsePower()
	}
	p.next()
	p.enter(t.off)
	x := p.parseUnary()
	p.leave()
	return &Neg{At: p.pos(t.off), X: x}
}

// parsePower: power = operand [("^" | "**") unary], right-associative and
// binding tighter than a unary minus (-2^2 is -4, 2^3^2 is 2^9).
func (p *parser) parsePower() Expr {
	x := p.parseOperand()
	t := p.peek()
	switch {
	case t.is("^"):
		p.next()
	case t.is("*") && p.at(t.end) == '*':
		p.next()
		p.off++
	default:
		return x
	}
	p.enter(t.off)
	y := p.parseUnary()
	p.leave()
	return &Binary{At: x.Pos(), OpAt: p.pos(t.off), Op: Pow, X: x, Y: y}
}

// parseOperand is a primary and the labels after it (2d6[Fire]): a dice
// term keeps its last label, other operands none.
func (p *parser) parseOperand() Expr {
	x := p.parsePrimary()
	for {
		u := p.peek()
		end := 0
		if u.text == "[" {
			end = p.labelEnd(u.off)
		}
		if end == 0 {
			return x
		}
		if d, ok := x.(*Dice); ok {
			d.Label = strings.TrimSpace(p.src[u.off+1 : end-1])
		}
		p.off = end
	}
}

func (p *parser) parsePrimary() Expr {
	t := p.peek()
	if c := p.at(t.off); c == '@' || c == '?' && p.at(t.off+1) == '{' {
		return p.attribute(t.off)
	}
	switch t.kind {
	case tNum:
		p.next()
		if p.at(t.end) == 'd' {
			if strings.Contains(t.text, ".") {
				p.failAt(t.off, "the number of dice must be a whole number, found %s", clip(t.text))
			}
			n := p.num(t.off, t.text)
			p.off++
			return p.parseDice(t.off, n)
		}
		return p.num(t.off, t.text)
	case tDie:
		p.next()
		return p.parseDice(t.off, nil)
	case tIdent:
		switch t.text {
		case "if":
			p.failAt(t.off, "expected an operand, found %q — put if … then … else … in parentheses here", t.text)
		case "not":
			p.failAt(t.off, "expected an operand, found %q — put not … in parentheses here", t.text)
		case "then", "else", "and", "or":
			p.failAt(t.off, "expected an expression, found %q", t.text)
		}
		p.next()
		if p.peek().is("(") {
			call := p.parseCall(t)
			if p.dialect != Oddsmith && dieStart(p.src, p.off) {
				// Foundry's floor(@level/2)d8: as many dice as
				// the call says.
				p.off++
				return p.parseDice(t.off, call)
			}
			return call
		}
		p.lastName = t
		return &Name{At: p.pos(t.off), Name: t.text}
	case tOp:
		if t.text == "(" {
			p.next()
			x := p.parseExpr()
			p.closing(")", t.off)
			if p.at(p.off) == 'd' {
				p.off++
				return p.parseDice(t.off, x)
			}
			return x
		}
	}
	switch {
	case t.is("{"):
		return p.parseGroup(t.off)
	case t.text == "[":
		if msg := p.bracketMessage(t.off); msg != "" {
			p.failAt(t.off, "%s", msg)
		}
	case t.is("#"):
		p.failAt(t.off, "%s", p.commentMessage(t.off))
	}
	hint := ""
	switch {
	case t.is("+"):
		hint = ` — there is no unary "+"`
	case t.is("!"):
		hint = ` — write "not" to negate a condition`
	case t.is("."):
		hint = " — write decimals with a digit before the point (0.5)"
	}
	p.failAt(t.off, "expected an expression, found %s%s", p.desc(t), hint)
	return nil
}

// parseGroup reads a grouped roll {A, B, …} and its modifiers; the "{"
// is at open.
func (p *parser) parseGroup(open int) Expr {
	p.next()
	p.enter(open)
	defer p.leave()
	g := &Group{At: p.pos(open)}
	if u := p.peek(); u.is("}") {
		p.failAt(u.off, "a group {…} needs at least one expression ({4d6, 3d8}kh1)")
	}
	for {
		g.Items = append(g.Items, p.parseExpr())
		u := p.peek()
		if u.is(",") {
			p.next()
			continue
		}
		if u.is("}") {
			break
		}
		op := p.pos(open)
		p.failAt(u.off, `expected "," or "}" in the group at line %d, column %d, found %s%s`, op.Line, op.Col, p.desc(u), p.afterOperand(u))
	}
	p.next()
	p.parseGroupMods(g)
	g.End = p.pos(p.off)
	return p.dialectGroup(g)
}

// parseGroupMods reads the modifiers right after a group's "}": keep, drop,
// cs and cf (a condition required).
func (p *parser) parseGroupMods(g *Group) {
	for {
		off := p.off
		if p.dialect != Oddsmith && p.dialectGroupMod(g) {
			continue
		}
		switch c := p.at(off); {
		case c == 'k' || c == 'd' && p.at(off+1) != 'f':
			g.Mods = append(g.Mods, p.keepDrop())
		case c == 'c' && (p.at(off+1) == 's' || p.at(off+1) == 'f'):
			success := p.at(off+1) == 's'
			p.off += 2
			cond := p.parseCond(off, false)
			if cond == nil {
				p.failAt(off, "%s after a group needs a condition on the sums, such as %s>=21 (a group has no highest or lowest face)", p.src[off:off+2], p.src[off:off+2])
			}
			if success {
				g.Mods = append(g.Mods, &CountSuccess{At: p.pos(off), Cond: cond})
			} else {
				g.Mods = append(g.Mods, &CountFail{At: p.pos(off), Cond: cond})
			}
		case isWord(c) || c == '!' || c == '#':
			w := p.word(off)
			if !isWord(c) {
				w = strconv.Quote(string(c))
			}
			p.failAt(off, "unknown modifier %s after the group %s — a group takes kh, kl, k, dh, dl, d (keep or drop whole sums), cs and cf (count the sums that meet a condition: cs>=21)",
				w, clip(p.src[g.At.Off:off]))
		default:
			return
		}
	}
}

// num is the literal text at off as a *Num.
func (p *parser) num(off int, text string) *Num {
	v, msg := numberValue(text)
	if msg != "" {
		p.failAt(off, "%s", msg)
	}
	return &Num{At: p.pos(off), Value: v}
}

// rawInt reads a whole number at p.off inside a dice term, for what
// ("the number of sides").
func (p *parser) rawInt(what string) *Num {
	off := p.off
	end := scanNumber(p.src, off)
	text := p.src[off:end]
	if strings.Contains(text, ".") {
		p.failAt(off, "%s must be a whole number, found %s", what, clip(text))
	}
	p.off = end
	return p.num(off, text)
}

// parseDice reads a dice term's sides and modifiers; p.off is just after
// the "d", start is where the term began.
func (p *parser) parseDice(start int, count Expr) Expr {
	d := &Dice{At: p.pos(start), Count: count}
	off := p.off
	switch c := p.at(off); {
	case isDigit(c):
		d.Sides = p.rawInt("the number of sides")
	case c == '(':
		p.next()
		d.Sides = p.parseExpr()
		p.closing(")", off)
	case c == '%':
		d.Kind = Percent
		p.off++
	case c == 'c' && p.dialect == Foundry && !isWord(p.at(off+1)):
		// Foundry's coin: 1 for heads, 0 for tails.
		d.Kind = Custom
		p.off++
		d.Faces = []*Num{{At: p.pos(off), Value: intNum(0)}, {At: p.pos(off), Value: intNum(1)}}
	case c == 'F':
		d.Kind = Fudge
		p.off++
		if p.at(p.off) == '.' && isDigit(p.at(p.off+1)) {
			p.fudgeVariant(d, p.off)
		}
	case c == '{':
		d.Kind = Custom
		p.next()
		d.Faces = p.parseFaces(off)
	default:
		p.failAt(off, `expected a number of sides after "d", found %s`, describeAt(p.src, off))
	}
	p.parseMods(d)
	p.dialectTerm(d)
	d.End = p.pos(p.off)
	return d
}

// maxFaceRun bounds the faces a custom die lists (runs expanded).
const maxFaceRun = 100_000

// signedFace reads a number of a die d{…} (the "{" at open), with its
// minus sign; what names what was expected in an error.
func (p *parser) signedFace(open int, what string) *Num {
	t := p.peek()
	neg := t.is("-")
	if neg {
		p.next()
	}
	u := p.peek()
	if u.kind != tNum {
		p.failAt(u.off, "expected %s of the die d{…} at %s, found %s", what, p.pos(open), p.desc(u))
	}
	p.next()
	n := p.num(u.off, u.text)
	if neg {
		n.At, n.Value = p.pos(t.off), n.Value.Neg()
	}
	return n
}

// parseFaces reads the faces of d{…}; the "{" at open is read.
func (p *parser) parseFaces(open int) []*Num {
	var faces []*Num
	for {
		t := p.peek()
		if t.is("}") && len(faces) > 0 {
			p.next()
			return faces
		}
		n := p.signedFace(open, "a face (a number)")
		faces = append(faces, n)
		if p.peek().is("..") {
			// A run of faces: d{1..3, 5} is d{1, 2, 3, 5}.
			p.next()
			lo, hi := n.Value, p.signedFace(open, "the last face of a run (1..6)").Value
			if !lo.IsInt() || !hi.IsInt() {
				p.failAt(t.off, "a run of faces (%s..%s) needs whole numbers", lo, hi)
			}
			if hi.Cmp(lo) < 0 || hi.Sub(lo).Cmp(expr.Int(maxFaceRun)) >= 0 {
				p.failAt(t.off, "a run of faces goes up, by at most %d faces (got %s..%s)", maxFaceRun, lo, hi)
			}
			for f := lo.Floor() + 1; f <= hi.Floor(); f++ {
				faces = append(faces, &Num{At: n.At, Value: expr.Int(f)})
			}
			if len(faces) > maxFaceRun {
				p.failAt(t.off, "a die d{…} may have at most %d faces", maxFaceRun)
			}
		}
		switch u := p.peek(); {
		case u.is(","):
			p.next()
		case u.is("}"):
			p.next()
			return faces
		default:
			p.failAt(u.off, `expected "," or "}" after a face of the die d{…} at %s, found %s`, p.pos(open), p.desc(u))
		}
	}
}

// parseMods reads the modifiers that follow a dice term's sides directly.
func (p *parser) parseMods(d *Dice) {
	exploded := false
	for {
		off := p.off
		if p.dialect != Oddsmith && p.dialectMod(d, &exploded) {
			continue
		}
		switch p.at(off) {
		case 'k', 'd':
			if p.at(off) == 'd' && p.at(off+1) == 'f' {
				p.failAt(off, "%s", p.foreignModifier(d, off))
			}
			d.Mods = append(d.Mods, p.keepDrop())
		case 'r':
			p.off++
			once := p.at(p.off) == 'o'
			if once {
				p.off++
			}
			d.Mods = append(d.Mods, &Reroll{At: p.pos(off), Once: once, Cond: p.parseCond(off, false)})
		case 'c':
			p.off++
			switch p.at(p.off) {
			case 's':
				p.off++
				d.Mods = append(d.Mods, &CountSuccess{At: p.pos(off), Cond: p.parseCond(off, false)})
			case 'f':
				p.off++
				d.Mods = append(d.Mods, &CountFail{At: p.pos(off), Cond: p.parseCond(off, false)})
			default:
				p.failAt(off, `unknown dice modifier %s — expected "cs" (count successes) or "cf" (count failures)`, p.word(off))
			}
		case '#':
			p.off++
			d.Mods = append(d.Mods, &CountSuccess{At: p.pos(off), Cond: p.parseCond(off, true), Hash: true})
		case '!':
			p.off++
			compound := p.at(p.off) == '!'
			if compound {
				p.off++
			}
			if exploded {
				p.failAt(off, "the dice already explode: one explode modifier (! or !!) per dice term")
			}
			exploded = true
			penetrate := p.at(p.off) == 'p'
			if penetrate {
				p.off++
			}
			each := p.at(p.off) == 'e'
			if each {
				if compound {
					p.failAt(off, "!!e is contradictory: !! adds each die's extra rolls into one die, !e makes each extra roll a die of its own — write one of them")
				}
				p.off++
			}
			if !penetrate && each && p.at(p.off) == 'p' {
				penetrate = true
				p.off++
			}
			x := &Explode{At: p.pos(off), Compound: compound, Penetrate: penetrate, Each: each, Cond: p.parseCond(off, false)}
			if p.at(p.off) == '{' {
				p.explodeLimits(x)
			}
			d.Mods = append(d.Mods, x)
		case 'm':
			p.parseM(d, off)
		case 'u':
			p.off++
			once := p.at(p.off) == 'o'
			if once {
				p.off++
			}
			d.Mods = append(d.Mods, &Unique{At: p.pos(off), Once: once, Cond: p.parseCond(off, false)})
		default:
			if isWord(p.at(off)) {
				if msg := p.foreignModifier(d, off); msg != "" {
					p.failAt(off, "%s", msg)
				}
				hint := ""
				switch {
				case p.at(off) == 'x':
					hint = `; write "!" to explode`
				case d.Count == nil && len(d.Mods) == 0:
					hint = `; names cannot begin with "d" and a digit or "F"`
				}
				p.failAt(off, "unknown dice modifier %s after %q — modifiers are kh, kl, k, dh, dl, d, r, ro, cs, cf, #, !, !!, min, max, u, uo and mt%s",
					p.word(off), clip(p.src[d.At.Off:off]), hint)
			}
			return
		}
	}
}

// explodeLimits reads the braces after an explosion at p.off: {L} (the
// most extra rolls per die), {T in all} (the most in the whole term) or
// {L, T in all} (both).
func (p *parser) explodeLimits(x *Explode) {
	open := p.off
	p.next()
	first := p.parseExpr()
	switch t := p.peek(); {
	case t.is(","):
		p.next()
		x.Limit, x.Total = first, p.parseExpr()
		if !p.peek().is("in") {
			t := p.peek()
			p.failAt(t.off, `expected "in all" after the second number in the braces ({1, 2 in all}: at most 1 extra roll per die, 2 in the whole term), found %s`, p.desc(t))
		}
		p.inAll()
	case t.is("in"):
		x.Total = first
		p.inAll()
	default:
		x.Limit = first
	}
	p.closing("}", open)
}

// inAll reads the "in all" of an explosion's cap on the whole term.
func (p *parser) inAll() {
	p.next()
	if t := p.peek(); !t.is("all") {
		p.failAt(t.off, `expected "all" after "in" ({2 in all}: at most 2 extra rolls in the whole term), found %s`, p.desc(t))
	}
	p.next()
}

// parseM reads the modifiers that begin with "m" at off: min, max (a
// die's least and most face) and mt (matched sets); Roll20's m alone
// only highlights matches and is refused.
func (p *parser) parseM(d *Dice, off int) {
	rest := p.src[off:]
	switch {
	case strings.HasPrefix(rest, "min") || strings.HasPrefix(rest, "max"):
		p.off = off + 3
		fb := &FaceBound{At: p.pos(off), Max: rest[1] == 'a'}
		fb.Value = p.modValue(off)
		d.Mods = append(d.Mods, fb)
	case strings.HasPrefix(rest, "mt"):
		p.off = off + 2
		m := &Matches{At: p.pos(off)}
		switch c := p.at(p.off); {
		case isDigit(c):
			m.Size = p.rawInt("the size of a matched set")
		case c == '(':
			open := p.off
			p.next()
			m.Size = p.parseExpr()
			p.closing(")", open)
		}
		if c := p.at(p.off); c == '<' || c == '>' || c == '=' {
			m.Cond = p.parseCond(off, true)
		}
		d.Mods = append(d.Mods, m)
	default:
		p.failAt(off, "%q is Roll20's match highlighting, which colours matching dice and changes nothing: leave it out, or write %smt to count the matched sets",
			"m"+p.condText(off+1), clip(p.src[d.At.Off:off]))
	}
}

// modValue reads the value of min or max (begun at mod): a number, with
// its minus sign, or a parenthesised expression.
func (p *parser) modValue(mod int) Expr {
	v := p.off
	switch ch := p.at(v); {
	case ch == '-' && isDigit(p.at(v+1)):
		p.off++
		n := p.rawNumber()
		n.At, n.Value = p.pos(v), n.Value.Neg()
		return n
	case isDigit(ch):
		return p.rawNumber()
	case ch == '(':
		p.next()
		x := p.parseExpr()
		p.closing(")", v)
		return x
	}
	p.failAt(v, "expected a number or a parenthesised expression after %q (4d6min2), found %s", p.src[mod:v], describeAt(p.src, v))
	return nil
}

// keepDrop reads a keep or drop at p.off (its "k" or "d"): kh, kl, k, dh,
// dl, d and the optional count.
func (p *parser) keepDrop() Mod {
	off := p.off
	keep := p.at(off) == 'k'
	end := High
	if !keep {
		end = Low
	}
	p.off++
	switch p.at(p.off) {
	case 'h':
		end = High
		p.off++
	case 'l':
		end = Low
		p.off++
	}
	n := p.modCount()
	if keep {
		return &Keep{At: p.pos(off), End: end, Count: n}
	}
	return &Drop{At: p.pos(off), End: end, Count: n}
}

// word quotes the run of letters and digits at off.
func (p *parser) word(off int) string {
	end := off
	for end < len(p.src) && isWord(p.src[end]) {
		end++
	}
	return strconv.Quote(clip(p.src[off:end]))
}

// modCount reads the optional count of keep or drop.
func (p *parser) modCount() Expr {
	switch c := p.at(p.off); {
	case isDigit(c):
		return p.rawInt("the number of dice to keep or drop")
	case c == '(':
		open := p.off
		p.next()
		x := p.parseExpr()
		p.closing(")", open)
		return x
	}
	return nil
}

// parseCond reads a dice condition at p.off, for the modifier that began
// at mod; nil when there is none and none is required.
func (p *parser) parseCond(mod int, required bool) *Cond {
	off := p.off
	op, written := Eq, true
	switch p.at(off) {
	case '<', '>', '!':
		if p.dialect == DiceRoller && (p.at(off) == '<' && p.at(off+1) == '>' || p.at(off) == '!' && p.at(off+1) == '=') {
			// rpg-dice-roller's "not equal", <> or !=; the term
			// rewrites it (dialectTerm).
			op = Ne
			p.off += 2
			break
		}
		if p.at(off) == '!' {
			if required {
				p.failAt(off, "expected a condition after %q, such as #>=7, found %s", p.src[mod:off], describeAt(p.src, off))
			}
			return nil
		}
		op = Lt
		if p.at(off) == '>' {
			op = Gt
		}
		p.off++
		if p.at(p.off) == '=' {
			op++ // Lt → Le, Gt → Ge
			p.off++
		}
	case '=':
		if p.at(off+1) == '=' {
			p.failAt(off, `a dice condition takes a single "=" (r=1, or just r1), found "=="`)
		}
		p.off++
	default:
		if c := p.at(off); !isDigit(c) && c != '(' {
			if required {
				hint := ""
				if c == ' ' || isLetter(c) && isLetter(p.at(off+1)) && isLetter(p.at(off+2)) {
					hint = " — # right after dice counts successes; a comment needs a space before the # (3d6 # fire)"
				}
				p.failAt(off, "expected a condition after %q, such as #>=7, found %s%s", p.src[mod:off], describeAt(p.src, off), hint)
			}
			return nil
		}
		written = false
	}
	if p.dialect == Roll20 {
		// Roll20's < and > in a dice condition include the number.
		switch op {
		case Lt:
			op = Le
		case Gt:
			op = Ge
		}
	}
	c := &Cond{At: p.pos(off), Op: op}
	v := p.off
	switch ch := p.at(v); {
	case written && ch == '-' && isDigit(p.at(v+1)):
		p.off++
		n := p.rawNumber()
		n.At, n.Value = p.pos(v), n.Value.Neg()
		c.Value = n
	case isDigit(ch):
		c.Value = p.rawNumber()
	case ch == '(':
		p.next()
		c.Value = p.parseExpr()
		p.closing(")", v)
	default:
		p.failAt(v, "expected a number or a parenthesised expression after %q, found %s", p.src[mod:v], describeAt(p.src, v))
	}
	return c
}

// rawNumber reads a number at p.off inside a dice term.
func (p *parser) rawNumber() *Num {
	off := p.off
	p.off = scanNumber(p.src, off)
	return p.num(off, p.src[off:p.off])
}

// parseCall reads a call; the name t is read and "(" is next.
func (p *parser) parseCall(t token) Expr {
	open := p.next().off
	if t.text == "lookup" {
		return p.parseLookup(t.off, open)
	}
	info, ok := funcs[t.text]
	if !ok {
		hint := didYouMean(t.text, Functions())
		if hint == "" && t.text == "d" {
			hint = " — a die is written without a space: d(n)"
		}
		p.failAt(t.off, "unknown function %q%s", t.text, hint)
	}
	c := &Call{At: p.pos(t.off), Name: t.text}
	if !p.peek().is(")") {
		for {
			c.Args = append(c.Args, p.parseExpr())
			u := p.peek()
			if u.is(",") {
				p.next()
				continue
			}
			if u.is(")") {
				break
			}
			p.failAt(u.off, `expected "," or ")" in the arguments of %s at %s, found %s%s`, t.text, p.pos(open), p.desc(u), p.afterOperand(u))
		}
	}
	p.next()
	n := len(c.Args)
	if n < info.min || info.max >= 0 && n > info.max {
		want := ""
		switch {
		case info.min == info.max:
			want = fmt.Sprintf("%d argument%s", info.min, plural(info.min))
		case info.max < 0:
			want = fmt.Sprintf("at least %d arguments", info.min)
		default:
			want = fmt.Sprintf("%d or %d arguments", info.min, info.max)
		}
		hint := ""
		switch {
		case n == 1 && t.text == "min":
			hint = " — for the lowest die of a pool write lowest(pool)"
		case n == 1 && t.text == "max":
			hint = " — for the highest die of a pool write highest(pool)"
		}
		p.failAt(t.off, "%s takes %s (%s), found %d%s", t.text, want, info.usage, n, hint)
	}
	if info.pool {
		p.checkPool(c.Args[0], t.text)
	}
	if info.filter {
		cmp, ok := c.Args[0].(*Compare)
		if !ok {
			p.failAt(c.Args[0].Pos().Off, "the argument of %s must compare the dice of a pool, as in %s", t.text, info.usage)
		}
		if !isPool(cmp.X) && isPool(cmp.Y) {
			p.failAt(cmp.X.Pos().Off, "the pool of %s goes on the left of the comparison, as in %s, found %s", t.text, info.usage, clip(String(cmp.X)))
		}
		p.checkPool(cmp.X, t.text)
		c.Args[0] = &Filter{At: cmp.At, OpAt: cmp.OpAt, Pool: cmp.X, Op: cmp.Op, Value: cmp.Y}
	}
	return c
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isPool(x Expr) bool {
	switch x.(type) {
	case *Dice, *Name:
		return true
	}
	return false
}

func (p *parser) checkPool(x Expr, fn string) {
	if isPool(x) {
		return
	}
	p.failAt(x.Pos().Off, "the pool of %s must be dice such as 5d6 or a name bound to them, found %s", fn, clip(String(x)))
}

// parseLookup reads lookup(x, {cases}); "lookup" is at at, "(" at open.
func (p *parser) parseLookup(at, open int) Expr {
	lk := &Lookup{At: p.pos(at), X: p.parseExpr()}
	if u := p.peek(); !u.is(",") {
		p.failAt(u.off, `expected "," after the value to look up, found %s%s`, p.desc(u), p.afterOperand(u))
	}
	p.next()
	brace := p.expect("{", `"{" to begin the cases of lookup`).off
	order := []int{} // case offsets in source, for messages
	for {
		t := p.peek()
		if t.is("}") && (len(lk.Cases) > 0 || lk.Default != nil) {
			p.next()
			break
		}
		if lk.Default != nil {
			p.failAt(t.off, "the default case _ must come last, found %s after it", p.desc(t))
		}
		if t.is("_") || t.is("else") {
			p.next()
			p.expect(":", fmt.Sprintf(`":" after the default case %s`, t.text))
			lk.Default = p.parseExpr()
		} else {
			c := p.parseCaseKey(brace)
			p.expect(":", fmt.Sprintf(`":" after the case %s`, caseKey(c)))
			c.Value = p.parseExpr()
			lk.Cases = append(lk.Cases, c)
			order = append(order, t.off)
		}
		switch u := p.peek(); {
		case u.is(","):
			p.next()
		case u.is("}"):
		default:
			p.failAt(u.off, `expected "," or "}" after a case of the lookup at %s, found %s%s`, p.pos(at), p.desc(u), p.afterOperand(u))
		}
	}
	p.closing(")", open)
	p.checkCases(lk.Cases, order)
	return lk
}

// parseCaseKey reads 5, 1..3, 10.., ..0.
func (p *parser) parseCaseKey(brace int) Case {
	t := p.peek()
	c := Case{At: p.pos(t.off)}
	if t.is("..") {
		p.next()
		hi := p.caseInt(brace)
		c.Hi = &hi
		return c
	}
	lo := p.caseInt(brace)
	c.Lo = &lo
	if p.peek().is("..") {
		p.next()
		if u := p.peek(); u.is("-") || u.kind == tNum {
			hi := p.caseInt(brace)
			c.Hi = &hi
			if hi < lo {
				p.failAt(t.off, "the range %s is empty: its low end is above its high end", caseKey(c))
			}
		}
		return c
	}
	hi := lo
	c.Hi = &hi
	return c
}

// caseInt reads a whole number, possibly negative, in a lookup case.
func (p *parser) caseInt(brace int) int64 {
	t := p.peek()
	neg := t.is("-")
	if neg {
		p.next()
	}
	u := p.peek()
	if u.kind != tNum {
		p.failAt(u.off, "expected a case (a whole number, a range such as 1..3, or _) in the lookup table at %s, found %s",
			p.pos(brace), p.desc(u))
	}
	p.next()
	if strings.Contains(u.text, ".") {
		p.failAt(t.off, "a case of a lookup must be a whole number, found %s", clip(u.text))
	}
	m, err := strconv.ParseUint(u.text, 10, 64)
	switch {
	case err == nil && !neg && m <= math.MaxInt64:
		return int64(m)
	case err == nil && neg && m <= 1<<63:
		return int64(-m)
	}
	sign := ""
	if neg {
		sign = "-"
	}
	p.failAt(t.off, "the case %s%s is too large (the limit is %d)", sign, clip(u.text), int64(math.MaxInt64))
	return 0
}

// checkCases reports overlapping cases; order holds their offsets.
func (p *parser) checkCases(cs []Case, order []int) {
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	lo := func(c Case) int64 {
		if c.Lo == nil {
			return math.MinInt64
		}
		return *c.Lo
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		la, lb := lo(cs[a]), lo(cs[b])
		switch {
		case la < lb || la == lb && cs[a].Lo == nil && cs[b].Lo != nil:
			return -1
		case la > lb || la == lb && cs[a].Lo != nil && cs[b].Lo == nil:
			return 1
		}
		return 0
	})
	reach := -1 // the sorted case reaching furthest up so far
	for _, i := range idx {
		if reach >= 0 {
			r := cs[reach]
			if r.Hi == nil || cs[i].Lo == nil || *r.Hi >= *cs[i].Lo {
				a, b := reach, i
				if order[a] > order[b] {
					a, b = b, a
				}
				p.failAt(order[b], "the case %s overlaps the case %s", caseKey(cs[b]), caseKey(cs[a]))
			}
			if cs[i].Hi == nil || *cs[i].Hi > *r.Hi {
				reach = i
			}
		} else {
			reach = i
		}
	}
}

// caseKey prints a case's range: 5, 1..3, 10.., ..0.
func caseKey(c Case) string {
	f := func(v *int64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatInt(*v, 10)
	}
	if c.Lo != nil && c.Hi != nil && *c.Lo == *c.Hi {
		return f(c.Lo)
	}
	return f(c.Lo) + ".." + f(c.Hi)
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
