package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// A Reading is a form of an expression that Roll20, Foundry VTT or
// rpg-dice-roller reads with another meaning than oddsmith: where it is,
// and in Msg the form, what it means here, what it means there (in
// oddsmith's words where they exist) and how to write this reading so that
// no tool reads it otherwise. A success target glued to dice (3d6>3) is a
// comparison of the total here and a count of dice in Roll20; cs and cf
// count here and only mark criticals in Roll20 and rpg-dice-roller;
// Roll20's < and > in r, ro and ! include the number; Foundry's r rerolls
// once and its rr is one reroll; Roll20 and Foundry keep and drop an
// explosion's extra rolls as dice of their own.
type Reading struct {
	Pos Pos
	Msg string
}

// String is "line L, column C: message".
func (r Reading) String() string { return fmt.Sprintf("%s: %s", r.Pos, r.Msg) }

// Readings lists the forms of e, parsed from src, that another dice tool
// reads with another meaning, in the order they are written. A form
// written so that every tool reads it alike (8d10#>=7, (3d6) > 3, 5d10!!k2,
// d{2..6}) has none.
func Readings(src string, e Expr) []Reading {
	var out []Reading
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Compare:
			if r, ok := gluedTarget(src, x); ok {
				out = append(out, r)
			}
			if r, ok := groupTarget(src, x); ok {
				out = append(out, r)
			}
		case *Dice:
			out = append(out, diceReadings(src, x)...)
		case *Group:
			if r, ok := groupKeep(src, x); ok {
				out = append(out, r)
			}
		}
		return true
	})
	slices.SortStableFunc(out, func(a, b Reading) int { return a.Pos.Off - b.Pos.Off })
	return out
}

// termText is the text of a dice term as written, or printed when it was
// built by hand.
func termText(src string, d *Dice) string {
	if d.End.Off > d.At.Off && d.End.Off <= len(src) {
		return src[d.At.Off:d.End.Off]
	}
	return String(d)
}

// counts reports a term that counts its dice (cs, #, cf).
func counts(d *Dice) bool {
	return slices.ContainsFunc(d.Mods, func(m Mod) bool {
		switch m.(type) {
		case *CountSuccess, *CountFail:
			return true
		}
		return false
	})
}

// operand is an expression as it can follow a dice condition's operator:
// a number, or in parentheses.
func operand(x Expr) string {
	if n, ok := x.(*Num); ok {
		if s, ok := numText(n.Value); ok {
			return s
		}
	}
	return "(" + String(x) + ")"
}

// gluedTarget is the reading of a comparison written right after a dice
// term (3d6>3): here the total against the number, in Roll20 and
// rpg-dice-roller a count of the dice.
func gluedTarget(src string, c *Compare) (Reading, bool) {
	d, ok := c.X.(*Dice)
	if !ok || d.End.Off == 0 || d.End.Off != c.OpAt.Off || counts(d) {
		return Reading{}, false
	}
	term, v, y := termText(src, d), operand(c.Y), String(c.Y)
	form := term + cmpOpNames[c.Op] + y
	total := fmt.Sprintf("write (%s) %s %s for the total", term, cmpOpNames[c.Op], y)
	there, ok := targetCount(c.Op, "dice", term+"#", v, y)
	if !ok {
		return Reading{}, false
	}
	return Reading{c.OpAt, fmt.Sprintf("%s: here the total compared with %s; %s — %s", form, String(c.Y), there, total)}, true
}

