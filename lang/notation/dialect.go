package notation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Dialect says whose meaning the text of an expression has: oddsmith's own,
// or that of Roll20, Foundry VTT or rpg-dice-roller. ParseIn reads a text
// in a dialect and gives oddsmith's tree of the same meaning, so that
// String prints what is computed in oddsmith's form (Roll20's 3d6>3 is
// 3d6cs>=3).
//
// What each dialect changes (docs/translating.md has every row):
//   - Roll20: a target glued to the dice counts them (3d6>3: the dice of
//     at least 3), f after it takes one away per failure; < and > in every
//     dice condition include the number (r<2 rerolls 1s and 2s); cs and cf
//     only mark criticals, m only marks matches, s/sa/sd only sort (all
//     left out); an explosion's extra rolls are dice of their own under
//     keep and drop.
//   - Foundry: r rerolls once and rr while the condition holds; x
//     explodes (x6 on 6s, x>=5, xo at most once per die); cs counts
//     successes, cf counts failures (the count is the result), df takes a
//     success away per failure; conditions are strict as written.
//   - rpg-dice-roller: targets glued to the dice count them, f subtracts
//     failures, with < and > strict; cs, cf and sorting are left out; keep
//     and drop each pick from all the dice (4d6kh3dl1 keeps the top three);
//     extra rolls are dice of their own.
//
// Every dialect reads a leading chat command (/roll, /r, /gmroll, …),
// an inline roll's [[…]], labels [Fire] and comments; Roll20 also reads
// words after the formula as a comment (/roll 1d20+5 Roll for initiative).
type Dialect uint8

// The dialects.
const (
	Oddsmith   Dialect = iota // oddsmith's own language
	Roll20                    // Roll20's dice reference
	Foundry                   // Foundry VTT's dice modifiers
	DiceRoller                // rpg-dice-roller (dice-roller/rpg-dice-roller)
)

var dialectNames = [...]string{"oddsmith", "roll20", "foundry", "dice-roller"}

// String is the dialect's name as --dialect takes it.
func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		return dialectNames[d]
	}
	return fmt.Sprintf("Dialect(%d)", d)
}

// Title is the tool's name in prose (Roll20, Foundry, rpg-dice-roller).
func (d Dialect) Title() string {
	switch d {
	case Roll20:
		return "Roll20"
	case Foundry:
		return "Foundry"
	case DiceRoller:
		return "rpg-dice-roller"
	}
	return "oddsmith"
}

// Dialects lists the dialects' names, oddsmith's first.
func Dialects() []string { return dialectNames[:] }

// DialectNamed is the dialect called name ("" is oddsmith's own); the
// error lists the names.
func DialectNamed(name string) (Dialect, error) {
	if name == "" {
		return Oddsmith, nil
	}
	for i, n := range dialectNames {
		if n == name {
			return Dialect(i), nil
		}
	}
	return 0, fmt.Errorf("unknown dialect %q (want %s)%s", clip(name), strings.Join(dialectNames[:], ", "), didYouMean(name, dialectNames[:]))
}

// ParseIn reads one expression written in dialect d and returns oddsmith's
// tree of its meaning (Parse is ParseIn with Oddsmith). Its error, if any,
// is a *SyntaxError.
func ParseIn(src string, d Dialect) (Expr, error) {
	e, _, err := parseIn(src, d)
	return e, err
}

// chatCommands are the chat commands a pasted macro may begin with.
var chatCommands = []string{"/roll", "/r", "/gmroll", "/gmr", "/gr", "/selfroll", "/sr", "/blindroll", "/broll", "/br", "/publicroll", "/pr", "/ir"}

