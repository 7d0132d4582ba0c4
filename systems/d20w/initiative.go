package d20w

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Initiative (docs/mechanics.md#d20w-initiative): 1d20 + BCB + DEX,
// highest first; equal totals go to the higher initiative modifier
// (BCB + DEX), then to a coin. We read "a coin" for three or more
// combatants tied on both as a uniformly random order among them (what
// repeated coin tosses give).

// maxExactInitiative is the largest number of combatants whose full
// ordering the exact engine enumerates (d20w.initiative), maxInitiative
// the largest d20w.initiative.crowd simulates, minInitiative the fewest
// either takes.
const (
	maxExactInitiative = 4
	maxInitiative      = 12
	minInitiative      = 2
)

// combatant names: a, b, c, …
func combatant(i int) string { return string(rune('a' + i)) }

// initiativeModel holds the dice of one initiative roll: a natural d20 per
// combatant and, where two combatants have the same modifier, a uniformly
// random order of all of them that breaks ties on both total and modifier
// (one draw among the k! orders for k ≤ 8; Fisher–Yates steps, a d(j+1)
// for j = k−1 … 1, beyond).
type initiativeModel struct {
	k    int
	mods []int
	// nat, draw and swaps read the dice from the value of node x or y
	// (see dieField).
	nat       []dieField
	needsCoin bool
	draw      dieField
	ranks     []int8 // ranks[d·k + i]: combatant i's place in order d
	swaps     []dieField
	// minMod and modSpan place the modifiers in the sort key.
	minMod, modSpan int
	// sameMod and otherMod list the pairs of combatants with equal and
	// with different modifiers.
	sameMod, otherMod [][2]int
	// coinOnly skips looking for ties the modifiers decide.
	coinOnly bool
	// keyScale and keyBase make the sort key of a total.
	keyScale int
	keyBase  []int
	// x and y are the independent groups of dice (y is nil when one group
	// holds them all).
	x, y mechanics.Node
}

// dieField reads one die of the roll from the value of node x (group 0)
// or y (group 1): from a table of every value of the group's record, made
// when the model is built, or through the record's slot where the group
// has too many values to tabulate.
type dieField struct {
	slot  *mechanics.Slot
	table []int32
	group int
}

func (d *dieField) get(x, y int) int {
	v := [2]int{x, y}[d.group]
	if d.table != nil {
		return int(d.table[v])
	}
	return d.slot.Get(v)
}

// newDieField reads the field name of rec, the record of group g.
func newDieField(rec *mechanics.Record, name string, g int) dieField {
	s := rec.Slot(name)
	d := dieField{slot: &s, group: g}
	if rec.Size() <= 1<<16 {
		d.table = make([]int32, rec.Size())
		for code := range d.table {
			d.table[code] = int32(s.Get(code))
		}
	}
	return d
}

// maxDrawn is the largest k whose order is drawn as one die of k! faces.
const maxDrawn = 8

// newInitiative is the model of one initiative roll of combatants with
// the modifiers mods: the sort keys, the dice and their readers.
func newInitiative(mods []int) *initiativeModel {
	k := len(mods)
	m := &initiativeModel{k: k, mods: mods, minMod: slices.Min(mods)}
	m.modSpan = slices.Max(mods) - m.minMod + 1
	for i := range mods {
		for j := i + 1; j < k; j++ {
			if mods[i] == mods[j] {
				m.sameMod = append(m.sameMod, [2]int{i, j})
			} else {
				m.otherMod = append(m.otherMod, [2]int{i, j})
			}
		}
	}
	m.needsCoin = len(m.sameMod) > 0
	m.keyScale = m.modSpan * maxInitiative
	for _, mod := range mods {
		m.keyBase = append(m.keyBase, (-m.minMod*m.modSpan+mod-m.minMod)*maxInitiative+maxInitiative-1)
	}
	m.placeDice(m.dice())
	return m
}

// dice declares the dice of the roll: a natural d20 per combatant and,
// where two combatants have the same modifier, the tie-breaking order (a
// draw among the k! orders, whose ranks it tabulates, or the Fisher–Yates
// steps).
func (m *initiativeModel) dice() ([]mechanics.Field, []fieldDie) {
	k := m.k
	var fields []mechanics.Field
	var dice []fieldDie
	for i := range m.mods {
		name := "n_" + combatant(i)
		fields = append(fields, mechanics.Int(name, 1, 20, "natural d20 of combatant "+combatant(i)))
		dice = append(dice, fieldDie{name, d20, 0})
	}
	all := orders(min(k, maxDrawn))
	switch {
	case !m.needsCoin:
	case k <= maxDrawn:
		fields = append(fields, mechanics.Int("order_draw", 0, len(all)-1, "the tie-breaking order, one of the k! orders"))
		dice = append(dice, fieldDie{"order_draw", mechanics.D(len(all)), -1})
		m.ranks = make([]int8, len(all)*k)
		for d, o := range all {
			for p, c := range o {
				m.ranks[d*k+c] = int8(p)
			}
		}
	default:
		for j := 1; j < k; j++ {
			name := fmt.Sprintf("swap_%d", j)
			fields = append(fields, mechanics.Int(name, 0, j, fmt.Sprintf("Fisher–Yates step %d: the place swapped with place %d", j, j)))
			dice = append(dice, fieldDie{name, mechanics.D(j + 1), -1})
		}
	}
	return fields, dice
}

// placeDice rolls the dice in at most two independent values, x and y,
// and makes the reader of each die.
func (m *initiativeModel) placeDice(fields []mechanics.Field, dice []fieldDie) {
	groups := rollGrouped(fields, dice)
	// Two independent values, each a record of its own: the groups before
	// a split joined, and the groups from it joined (the last group alone
	// where the others fit in one record).
	split := len(groups) - 1
	for split > 1 && !fits(groups[:split]) {
		split--
	}
	first := join(groups[:split])
	m.x = first.node
	var second diceGroup
	if split < len(groups) {
		second = join(groups[split:])
		m.y = second.node
	}
	field := func(name string) dieField {
		if m.y != nil && second.rec.Index(name) >= 0 {
			return newDieField(second.rec, name, 1)
		}
		return newDieField(first.rec, name, 0)
	}
	for i := range m.mods {
		m.nat = append(m.nat, field("n_"+combatant(i)))
	}
	if m.needsCoin && m.k <= maxDrawn {
		m.draw = field("order_draw")
	} else if m.needsCoin {
		m.swaps = make([]dieField, m.k)
		for j := 1; j < m.k; j++ {
			m.swaps[j] = field(fmt.Sprintf("swap_%d", j))
		}
	}
}

// fits reports whether the groups' fields fit in one record (2⁵²
// values).
func fits(groups []diceGroup) bool {
	size := 1
	for _, g := range groups {
		if size > (1<<52)/g.rec.Size() {
			return false
		}
		size *= g.rec.Size()
	}
	return true
}

// join is the record of the groups' fields, rolled as one value.
func join(groups []diceGroup) diceGroup {
	if len(groups) == 1 {
		return groups[0]
	}
	var fields []mechanics.Field
	for _, g := range groups {
		fields = append(fields, g.rec.Fields...)
	}
	out := diceGroup{rec: mechanics.NewRecord(fields...)}
	out.node = mechanics.Const{V: out.rec.Start()}
	for _, g := range groups {
		var from, to []mechanics.Slot
		for _, f := range g.rec.Fields {
			from, to = append(from, g.rec.Slot(f.Name)), append(to, out.rec.Slot(f.Name))
		}
		out.node = mechanics.Combine{X: out.node, Y: g.node, Name: "dice", F: func(x, y int) int {
			for i, s := range from {
				x = to[i].Set(x, s.Get(y))
			}
			return x
		}}
	}
	return out
}

// node is f of the roll's dice (x, y) as one node.
func (m *initiativeModel) node(name string, f func(x, y int) int) mechanics.Node {
	if m.y == nil {
		return mechanics.Map{X: m.x, Name: name, F: func(x int) int { return f(x, x) }}
	}
	return mechanics.Combine{X: m.x, Y: m.y, Name: name, F: f}
}

// fieldDie is one die rolled into a record field (plus shift).
type fieldDie struct {
	field string
	die   mechanics.Die
	shift int
}

// diceGroup is a record of independent dice and the node that rolls it.
type diceGroup struct {
	rec  *mechanics.Record
	node mechanics.Node
}

// rollGrouped rolls independent dice, each into its field, in groups small
// enough for the simulator to tabulate each (at most 2¹⁶ combinations);
// every group has a record of its own fields, so that its values are few
// and close together for the exact engine too.
func rollGrouped(fields []mechanics.Field, dice []fieldDie) []diceGroup {
	var groups []diceGroup
	var members [][]int
	size := 0
	for i, d := range dice {
		n := len(d.die.Faces)
		if len(groups) == 0 || size*n > 1<<16 {
			groups, members, size = append(groups, diceGroup{}), append(members, nil), 1
		}
		g := len(groups) - 1
		members[g], size = append(members[g], i), size*n
	}
	for g, idx := range members {
		var fs []mechanics.Field
		for _, i := range idx {
			fs = append(fs, fields[i])
		}
		rec := mechanics.NewRecord(fs...)
		var node mechanics.Node = mechanics.Const{V: rec.Start()}
		for _, i := range idx {
			s, shift := rec.Slot(dice[i].field), dice[i].shift
			node = mechanics.Combine{X: node, Y: dice[i].die, Name: dice[i].field, F: func(code, v int) int { return s.Set(code, v+shift) }}
		}
		groups[g] = diceGroup{rec, node}
	}
	return groups
}

// initiativeRoll is one roll's sort keys: combatant i acts before j when
// key[i] > key[j] (a higher total, or equal totals and a higher modifier,
// or both equal and an earlier place in the random order). coin reports a
// tie on total and modifier (the random order decided it), modTie a tie on
// total that the modifiers decided.
type initiativeRoll struct {
	key          [maxInitiative]int
	coin, modTie bool
}

// roll fills r with the sort keys of the dice (x, y).
func (m *initiativeModel) roll(x, y int, r *initiativeRoll) {
	var rank [maxInitiative]int
	switch {
	case m.ranks != nil:
		d := m.draw.get(x, y) * m.k
		for i, rk := range m.ranks[d : d+m.k] {
			rank[i] = int(rk)
		}
	case m.swaps != nil:
		var perm [maxInitiative]int
		for i := 0; i < m.k; i++ {
			perm[i] = i
		}
		for j := m.k - 1; j >= 1; j-- {
			s := m.swaps[j].get(x, y)
			perm[j], perm[s] = perm[s], perm[j]
		}
		for p := 0; p < m.k; p++ {
			rank[perm[p]] = p
		}
	}
	var total [maxInitiative]int
	for i := 0; i < m.k; i++ {
		total[i] = m.nat[i].get(x, y) + m.mods[i]
		// total first, then the modifier, then the random order:
		// ((total − minMod)·modSpan + mod − minMod)·12 + 11 − rank.
		r.key[i] = total[i]*m.keyScale + m.keyBase[i] - rank[i]
	}
	// Equal totals decide by the modifier, or where the modifiers are
	// equal too, by the random order.
	coins, ties := 0, 0
	for _, p := range m.sameMod {
		coins += bit(total[p[0]] == total[p[1]])
	}
	if !m.coinOnly {
		for _, p := range m.otherMod {
			ties += bit(total[p[0]] == total[p[1]])
		}
	}
	r.coin, r.modTie = coins > 0, ties > 0
}

// place is combatant i's place (0 = first).
func (r *initiativeRoll) place(i, k int) int {
	p := 0
	for j := 0; j < k; j++ {
		p += bit(r.key[j] > r.key[i])
	}
	return p
}

// order lists the combatants first to last (in o[:k]).
func (r *initiativeRoll) order(k int) (o [maxInitiative]int) {
	for i := 0; i < k; i++ {
		o[r.place(i, k)] = i
	}
	return o
}

// lehmer is the index of an order among the k! orders (lexicographic).
func lehmer(order []int) int {
	idx := 0
	for i := range order {
		smaller := 0
		for j := i + 1; j < len(order); j++ {
			if order[j] < order[i] {
				smaller++
			}
		}
		idx = idx*(len(order)-i) + smaller
	}
	return idx
}

// orders lists the k! orders in lehmer order.
func orders(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for first := 0; first < k; first++ {
		for _, rest := range orders(k - 1) {
			o := []int{first}
			for _, r := range rest {
				if r >= first {
					r++
				}
				o = append(o, r)
			}
			out = append(out, o)
		}
	}
	return out
}

func orderLabel(o []int) string {
	names := make([]string, len(o))
	for i, c := range o {
		names[i] = combatant(c)
	}
	return strings.Join(names, ">")
}

func initiativeParams(maxK, defK int) []mechanics.Param {
	ps := []mechanics.Param{ip("combatants", float64(defK), minInitiative, float64(maxK), fmt.Sprintf("combatants k (%d–%d)", minInitiative, maxK))}
	defs := []float64{2, 2, 1, 3, 0, 4, 2, 1, 5, 3, 0, 2}
	for i := 0; i < maxK; i++ {
		ps = append(ps, ip("mod_"+combatant(i), defs[i], -10, 40, fmt.Sprintf("combatant %s's initiative modifier BCB + DEX (used with k ≥ %d)", combatant(i), max(i+1, minInitiative))))
	}
	return ps
}

func initiativeMods(c mechanics.Config, maxK int) []int {
	k := c.Int("combatants")
	mods := make([]int, maxK)
	for i := range mods {
		mods[i] = c.Int("mod_" + combatant(i)) // read all: nothing is read after Build
	}
	return mods[:k]
}

// tableOf is the lookup table of f over the values 0..n−1 of a field.
func tableOf(n int, f func(v int) int) []int64 {
	t := make([]int64, n)
	for v := range t {
		t[v] = int64(f(v))
	}
	return t
}

func initiative() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.initiative",
		Summary: fmt.Sprintf("initiative: d20 + BCB + DEX, highest first; ties to the higher modifier, then a coin; full orderings of %d–%d combatants", minInitiative, maxExactInitiative),
		Doc: fmt.Sprintf("T = N + BCB + DEX; the highest acts first; equal totals go to the higher initiative modifier, then to a coin. Pairwise "+
			"P(A before B) = P(N_A + a > N_B + b) + P(tie)·([a > b] + ½[a = b]). The full ordering of k ≤ %d combatants is enumerated "+
			"exactly (20^k rolls and a uniformly random order for those tied on total and modifier: repeated coin tosses). For %d–%d "+
			"combatants use d20w.initiative.crowd, which only the simulator computes.", maxExactInitiative, maxExactInitiative+1, maxInitiative),
		Params:  initiativeParams(maxExactInitiative, 2),
		Options: nil,
		Build:   initiativeSpec,
	}
}