// groupTarget is the reading of a comparison written right after a group
// ({3d20+5, 2d20}>21): here the group's total against the number, in
// Roll20 and rpg-dice-roller a count of the sums that meet it (Roll20's >
// includes the number).
func groupTarget(src string, c *Compare) (Reading, bool) {
	g, ok := c.X.(*Group)
	if !ok || g.End.Off == 0 || g.End.Off != c.OpAt.Off || g.End.Off > len(src) {
		return Reading{}, false
	}
	if slices.ContainsFunc(g.Mods, func(m Mod) bool {
		switch m.(type) {
		case *CountSuccess, *CountFail:
			return true
		}
		return false
	}) {
		return Reading{}, false
	}
	text, v, y := src[g.At.Off:g.End.Off], operand(c.Y), String(c.Y)
	if len(g.Items) == 1 {
		// Roll20 counts a group of one expression die by die, with its
		// constants added to each die.
		r20 := "its dice one by one, with the group's constants added to each (see docs/translating.md)"
		if x, err := ParseIn(text+cmpOpNames[c.Op]+v, Roll20); err == nil {
			r20 = fmt.Sprintf("its dice one by one, with the group's constants added to each (%s here)", String(x))
		}
		dr := map[CmpOp]string{Gt: "over", Ge: "at least", Lt: "under", Le: "at most"}[c.Op]
		if dr == "" {
			return Reading{}, false
		}
		there := fmt.Sprintf("Roll20 counts %s, rpg-dice-roller gives 1 when the total is %s %s (%scs%s%s)", r20, dr, y, text, cmpOpNames[c.Op], v)
		return Reading{c.OpAt, fmt.Sprintf("%s%s%s: here the group's total compared with %s; %s — write (%s) %s %s for the total",
			text, cmpOpNames[c.Op], y, y, there, text, cmpOpNames[c.Op], y)}, true
	}
	there, ok := targetCount(c.Op, "sums", text+"cs", v, y)
	if !ok {
		return Reading{}, false
	}
	return Reading{c.OpAt, fmt.Sprintf("%s%s%s: here the group's total compared with %s; %s — write (%s) %s %s for the total",
		text, cmpOpNames[c.Op], y, y, there, text, cmpOpNames[c.Op], y)}, true
}

// groupKeep is the reading of a keep or drop on a group of one expression
// ({4d6+3d8}kh1): here (and in Roll20 and rpg-dice-roller) it ranks the
// expression's dice, in Foundry it keeps or drops the expression whole.
func groupKeep(src string, g *Group) (Reading, bool) {
	if len(g.Items) != 1 || g.End.Off == 0 || g.End.Off > len(src) {
		return Reading{}, false
	}
	for _, m := range g.Mods {
		switch m.(type) {
		case *Keep, *Drop:
			text := src[g.At.Off:g.End.Off]
			foundry := "the expression itself"
			if x, err := ParseIn(text, Foundry); err == nil {
				foundry = String(x)
			}
			msg := fmt.Sprintf("%s: %s keeps or drops the dice of the group's one expression (as in Roll20 and rpg-dice-roller); Foundry keeps or drops the expression whole (%s here)",
				text, modString(m), foundry)
			if d, ok := g.Items[0].(*Dice); ok && len(d.Mods) == 0 && !slices.ContainsFunc(g.Mods, func(m Mod) bool {
				_, keep := m.(*Keep)
				_, drop := m.(*Drop)
				return !keep && !drop
			}) {
				// One dice term: the keeps and drops go on the term.
				c := *d
				c.Mods = slices.Clone(g.Mods)
				return Reading{m.Pos(), msg + " — write " + String(&c) + " for this reading"}, true
			}
			return Reading{m.Pos(), msg + ", and has no form of this reading"}, true
		}
	}
	return Reading{}, false
}

// targetCount says how Roll20 (whose > and < include the number) and
// rpg-dice-roller read a target op y glued to what (the dice, the sums):
// a count, written here as counted (3d6# or {…}cs) and the condition on v.
func targetCount(op CmpOp, what, counted, v, y string) (string, bool) {
	switch op {
	case Gt:
		return fmt.Sprintf("Roll20 counts the %s of at least %s (%s>=%s here), rpg-dice-roller the %s over %s (%s>%s)", what, y, counted, v, what, y, counted, v), true
	case Ge:
		return fmt.Sprintf("Roll20 and rpg-dice-roller count the %s of at least %s (%s>=%s here)", what, y, counted, v), true
	case Lt:
		return fmt.Sprintf("Roll20 counts the %s of at most %s (%s<=%s here), rpg-dice-roller the %s under %s (%s<%s)", what, y, counted, v, what, y, counted, v), true
	case Le:
		return fmt.Sprintf("Roll20 and rpg-dice-roller count the %s of at most %s (%s<=%s here)", what, y, counted, v), true
	}
	return "", false
}