// unwrap blanks out what a pasted macro carries around the formula — a
// chat command at the start, rpg-dice-roller's comments — and reads inline
// rolls [[ ]] as parentheses, keeping every other byte where it is, so
// that positions stay those of src.
func unwrap(src string, d Dialect) string {
	b := []byte(src)
	if d == DiceRoller {
		// rpg-dice-roller's comments: /* … */ and // to the end of the
		// line.
		for i := 0; i+1 < len(b); i++ {
			switch {
			case b[i] == '/' && b[i+1] == '*':
				j := strings.Index(string(b[i+2:]), "*/")
				end := len(b)
				if j >= 0 {
					end = i + 2 + j + 2
				}
				for k := i; k < end; k++ {
					if b[k] != '\n' {
						b[k] = ' '
					}
				}
				i = end - 1
			case b[i] == '/' && b[i+1] == '/':
				for i < len(b) && b[i] != '\n' {
					b[i] = ' '
					i++
				}
			}
		}
	}
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && b[i] == '/' {
		for _, c := range chatCommands {
			end := i + len(c)
			if strings.HasPrefix(src[i:], c) && (end == len(b) || isSpace(b[end])) {
				for j := i; j < end; j++ {
					b[j] = ' '
				}
				i = end
				break
			}
		}
		for i < len(b) && isSpace(b[i]) {
			i++
		}
	}
	// Inline rolls ([[1d20+5]], and inside a formula [[ [[1d4]]d6 ]]:
	// 1d4 rolled first) are parentheses, when they pair up.
	if t := string(b); strings.Count(t, "[[") == strings.Count(t, "]]") && strings.Contains(t, "[[") {
		t = strings.ReplaceAll(t, "[[", " (")
		t = strings.ReplaceAll(t, "]]", " )")
		return t
	}
	return string(b)
}

// dialectMod reads a modifier at p.off whose meaning is the dialect's
// own, adding oddsmith's modifier of that meaning to d (or none, for what
// changes nothing); false when the modifier at p.off reads as oddsmith's.
func (p *parser) dialectMod(d *Dice, exploded *bool) bool {
	if p.dialectCount(&d.Mods, false) {
		return true
	}
	off := p.off
	c, next := p.at(off), p.at(off+1)
	switch {
	case p.dialect == Roll20 && c == 'm' && next != 't' && !strings.HasPrefix(p.src[off:], "min") && !strings.HasPrefix(p.src[off:], "max"):
		// Roll20's m only marks matching dice (m3: sets of three).
		p.off++
		if isDigit(p.at(p.off)) {
			p.rawInt("the size of a set of matches")
		}
		p.parseCond(off, false)
		return true
	case p.dialect == Foundry && c == 'r':
		// Foundry's r rerolls once, rr while the condition holds.
		p.off++
		once := true
		if p.at(p.off) == 'r' {
			once = false
			p.off++
		}
		d.Mods = append(d.Mods, &Reroll{At: p.pos(off), Once: once, Cond: p.parseCond(off, false)})
		return true
	case p.dialect == Foundry && (c == 'x' || c == 'X'):
		p.foundryExplode(d, exploded)
		return true
	case p.dialect == Foundry && strings.HasPrefix(p.src[off:], "sf"):
		p.failAt(off, "Foundry's sf (subtract failures) is not supported: write the failures as a count, %scf%s (each failure takes one away)", clip(p.src[d.At.Off:off]), p.condText(off+2))
	case p.dialect == Foundry && strings.HasPrefix(p.src[off:], "ms"):
		p.failAt(off, "Foundry's ms (margin of success) is not supported: subtract the target from the total, (%s) - %s", clip(p.src[d.At.Off:off]), strings.TrimLeft(p.condText(off+2), "<>="))
	case p.dialect == Foundry && (strings.HasPrefix(p.src[off:], "even") || strings.HasPrefix(p.src[off:], "odd")):
		p.failAt(off, "Foundry's %s (count the even or odd dice) is not supported: in a rule file, count(pool == 2) + count(pool == 4) + … counts chosen faces", p.word(off))
	}
	return false
}

// ones is Foundry's failure condition: c, or when none is written, the
// dice showing 1 (its default target).
func ones(c *Cond) *Cond {
	if c != nil {
		return c
	}
	return &Cond{Op: Eq, Value: &Num{Value: intNum(1)}}
}

// condStart reports a byte that begins a dice condition.
func condStart(c byte) bool { return c == '<' || c == '>' || c == '=' || isDigit(c) }