// initiativeSpec is the model of d20w.initiative: the full order of action
// of k ≤ 4 combatants, enumerated over their dice.
func initiativeSpec(c mechanics.Config) (*mechanics.Spec, error) {
	m := newInitiative(initiativeMods(c, maxExactInitiative))
	k, all := m.k, orders(m.k)
	labels := make([]string, len(all))
	for i, o := range all {
		labels[i] = orderLabel(o)
	}
	diff := m.mods[0] - m.mods[1]
	rec := mechanics.NewRecord(
		mechanics.Enum("order", "the order of action, first to last (a>b: a acts before b)", labels...),
		mechanics.Int("margin_ab", diff-19, diff+19, "T_a − T_b"),
		mechanics.Flag("coin", "two combatants tie on total and modifier: a coin orders them"),
		mechanics.Flag("modifier_tiebreak", "two combatants tie on total and the higher modifier goes first"),
	)
	so, sm, sc, st := rec.Slot("order"), rec.Slot("margin_ab"), rec.Slot("coin"), rec.Slot("modifier_tiebreak")
	start := rec.Start()
	out := m.node("order", func(x, y int) int {
		var r initiativeRoll
		m.roll(x, y, &r)
		o := r.order(k)
		code := so.Set(start, lehmer(o[:k]))
		code = sm.Set(code, m.nat[0].get(x, y)+m.mods[0]-m.nat[1].get(x, y)-m.mods[1])
		return st.SetBool(sc.SetBool(code, r.coin), r.modTie)
	})
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	ord := expr.F("order")
	placeOf := func(i int) func(v int) int {
		return func(v int) int {
			for p, c := range all[v] {
				if c == i {
					return p + 1
				}
			}
			return 0
		}
	}
	spec.Var("a_position", "A's place in the order (1 = first)", expr.Table(ord, 0, tableOf(len(all), placeOf(0))...))
	for i := 1; i < k; i++ {
		spec.Var(combatant(i)+"_position", "combatant "+combatant(i)+"'s place in the order (1 = first)", expr.Table(ord, 0, tableOf(len(all), placeOf(i))...))
	}
	spec.Report("margin_ab")
	spec.Band("order", "the full order of action (a>b>c: a first, then b, then c)", labels, ord)
	for i := 0; i < k; i++ {
		first := placeOf(i)
		spec.Event(combatant(i)+"_first", "combatant "+combatant(i)+" acts first", expr.Table(ord, 0, tableOf(len(all), func(v int) int { return bit(first(v) == 1) })...))
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			pi, pj := placeOf(i), placeOf(j)
			spec.Event(combatant(i)+"_before_"+combatant(j), fmt.Sprintf("%s acts before %s: a higher total, or equal totals and a higher modifier, or a coin", combatant(i), combatant(j)),
				expr.Table(ord, 0, tableOf(len(all), func(v int) int { return bit(pi(v) < pj(v)) })...))
		}
	}
	spec.Report("coin", "modifier_tiebreak")
	return spec, nil
}

