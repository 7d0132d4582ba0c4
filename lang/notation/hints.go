package notation

import (
	"fmt"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"regexp"
	"strconv"
	"strings"
)

// Messages that teach: a construct of another dice tool that oddsmith does
// not read is refused by its name, with the oddsmith expression that means
// the same where there is one, and docs/translating.md (which has a row for
// each) where there is not.

// translating is where the rows of other tools' constructs are.
const translating = "docs/translating.md"

// labelEnd is the offset after a label "[text]" whose "[" is at open (the
// text not empty, on one line, without brackets, and not an AnyDice call),
// or 0 when there is none. Labels are Roll20's and Foundry's names of a
// term (2d6[Fire]); they change nothing and name nothing yet.
func (p *parser) labelEnd(open int) int {
	end := strings.IndexAny(p.src[open+1:], "[]\n")
	if end < 0 || p.src[open+1+end] != ']' {
		return 0
	}
	inner := strings.TrimSpace(p.src[open+1 : open+1+end])
	if inner == "" || anyDiceWord.MatchString(inner) {
		return 0
	}
	p.work += end + 2
	return open + end + 2
}

// bracketMessage is the refusal of a "[" at open: AnyDice's function
// calls ([highest 3 of 4d6]) with their oddsmith form, Roll20's and
// Foundry's labels ([Fire]); "" when it is neither.
func (p *parser) bracketMessage(open int) string {
	close := strings.IndexByte(p.src[open:], ']')
	if close < 0 {
		return ""
	}
	inner := strings.TrimSpace(p.src[open+1 : open+close])
	whole := strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(clip(p.src[open : open+close+1]))
	if inner == "" || strings.HasPrefix(inner, "[") {
		return ""
	}
	if s := anyDiceCall(inner); s != "" {
		return fmt.Sprintf("AnyDice's function call %s is not supported: %s (%s#anydice)", whole, s, translating)
	}
	if anyDiceWord.MatchString(inner) {
		return fmt.Sprintf("AnyDice's function call %s is not supported: see %s#anydice for its oddsmith form", whole, translating)
	}
	return fmt.Sprintf("a label such as %s goes right after a term (2d6[Fire])", whole)
}

var (
	anyDiceWord    = regexp.MustCompile(`^(highest|lowest|middle|explode|count|absolute|sort|reverse|maximum|length)\b`)
	anyDiceKeep    = regexp.MustCompile(`^(highest|lowest)\s+(\d+)\s+of\s+(\d*d\d+)$`)
	anyDiceOf2     = regexp.MustCompile(`^(highest|lowest)\s+of\s+(.+?)\s+and\s+(.+)$`)
	anyDiceExplode = regexp.MustCompile(`^explode\s+(\d*d\d+)$`)
	anyDiceCount   = regexp.MustCompile(`^count\s+\{([\d\s,.]+)\}\s+in\s+(\d*)d(\d+)$`)
	anyDiceAbs     = regexp.MustCompile(`^absolute\s+(.+)$`)
)

// anyDiceCall is the oddsmith form of an AnyDice function call's inside
// ("highest 3 of 4d6"), or "".
func anyDiceCall(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if m := anyDiceKeep.FindStringSubmatch(s); m != nil {
		k := "kh"
		if m[1] == "lowest" {
			k = "kl"
		}
		if m[2] == "1" {
			return fmt.Sprintf("write %s(%s) or %s%s", m[1], m[3], m[3], k)
		}
		return fmt.Sprintf("write %s(%s, %s) or %s%s%s", m[1], m[3], m[2], m[3], k, m[2])
	}
	if m := anyDiceOf2.FindStringSubmatch(s); m != nil {
		f := "max"
		if m[1] == "lowest" {
			f = "min"
		}
		return fmt.Sprintf("write %s(%s, %s)", f, m[2], m[3])
	}
	if m := anyDiceExplode.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("AnyDice explodes at most twice: write %s!{2}", m[1])
	}
	if m := anyDiceCount.FindStringSubmatch(s); m != nil {
		pool := m[2] + "d" + m[3]
		sides, _ := strconv.Atoi(m[3])
		if lo, hi, ok := faceRun(m[1]); ok {
			switch {
			case hi == sides && lo == hi:
				return fmt.Sprintf("write count(%s == %d)", pool, lo)
			case hi == sides:
				return fmt.Sprintf("write count(%s >= %d)", pool, lo)
			case lo == 1:
				return fmt.Sprintf("write count(%s <= %d)", pool, hi)
			case lo == hi:
				return fmt.Sprintf("write count(%s == %d)", pool, lo)
			}
		}
		return "a set that is not a run at an end of the die is several counts of one pool, named in a rule file"
	}
	if m := anyDiceAbs.FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("write abs(%s)", m[1])
	}
	if strings.HasPrefix(s, "middle ") {
		return "the middle dice are highest(pool, n) - highest(pool, m) of one pool, named in a rule file"
	}
	return ""
}

// faceRun reads a set of faces "5, 6" or "5..6" as the run lo..hi, when it
// is one.
func faceRun(s string) (lo, hi int, ok bool) {
	var faces []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		a, b, isRun := strings.Cut(part, "..")
		x, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil {
			return 0, 0, false
		}
		y := x
		if isRun {
			if y, err = strconv.Atoi(strings.TrimSpace(b)); err != nil || y < x {
				return 0, 0, false
			}
		}
		for f := x; f <= y && len(faces) <= 1000; f++ {
			faces = append(faces, f)
		}
	}
	if len(faces) == 0 {
		return 0, 0, false
	}
	for i := 1; i < len(faces); i++ {
		if faces[i] != faces[i-1]+1 {
			return 0, 0, false
		}
	}
	return faces[0], faces[len(faces)-1], true
}