// foundryExplode reads Foundry's x, xo, xN, x>=N, xo>=N and the capped
// xM>=N and xoM>=N (at most M explosions in the whole term) at p.off.
func (p *parser) foundryExplode(d *Dice, exploded *bool) {
	off := p.off
	p.off++
	once := p.at(p.off) == 'o'
	if once {
		p.off++
	}
	if *exploded {
		p.failAt(off, "the dice already explode: one explode modifier per dice term")
	}
	*exploded = true
	x := &Explode{At: p.pos(off)}
	if once {
		x.Limit = &Num{At: p.pos(off), Value: intNum(1)}
	}
	if isDigit(p.at(p.off)) {
		n := p.rawInt("the face that explodes")
		if c := p.at(p.off); c == '<' || c == '>' || c == '=' {
			// x5>=8: at most 5 explosions in the whole term; xo5>=8:
			// each of the dice rolled first at most once, 5 in all.
			x.Total = n
			x.Cond = p.parseCond(off, true)
			d.Mods = append(d.Mods, x)
			return
		}
		x.Cond = &Cond{At: n.At, Op: Eq, Value: n}
	} else {
		x.Cond = p.parseCond(off, false)
	}
	d.Mods = append(d.Mods, x)
}

// intNum is the literal n.
func intNum(n int64) expr.Rat { return expr.Int(n) }

// dialectTerm rewrites a dice term read in a dialect into oddsmith's
// modifiers of the same meaning, once all its modifiers are read.
func (p *parser) dialectTerm(d *Dice) {
	if p.dialect == Oddsmith {
		return
	}
	p.notEqual(d)
	var explode *Explode
	var keeps, drops, rerolls, counts, fails, bounds int
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *FaceBound:
			bounds++
		case *Explode:
			explode = m
		case *Keep:
			keeps++
		case *Drop:
			drops++
		case *Reroll:
			rerolls++
		case *CountSuccess:
			counts++
		case *CountFail:
			fails++
		}
	}
	if explode != nil && !explode.Compound && keeps+drops > 0 {
		// Every tool keeps and drops an explosion's extra rolls as dice
		// of their own.
		explode.Each = true
	}
	if p.dialect == Foundry && counts > 1 {
		p.failAt(d.At.Off, "Foundry counts either successes (cs) or failures (cf) in one term, not both: to take failures away from successes write df (%s)", clip(String(d)))
	}
	if p.dialect != DiceRoller {
		return
	}
	if explode != nil && rerolls > 0 {
		// rpg-dice-roller explodes first and then rerolls every roll,
		// the exploded ones too, without exploding the new rolls.
		p.failAt(d.At.Off, "rpg-dice-roller explodes before it rerolls (a rerolled die does not explode again), which has no oddsmith equivalent: reroll and explode in separate terms, or write the term in oddsmith's own dialect")
	}
	if bounds > 0 && (explode != nil || rerolls > 0) {
		// rpg-dice-roller compares with the clamped value but rolls
		// the new dice raw.
		p.failAt(d.At.Off, "rpg-dice-roller applies min and max before it explodes or rerolls, and rolls the new dice without them, which has no oddsmith equivalent: write the term in oddsmith's own dialect (min and max change the die where they are written)")
	}
	if keeps+drops > 1 {
		p.diceRollerWindow(d)
	}
}

// diceRollerWindow rewrites rpg-dice-roller's keeps and drops, which each
// pick from all the dice and drop a die that any of them drops, into one
// drop from each end applied in order: the dice kept are the ranks every
// modifier keeps.
func (p *parser) diceRollerWindow(d *Dice) {
	n, ok := constInt(d.Count, 1)
	if !ok {
		p.failAt(d.At.Off, "rpg-dice-roller's keep and drop together need a number of dice written as a number (they pick from all the dice)")
	}
	a, b := int64(0), n
	var kept []Mod
	for _, m := range d.Mods {
		var count Expr
		var keep, top bool
		switch m := m.(type) {
		case *Keep:
			count, keep, top = m.Count, true, m.End == High
		case *Drop:
			count, top = m.Count, m.End == High
		default:
			kept = append(kept, m)
			continue
		}
		k, ok := constInt(count, 1)
		if !ok {
			p.failAt(m.Pos().Off, "rpg-dice-roller's keep and drop together need their counts written as numbers")
		}
		k = min(k, n)
		// Each picks ranks from all n dice, lowest first: keep high k
		// is [n−k, n), drop high k leaves [0, n−k), and so on.
		switch {
		case keep && top:
			a = max(a, n-k)
		case keep:
			b = min(b, k)
		case top:
			b = min(b, n-k)
		default:
			a = max(a, k)
		}
	}
	b = max(a, b)
	at := d.Mods[0].Pos()
	var window []Mod
	if a > 0 {
		window = append(window, &Drop{At: at, End: Low, Count: &Num{At: at, Value: intNum(a)}})
	}
	if n-b > 0 {
		window = append(window, &Drop{At: at, End: High, Count: &Num{At: at, Value: intNum(n - b)}})
	}
	// The keeps and drops go where the counting reads them: before any
	// success count, after the die's own modifiers.
	i := 0
	for i < len(kept) {
		switch kept[i].(type) {
		case *CountSuccess, *CountFail:
		default:
			i++
			continue
		}
		break
	}
	d.Mods = append(append(append([]Mod{}, kept[:i]...), window...), kept[i:]...)
}