func initiativeCrowd() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.initiative.crowd",
		Summary: fmt.Sprintf("initiative of up to %d combatants (simulated): A's place, who acts first, A before each other", maxInitiative),
		Doc: fmt.Sprintf("The rule of d20w.initiative (d20 + BCB + DEX, highest first, ties to the higher modifier, then a coin) for %d–%d "+
			"combatants. Beyond %d the full ordering has 20^k rolls and k! orders, too many to enumerate, so only the simulator "+
			"computes this mechanic; it reports A's place, who acts first, and whether A acts before each other combatant.", minInitiative, maxInitiative, maxExactInitiative),
		MCOnly:   true,
		MCReason: fmt.Sprintf("the full ordering of more than %d combatants is not enumerated: 20^k rolls times k! tie-breaking orders", maxExactInitiative),
		Params:   initiativeParams(maxInitiative, 5),
		Build:    crowdSpec,
	}
}

// crowdSpec is the model of d20w.initiative.crowd: A's place, who acts
// first and A before each other, for up to 12 combatants (simulated).
func crowdSpec(c mechanics.Config) (*mechanics.Spec, error) {
	m := newInitiative(initiativeMods(c, maxInitiative))
	m.coinOnly = true
	k := m.k
	cr := newCrowdRecord(k)
	out := m.node("order", func(x, y int) int {
		var r initiativeRoll
		m.roll(x, y, &r)
		pa, mask, first, top := 0, 0, 0, r.key[0]
		for i := 1; i < k; i++ {
			later := bit(r.key[i] < r.key[0])
			pa += 1 - later
			mask |= later << (i - 1)
			if r.key[i] > top {
				first, top = i, r.key[i]
			}
		}
		return cr.code(pa, first, r.coin, mask)
	})
	spec := &mechanics.Spec{Record: cr.rec, Outcome: out}
	spec.Report(cr.rec.Fields[0].Name, "first")
	for i := 1; i < k; i++ {
		spec.Report("a_before_" + combatant(i))
	}
	spec.Report("coin")
	return spec, nil
}