// condWords says which dice a condition picks: "showing 1", "under 2", …;
// dflt names the face of a condition left out.
func condWords(c *Cond, dflt string) string {
	if c == nil {
		return "showing " + dflt
	}
	v := operand(c.Value)
	switch c.Op {
	case Lt:
		return "under " + v
	case Le:
		return "of at most " + v
	case Gt:
		return "over " + v
	case Ge:
		return "of at least " + v
	}
	return "showing " + v
}

// inclusive is the condition Roll20 reads in c (its < and > include the
// number), and the condition oddsmith reads in c written with <= or >=
// (false when the value is not a whole number).
func inclusive(c *Cond) (roll20, here *Cond, ok bool) {
	v, ok := constInt(c.Value, 0)
	if !ok {
		return nil, nil, false
	}
	n := c.Value
	switch c.Op {
	case Lt:
		return &Cond{Op: Le, Value: n}, &Cond{Op: Le, Value: &Num{Value: expr.Int(v - 1)}}, true
	case Gt:
		return &Cond{Op: Ge, Value: n}, &Cond{Op: Ge, Value: &Num{Value: expr.Int(v + 1)}}, true
	}
	return nil, nil, false
}

// with is d with its modifier i replaced by m (removed when m is nil),
// printed.
func with(d *Dice, i int, m Mod) string {
	c := *d
	c.Mods = slices.Clone(d.Mods[:i])
	if m != nil {
		c.Mods = append(c.Mods, m)
	}
	c.Mods = append(c.Mods, d.Mods[i+1:]...)
	return String(&c)
}

// without is d without the modifiers drop picks, printed.
func without(d *Dice, drop func(Mod) bool) string {
	c := *d
	c.Mods = slices.DeleteFunc(slices.Clone(d.Mods), drop)
	return String(&c)
}

// faces are a term's die faces when they are written as numbers (d6,
// d%, dF, d{…}), in order.
func faces(d *Dice) ([]int64, bool) {
	run := func(lo, hi int64) []int64 {
		var fs []int64
		for f := lo; f <= hi; f++ {
			fs = append(fs, f)
		}
		return fs
	}
	switch d.Kind {
	case Sided:
		n, ok := constInt(d.Sides, 0)
		if !ok || n < 1 || n > 1000 {
			return nil, false
		}
		return run(1, n), true
	case Percent:
		return run(1, 100), true
	case Fudge:
		return run(-1, 1), true
	case Custom:
		var fs []int64
		for _, f := range d.Faces {
			if !f.Value.IsInt() {
				return nil, false
			}
			fs = append(fs, f.Value.N)
		}
		return fs, len(fs) > 0
	}
	return nil, false
}

// holds reports whether face f meets the condition c, whose value must be
// a whole number; dflt is the face of a condition left out.
func holds(c *Cond, f, dflt int64) (bool, bool) {
	if c == nil {
		return f == dflt, true
	}
	v, ok := constInt(c.Value, 0)
	if !ok {
		return false, false
	}
	switch c.Op {
	case Lt:
		return f < v, true
	case Le:
		return f <= v, true
	case Gt:
		return f > v, true
	case Ge:
		return f >= v, true
	}
	return f == v, true
}