// attribute reads a character sheet's attribute at off, Roll20's @{name}
// (or @{character|name}) and Foundry's @name (or @path.to.name), as a
// parameter of that name (the path's parts joined by "_"): set it with
// --set. In oddsmith's own dialect it is refused with that spelling, and a
// Roll20 query ?{…} in every dialect.
func (p *parser) attribute(off int) Expr {
	if p.at(off) == '?' {
		end := strings.IndexByte(p.src[off:], '}')
		q := p.src[off:]
		if end >= 0 {
			q = q[:end+1]
		}
		prompt, dflt, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(q, "?{"), "}"), "|")
		name := attrName(prompt)
		if name == "" {
			p.failAt(off, "Roll20's query %s asks at roll time, which oddsmith cannot: write a parameter and give it with --set", clip(q))
		}
		p.failAt(off, "Roll20's query %s asks at roll time, which oddsmith cannot: write a parameter, %s, and give it with --set %s=%s", clip(q), name, name, strings.TrimSpace(strings.Split(dflt+"|", "|")[0]))
	}
	end := off + 1
	var raw string
	if p.at(end) == '{' {
		close := strings.IndexAny(p.src[end:], "}\n")
		if close < 0 || p.src[end+close] != '}' {
			p.failAt(off, "expected \"}\" to close the attribute @{ at %s", p.pos(off))
		}
		raw = p.src[end+1 : end+close]
		if i := strings.LastIndexByte(raw, '|'); i >= 0 {
			raw = raw[i+1:]
		}
		end += close + 1
	} else {
		for end < len(p.src) && (isWord(p.src[end]) || p.src[end] == '.' && isLetter(p.at(end+1))) {
			end++
		}
		raw = p.src[off+1 : end]
	}
	name := attrName(raw)
	if raw == "" || name == "" {
		p.failAt(off, "expected an attribute's name after \"@\", found %s", describeAt(p.src, off+1))
	}
	if p.dialect == Oddsmith {
		p.failAt(off, "%s is a character sheet's attribute (Roll20, Foundry): write a parameter, %s, and give it with --set %s=…, or read the text with --dialect", clip(p.src[off:end]), name, name)
	}
	p.off = end
	p.lastName = token{tIdent, name, off, end}
	n := &Name{At: p.pos(off), Name: name}
	if p.at(end) == 'd' && dieStart(p.src, end) {
		// @{level}d6: as many dice as the attribute says.
		p.off++
		return p.parseDice(off, n)
	}
	return n
}

// attrName is an attribute's name as a parameter's: its words joined by
// "_" (abilities.str.mod: abilities_str_mod), "" when it has none.
func attrName(s string) string {
	var b strings.Builder
	under := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isWord(c) && c != '_':
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			if b.Len() == 0 && isDigit(c) {
				b.WriteString("attr_")
			}
			b.WriteByte(c)
		default:
			under = true
		}
	}
	n := b.String()
	if n != "" && (n == "d" || dieStart(n, 0) || slices.Contains(keywords, n) || slices.Contains(Functions(), n) || n == "lookup") {
		n = "attr_" + n
	}
	return n
}

// dialectGroupMod reads a modifier after a group's "}" whose meaning is
// the dialect's own (see dialectCount); false when it reads as oddsmith's.
func (p *parser) dialectGroupMod(g *Group) bool { return p.dialectCount(&g.Mods, true) }