// commentMessage is the refusal of a comment: the "#" at off, and what to
// keep.
func (p *parser) commentMessage(off int) string {
	before := p.src[:off]
	if i := strings.LastIndexAny(before, "\n\r"); i >= 0 {
		before = before[i+1:]
	}
	before = strings.TrimSpace(before)
	if p.depth > 0 {
		return "a comment (# …) runs to the end of its line, so it cannot close what is open: put it after the whole expression, with a space before the #"
	}
	return fmt.Sprintf("a comment needs a space before the # (%s # …); a # right after dice counts successes (3d6#>=5)", clip(before))
}

// fudgeVariant reads Foundry's and rpg-dice-roller's Fudge variants after
// "dF" (the "." at off): dF.2 is dF, dF.1 (one −, four blanks, one +) the
// die d{-1,0,0,0,0,1}, which is how it prints; any other is refused.
func (p *parser) fudgeVariant(d *Dice, off int) {
	end := off + 1
	for end < len(p.src) && isDigit(p.src[end]) {
		end++
	}
	switch p.src[off+1 : end] {
	case "1":
		d.Kind = Custom
		for _, f := range []int64{-1, 0, 0, 0, 0, 1} {
			d.Faces = append(d.Faces, &Num{At: d.At, Value: expr.Int(f)})
		}
		p.off = end
		return
	case "2":
		p.off = end
		return
	}
	p.failAt(off, "dF.%s: the Fudge variants are dF.1 (d{-1,0,0,0,0,1}) and dF.2 (dF)", clip(p.src[off+1:end]))
}

// condText is the text of a dice condition at off (">=8", "10", "<(n)"),
// for messages; it does not check it.
func (p *parser) condText(off int) string {
	end := off
	for end < len(p.src) && strings.IndexByte("<>=", p.src[end]) >= 0 {
		end++
	}
	if end < len(p.src) && p.src[end] == '-' {
		end++
	}
	for end < len(p.src) && isDigit(p.src[end]) {
		end++
	}
	return p.src[off:end]
}

// foreignModifier is the refusal of a dice modifier of another tool at off
// (after the term d's text so far): its name and the oddsmith form, or ""
// when it is no known modifier.
func (p *parser) foreignModifier(d *Dice, off int) string {
	term := clip(p.src[d.At.Off:off])
	rest := p.src[off:]
	switch {
	case strings.HasPrefix(rest, "xo"):
		cond := p.condText(off + 2)
		if max, target, ok := p.foundryCap(off + 2); ok {
			return fmt.Sprintf("%q is Foundry's explode once on %s with at most %s explosions in the whole term: write %s!%s{1, %s in all}", "xo"+max+target, target, max, term, target, max)
		}
		return fmt.Sprintf("%q is Foundry's explode once: write %s!%s{1}", "xo"+cond, term, p.explodeCond(d, cond))
	case strings.HasPrefix(rest, "x") || strings.HasPrefix(rest, "X"):
		cond := p.condText(off + 1)
		if cond != "" && isDigit(cond[0]) {
			if max, target, ok := p.foundryCap(off + 1); ok {
				return fmt.Sprintf("%q is Foundry's explode on %s with at most %s explosions in the whole term: write %s!%s{%s in all}",
					rest[:1]+max+target, target, max, term, target, max)
			}
			return fmt.Sprintf("%q is Foundry's explode on %s: write %s!%s (or --dialect foundry)", rest[:1]+cond, cond, term, cond)
		}
		return fmt.Sprintf("%q is Foundry's explode: write %s!%s", rest[:1]+cond, term, cond)
	case strings.HasPrefix(rest, "df"):
		cond := p.condText(off + 2)
		return fmt.Sprintf("%q is Foundry's deduct failures (each die meeting it takes one away): write %scf%s", "df"+cond, term, cond)
	case strings.HasPrefix(rest, "sf"):
		return fmt.Sprintf("\"sf\" is Foundry's subtract failures (the failed dice's values are taken away), which has no equivalent yet; see %s", translating)
	case strings.HasPrefix(rest, "s"):
		return fmt.Sprintf("%q sorts the dice, which does not change the distribution: leave it out (%s)", p.word(off)[1:len(p.word(off))-1], term)
	case strings.HasPrefix(rest, "f"):
		cond := p.condText(off + 1)
		return fmt.Sprintf("%q is Roll20's failures (each die meeting it takes a success away): write %scf%s", "f"+cond, term, cond)
	}
	return ""
}

// foundryCap reads, at off, the cap and the condition of Foundry's
// x2>=8 (at most 2 explosions in the whole term, on 8 or more): "2",
// ">=8"; ok is false when off holds no number followed by a comparison.
func (p *parser) foundryCap(off int) (max, target string, ok bool) {
	end := off
	for end < len(p.src) && isDigit(p.src[end]) {
		end++
	}
	if end == off || !strings.ContainsRune("<>=", rune(p.at(end))) {
		return "", "", false
	}
	return p.src[off:end], p.condText(end), true
}

// explodeCond is an explosion's condition written the oddsmith way: a bare
// number that is the die's highest face needs none.
func (p *parser) explodeCond(d *Dice, cond string) string {
	if n, ok := d.Sides.(*Num); ok && d.Kind == Sided && cond == n.Value.String() {
		return ""
	}
	return cond
}