// keptFaces is the custom die that rerolling d's dice meeting c until
// they do not leaves, with d's modifiers but modifier i, printed ("" when
// the faces or the condition are not numbers, or every face is rerolled).
func keptFaces(d *Dice, i int, c *Cond) string {
	fs, ok := faces(d)
	if !ok || bounded(d) {
		return ""
	}
	var keep []int64
	for _, f := range fs {
		out, ok := holds(c, f, slices.Min(fs))
		if !ok {
			return ""
		}
		if !out {
			keep = append(keep, f)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	count := ""
	switch n := d.Count.(type) {
	case nil:
	case *Num:
		count = String(n)
	default:
		count = "(" + String(n) + ")"
	}
	var mods strings.Builder
	for j, m := range d.Mods {
		if j != i {
			mods.WriteString(m.String())
		}
	}
	return count + "d{" + faceList(keep) + "}" + mods.String()
}

// faceList writes faces, runs of three or more as a..b.
func faceList(fs []int64) string {
	var parts []string
	for i := 0; i < len(fs); {
		j := i
		for j+1 < len(fs) && fs[j+1] == fs[j]+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%d..%d", fs[i], fs[j]))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, strconv.FormatInt(fs[k], 10))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// diceReadings are the readings of one dice term's modifiers.
func diceReadings(src string, d *Dice) []Reading {
	var out []Reading
	term := termText(src, d)
	exploded, kept := false, ""
	for i := 0; i < len(d.Mods); i++ {
		switch m := d.Mods[i].(type) {
		case *Reroll:
			if m.Once {
				if r20, here, ok := inclusive(condOrNil(m.Cond)); ok {
					out = append(out, Reading{m.At, fmt.Sprintf("%s: ro%s rerolls once a die %s; Roll20's ro%s rerolls once a die %s (%s here) — write %s for this reading",
						term, condText(m.Cond), condWords(m.Cond, ""), condText(m.Cond), condWords(r20, ""),
						with(d, i, &Reroll{Once: true, Cond: r20}), with(d, i, &Reroll{Once: true, Cond: here}))})
				}
				continue
			}
			if next, ok := nextReroll(d, i); ok && m.Cond == nil {
				// rr: Foundry's recursive reroll, two rerolls here.
				foundry := keptFaces(&Dice{Count: d.Count, Kind: d.Kind, Sides: d.Sides, Faces: d.Faces, Mods: slices.Delete(slices.Clone(d.Mods), i, i+1)}, i, next.Cond)
				if foundry == "" {
					foundry = with(d, i, nil)
				}
				msg := fmt.Sprintf("%s: rr%s is two rerolls here, r (of the lowest face) and r%s; Foundry's rr%s is one, rerolling the dice %s until they show another face (%s here)",
					term, condText(next.Cond), condText(next.Cond), condText(next.Cond), condWords(next.Cond, ""), foundry)
				if fs := keptDieFaces(d); fs != nil {
					ours := keptFaces(&Dice{Count: d.Count, Kind: Custom, Faces: fs, Mods: slices.Delete(slices.Clone(d.Mods), i, i+1)}, i, next.Cond)
					if ours != "" {
						msg += " — write " + ours + " for this reading"
					}
				}
				out = append(out, Reading{m.At, msg})
				i++
				continue
			}
			msg := fmt.Sprintf("%s: r%s rerolls the dice %s until they show another face", term, condText(m.Cond), condWords(m.Cond, "the lowest face"))
			if r20, _, ok := inclusive(condOrNil(m.Cond)); ok {
				r20Form := keptFaces(d, i, r20)
				if r20Form == "" {
					r20Form = with(d, i, &Reroll{Cond: r20})
				}
				msg += fmt.Sprintf(" (as in rpg-dice-roller); Roll20's r%s rerolls the dice %s (%s here) and Foundry's r rerolls once (%s)",
					condText(m.Cond), condWords(r20, ""), r20Form, with(d, i, &Reroll{Once: true, Cond: m.Cond}))
			} else {
				msg += fmt.Sprintf(" (as in Roll20 and rpg-dice-roller); Foundry's r rerolls once (%s here)", with(d, i, &Reroll{Once: true, Cond: m.Cond}))
			}
			if ours := keptFaces(d, i, m.Cond); ours != "" {
				msg += " — write " + ours + " for this reading"
			}
			out = append(out, Reading{m.At, msg})
		case *Explode:
			if !m.Compound && !m.Each {
				exploded = true
			}
			if m.Cond != nil && (m.Cond.Op == Gt || m.Cond.Op == Lt) {
				if r20, here, ok := inclusive(m.Cond); ok {
					bang := "!"
					if m.Compound {
						bang = "!!"
					}
					if m.Penetrate {
						bang += "p"
					}
					if m.Each {
						bang += "e"
					}
					out = append(out, Reading{m.At, fmt.Sprintf("%s: %s%s explodes the dice %s (as in rpg-dice-roller); Roll20's %s%s explodes the dice %s (%s here) — write %s for this reading",
						term, bang, condText(m.Cond), condWords(m.Cond, ""), bang, condText(m.Cond), condWords(r20, ""),
						with(d, i, &Explode{Compound: m.Compound, Penetrate: m.Penetrate, Each: m.Each, Cond: r20, Limit: m.Limit, Total: m.Total}),
						with(d, i, &Explode{Compound: m.Compound, Penetrate: m.Penetrate, Each: m.Each, Cond: here, Limit: m.Limit, Total: m.Total}))})
				}
			}
		case *Matches:
			if m.Cond != nil {
				if r20, here, ok := inclusive(m.Cond); ok {
					out = append(out, Reading{m.At, fmt.Sprintf("%s: %s counts the matched sets of faces %s; Roll20's %s counts those of faces %s (%s here) — write %s for this reading",
						term, modString(m), condWords(m.Cond, ""), modString(m), condWords(r20, ""),
						with(d, i, &Matches{Size: m.Size, Cond: r20}), with(d, i, &Matches{Size: m.Size, Cond: here}))})
				}
			}
		case *Keep, *Drop:
			if kept == "" {
				kept = modSrc(src, d, i)
			}
		case *CountSuccess:
			if m.Hash {
				continue
			}
			total := without(d, func(x Mod) bool {
				switch x.(type) {
				case *CountSuccess, *CountFail:
					return true
				}
				return false
			})
			msg := fmt.Sprintf("%s: cs%s counts the dice %s (as in Foundry); Roll20's and rpg-dice-roller's cs only marks critical successes, the term being the total of its dice (%s here)",
				term, condText(m.Cond), condWords(m.Cond, "the highest face"), total)
			if hash := hashOf(d, m); hash != "" {
				msg += " — write " + with(d, i, &CountSuccess{Cond: hash2cond(d, m), Hash: true}) + " for this reading"
			}
			out = append(out, Reading{m.At, msg})
		case *CountFail:
			msg := fmt.Sprintf("%s: cf%s takes the dice %s away from the count (Foundry's df%s); Foundry's cf counts them instead",
				term, condText(m.Cond), condWords(m.Cond, "the lowest face"), condText(m.Cond))
			if !slices.ContainsFunc(d.Mods, func(x Mod) bool { _, ok := x.(*CountSuccess); return ok }) {
				if c := hash2cond(d, m); c != nil {
					msg += fmt.Sprintf(" (%s here)", with(d, i, &CountSuccess{Cond: c, Hash: true}))
				}
			}
			msg += ", and Roll20's and rpg-dice-roller's cf only marks critical failures — there is no other way to write this reading yet"
			out = append(out, Reading{m.At, msg})
		}
	}
	var bound *FaceBound
	rolled := false
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *FaceBound:
			if bound == nil {
				bound = m
			}
		case *Explode, *Reroll:
			rolled = true
		}
	}
	if bound != nil && rolled {
		out = append(out, Reading{bound.At, fmt.Sprintf("%s: %s changes the die where it is written, for the rerolls and explosions after it and the dice they roll; rpg-dice-roller applies min and max before any reroll or explosion, whatever the order written, and rolls the new dice without them — there is no other way to write this reading",
			term, modString(bound))})
	}
	if exploded && kept != "" {
		// The two spellings that say which reading is meant: !! (each
		// die with its extra rolls as one, this reading) and !e (every
		// roll a die of its own, Roll20's and Foundry's).
		spelled := func(compound bool) string {
			mods := slices.Clone(d.Mods)
			for j, m := range mods {
				if x, ok := m.(*Explode); ok {
					c := *x
					c.Compound, c.Each = compound, !compound
					mods[j] = &c
				}
			}
			c := *d
			c.Mods = mods
			return String(&c)
		}
		out = append(out, Reading{d.At, fmt.Sprintf("%s: %s keeps or drops each exploded die with its extra rolls as one die (as !! does); Roll20 and Foundry keep and drop the extra rolls as dice of their own (%s here) — write %s for this reading",
			term, kept, spelled(false), spelled(true))})
	}
	return out
}

// modSrc is the text of d's modifier i as written (printed when d was
// built by hand).
func modSrc(src string, d *Dice, i int) string {
	start, end := d.Mods[i].Pos().Off, d.End.Off
	if i+1 < len(d.Mods) {
		end = d.Mods[i+1].Pos().Off
	}
	if start <= 0 || end <= start || end > len(src) {
		return d.Mods[i].String()
	}
	return src[start:end]
}

// nextReroll is the reroll written right after modifier i (rr), if any.
func nextReroll(d *Dice, i int) (*Reroll, bool) {
	if i+1 >= len(d.Mods) {
		return nil, false
	}
	r, ok := d.Mods[i+1].(*Reroll)
	cur := d.Mods[i].(*Reroll)
	return r, ok && !r.Once && r.At.Off == cur.At.Off+1 && r.At.Off > 0
}

// bounded reports a term with min or max, which change the faces a
// reroll sees: no custom die is offered for it.
func bounded(d *Dice) bool {
	return slices.ContainsFunc(d.Mods, func(m Mod) bool { _, ok := m.(*FaceBound); return ok })
}

// keptDieFaces is d's custom faces after rerolling its lowest face (the
// first r of rr), for the reading of rr here.
func keptDieFaces(d *Dice) []*Num {
	fs, ok := faces(d)
	if !ok || bounded(d) {
		return nil
	}
	lo := slices.Min(fs)
	var out []*Num
	for _, f := range fs {
		if f != lo {
			out = append(out, &Num{Value: expr.Int(f)})
		}
	}
	return out
}

// condOrNil is c, or a condition that inclusive reads as not whole.
func condOrNil(c *Cond) *Cond {
	if c == nil {
		return &Cond{Op: Eq, Value: &Name{Name: "_"}}
	}
	return c
}

// condText prints a modifier's condition as written after it (">=7", "1",
// "").
func condText(c *Cond) string {
	if c == nil {
		return ""
	}
	var p printer
	p.cond(c)
	return p.String()
}

// hash2cond is the condition of a # that counts what m counts: m's own,
// or for one left out the face it stands for (the highest for cs, the
// lowest for cf); nil when that face is not a number.
func hash2cond(d *Dice, m Mod) *Cond {
	var c *Cond
	high := true
	switch m := m.(type) {
	case *CountSuccess:
		c = m.Cond
	case *CountFail:
		c, high = m.Cond, false
	}
	if c != nil {
		return c
	}
	fs, ok := faces(d)
	if !ok {
		return nil
	}
	f := slices.Min(fs)
	if high {
		f = slices.Max(fs)
	}
	return &Cond{Op: Eq, Value: &Num{Value: expr.Int(f)}}
}

// hashOf is "#" when m can be written with # (its condition, or the face
// one left out stands for, is known), else "".
func hashOf(d *Dice, m Mod) string {
	if hash2cond(d, m) == nil {
		return ""
	}
	return "#"
}