// dialectCount reads, for a dice term or (group) a group, a counting or
// marking modifier at p.off whose meaning is the dialect's own, adding
// oddsmith's modifier of that meaning to mods (or none, for what changes
// nothing); false when the modifier at p.off reads as oddsmith's.
//   - Roll20 and rpg-dice-roller: a target glued to the dice counts them,
//     f after it takes one away per failure; cs and cf only mark
//     criticals and s, sa, sd only sort (both left out).
//   - Foundry: cf counts the failures (the count is the result), df takes
//     a success away for each failure.
func (p *parser) dialectCount(mods *[]Mod, group bool) bool {
	off := p.off
	c, next := p.at(off), p.at(off+1)
	targets := p.dialect == Roll20 || p.dialect == DiceRoller
	cond := func(what string) *Cond {
		cd := p.parseCond(off, false)
		if cd == nil && group {
			p.failAt(off, "%s after a group needs a condition on the sums, such as %s<=3", what, what)
		}
		return cd
	}
	switch {
	case targets && (c == '<' || c == '>' || c == '='):
		*mods = append(*mods, &CountSuccess{At: p.pos(off), Cond: p.parseCond(off, true)})
	case targets && c == 'f' && (condStart(next) || p.dialect == DiceRoller && next == '!' && p.at(off+2) == '='):
		p.off++
		*mods = append(*mods, &CountFail{At: p.pos(off), Cond: p.parseCond(off, true)})
	case targets && c == 'c' && (next == 's' || next == 'f'):
		p.off += 2
		p.parseCond(off, false)
	case targets && c == 's' && next != 'f':
		p.off++
		if p.at(p.off) == 'a' || p.at(p.off) == 'd' {
			p.off++
		}
	case p.dialect == Foundry && c == 'c' && next == 'f':
		p.off += 2
		*mods = append(*mods, &CountSuccess{At: p.pos(off), Cond: ones(cond("cf"))})
	case p.dialect == Foundry && c == 'd' && next == 'f':
		p.off += 2
		*mods = append(*mods, &CountFail{At: p.pos(off), Cond: ones(cond("df"))})
	default:
		return false
	}
	return true
}

// dialectGroup is a group read in a dialect as oddsmith's expression of
// its meaning. Roll20 counts the successes of a group of one expression
// die by die, each die with the expression's constants added
// ({3d20+5}>21: the dice of at least 16); Foundry keeps and drops whole
// expressions even when there is one ({4d6+3d8}kh: the sum).
func (p *parser) dialectGroup(g *Group) Expr {
	for _, m := range g.Mods {
		if c := modCond(m); c != nil && c.Op == Ne {
			p.failAt(m.Pos().Off, "a \"not equal\" target on a group has no oddsmith form: count the sums below and above it with two groups")
		}
	}
	if p.dialect == Oddsmith || len(g.Items) != 1 {
		return g
	}
	var counts, windows []Mod
	for _, m := range g.Mods {
		switch m.(type) {
		case *CountSuccess, *CountFail:
			counts = append(counts, m)
		default:
			windows = append(windows, m)
		}
	}
	switch {
	case p.dialect == Foundry && len(windows) > 0:
		left := int64(1)
		for _, m := range windows {
			var n int64
			var ok bool
			keep := false
			switch m := m.(type) {
			case *Keep:
				n, ok = constInt(m.Count, 1)
				keep = true
			case *Drop:
				n, ok = constInt(m.Count, 1)
			}
			if !ok {
				p.failAt(m.Pos().Off, "Foundry keeps or drops whole expressions: give the count as a number")
			}
			if keep {
				left = min(left, n)
			} else {
				left = max(0, left-n)
			}
		}
		item := g.Items[0]
		if left == 0 {
			item = &Num{At: g.At, Value: intNum(0)}
		}
		if len(counts) == 0 {
			return item
		}
		return &Group{At: g.At, Items: []Expr{item}, Mods: counts, End: g.End}
	case p.dialect == Roll20 && len(counts) > 0:
		if len(windows) > 0 {
			p.failAt(g.At.Off, "Roll20's group of one expression with both keep or drop and a target is not supported: write the keep on the dice (4d6kh3>4)")
		}
		return p.perDieTargets(g.Items[0], counts, g.At)
	}
	return g
}