// crowdRecord is the record of d20w.initiative.crowd for k combatants:
// A's place, who acts first, A before each other, and the coin. The code
// of every (place of A, first, coin, flags) is made once, when the model
// is built, so that a trial reads it instead of setting fields.
type crowdRecord struct {
	rec      *mechanics.Record
	k, flags int
	codes    []int
}

func newCrowdRecord(k int) crowdRecord {
	names := make([]string, k)
	for i := range names {
		names[i] = combatant(i)
	}
	fields := []mechanics.Field{
		mechanics.Int("a_position", 1, k, "A's place in the order (1 = first)"),
		mechanics.Enum("first", "the combatant who acts first", names...),
	}
	for i := 1; i < k; i++ {
		fields = append(fields, mechanics.Flag("a_before_"+combatant(i), "A acts before "+combatant(i)))
	}
	fields = append(fields, mechanics.Flag("coin", "two combatants tie on total and modifier: a coin orders them"))
	rec := mechanics.NewRecord(fields...)
	pos, first, coin := rec.Slot("a_position"), rec.Slot("first"), rec.Slot("coin")
	before := make([]mechanics.Slot, k)
	for i := 1; i < k; i++ {
		before[i] = rec.Slot("a_before_" + combatant(i))
	}
	cr := crowdRecord{rec: rec, k: k, flags: 1 << (k - 1)}
	cr.codes = make([]int, k*k*2*cr.flags)
	for p := 0; p < k; p++ {
		for f := 0; f < k; f++ {
			for cn := 0; cn < 2; cn++ {
				for mask := 0; mask < cr.flags; mask++ {
					code := coin.Set(first.Set(pos.Set(rec.Start(), p+1), f), cn)
					for i := 1; i < k; i++ {
						code = before[i].Set(code, mask>>(i-1)&1)
					}
					cr.codes[((p*k+f)*2+cn)*cr.flags+mask] = code
				}
			}
		}
	}
	return cr
}

// code is the record of A at place placeA (0 = first), combatant first
// acting first, coin, and mask: bit i−1 set when A acts after combatant i.
func (cr crowdRecord) code(placeA, first int, coin bool, mask int) int {
	return cr.codes[((placeA*cr.k+first)*2+bit(coin))*cr.flags+mask]
}

// initiativeMechanics are the mechanics declared in initiative.go.
func initiativeMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{initiative(), initiativeCrowd()}
}