// perDieTargets is Roll20's success count of a group of one expression:
// every die of its dice terms, with the expression's constants added, is
// compared with the targets; the counts add up.
func (p *parser) perDieTargets(x Expr, counts []Mod, at Pos) Expr {
	var dice []*Dice
	var c int64
	var walk func(x Expr, sign int64)
	walk = func(x Expr, sign int64) {
		switch x := x.(type) {
		case *Dice:
			if sign < 0 {
				p.failAt(x.At.Off, "Roll20 counts successes die by die in a group of one expression: a subtracted dice term (-%s) is not supported", String(x))
			}
			for _, m := range x.Mods {
				switch m.(type) {
				case *CountSuccess, *CountFail, *Matches, *Keep, *Drop:
					p.failAt(x.At.Off, "Roll20 counts successes die by die in a group of one expression: the dice %s already keep, drop or count", String(x))
				}
			}
			dice = append(dice, x)
		case *Num:
			if !x.Value.IsInt() {
				p.failAt(x.At.Off, "Roll20 adds the constants of a group of one expression to each die: %s is not a whole number", x.Value)
			}
			c += sign * x.Value.N
		case *Binary:
			switch x.Op {
			case Add:
				walk(x.X, sign)
				walk(x.Y, sign)
				return
			case Sub:
				walk(x.X, sign)
				walk(x.Y, -sign)
				return
			}
			p.failAt(x.At.Off, "Roll20 counts successes die by die in a group of one expression: write it as dice and numbers added (%s is not)", String(x))
		default:
			p.failAt(x.Pos().Off, "Roll20 counts successes die by die in a group of one expression: write it as dice and numbers added (%s is not)", String(x))
		}
	}
	walk(x, 1)
	if len(dice) == 0 {
		p.failAt(at.Off, "Roll20's group of one expression counts its dice against the target, and %s has none", String(x))
	}
	shift := func(cd *Cond) *Cond {
		v, ok := constInt(cd.Value, 0)
		if !ok {
			p.failAt(cd.At.Off, "Roll20 adds the group's constants to each die: give the target as a number")
		}
		return &Cond{At: cd.At, Op: cd.Op, Value: &Num{At: cd.At, Value: intNum(v - c)}}
	}
	var out Expr
	for _, d := range dice {
		nd := *d
		nd.Mods = slices.Clone(d.Mods)
		nd.Label = ""
		for _, m := range counts {
			switch m := m.(type) {
			case *CountSuccess:
				nd.Mods = append(nd.Mods, &CountSuccess{At: m.At, Cond: shift(m.Cond)})
			case *CountFail:
				nd.Mods = append(nd.Mods, &CountFail{At: m.At, Cond: shift(m.Cond)})
			}
		}
		if out == nil {
			out = &nd
		} else {
			out = &Binary{At: out.Pos(), OpAt: nd.At, Op: Add, X: out, Y: &nd}
		}
	}
	return out
}

// notEqual rewrites rpg-dice-roller's "not equal" conditions (r!=5,
// cs<>6, f!=1) as the two conditions on either side, which mean the same:
// rerolling until the face is 5 is rerolling below 5, then above it; a die
// counts once when any of its conditions holds. Elsewhere it is refused.
func (p *parser) notEqual(d *Dice) {
	var out []Mod
	for _, m := range d.Mods {
		c := modCond(m)
		if c == nil || c.Op != Ne {
			out = append(out, m)
			continue
		}
		lt, gt := &Cond{At: c.At, Op: Lt, Value: c.Value}, &Cond{At: c.At, Op: Gt, Value: c.Value}
		switch m := m.(type) {
		case *Reroll:
			if m.Once {
				p.failAt(m.At.Off, "rerolling once a die that is not %s (ro!=%s) has no oddsmith form: write the faces to reroll (ro<…, ro>…) one at a time", String(c.Value), String(c.Value))
			}
			out = append(out, &Reroll{At: m.At, Cond: lt}, &Reroll{At: m.At, Cond: gt})
		case *CountSuccess:
			out = append(out, &CountSuccess{At: m.At, Cond: lt, Hash: m.Hash}, &CountSuccess{At: m.At, Cond: gt, Hash: m.Hash})
		case *CountFail:
			out = append(out, &CountFail{At: m.At, Cond: lt}, &CountFail{At: m.At, Cond: gt})
		default:
			p.failAt(m.Pos().Off, "%q with a \"not equal\" condition has no oddsmith form: write the faces it means as a range", modString(m))
		}
	}
	d.Mods = out
}

// modCond is a modifier's condition, or nil.
func modCond(m Mod) *Cond {
	switch m := m.(type) {
	case *Reroll:
		return m.Cond
	case *CountSuccess:
		return m.Cond
	case *CountFail:
		return m.Cond
	case *Explode:
		return m.Cond
	case *Unique:
		return m.Cond
	case *Matches:
		return m.Cond
	}
	return nil
}
