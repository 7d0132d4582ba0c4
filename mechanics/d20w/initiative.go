package d20w

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Initiative (mechanics.md §2.3): 1d20 + BCB + DEX, highest first; equal
// totals go to the higher initiative modifier (BCB + DEX), then to a coin.
// We read "a coin" for three or more combatants tied on both as a
// uniformly random order among them (what repeated coin tosses give).

// maxExactInitiative is the largest number of combatants whose full
// ordering the exact engine enumerates.
const (
	maxExactInitiative = 4
	maxInitiative      = 12
)

// combatant names: a, b, c, …
func combatant(i int) string { return string(rune('a' + i)) }

// initiativeModel holds the dice of one initiative roll: a natural d20 per
// combatant, and the dice of a uniformly random order (Fisher–Yates: a
// d(j+1) for j = k−1 … 1) that breaks ties on both total and modifier.
type initiativeModel struct {
	k          int
	mods       []int
	nat, perm  *mechanics.Record
	natSlots   []mechanics.Slot
	swapSlots  []mechanics.Slot // swapSlots[j] for j = 1..k−1 (index 0 unused)
	needsCoin  bool
	natNode    mechanics.Node
	orderNode  mechanics.Node
	permFields []string
}

func newInitiative(mods []int) *initiativeModel {
	k := len(mods)
	m := &initiativeModel{k: k, mods: mods}
	var nf []mechanics.Field
	for i := range mods {
		nf = append(nf, mechanics.Int("n_"+combatant(i), 1, 20, "natural d20 of combatant "+combatant(i)))
	}
	m.nat = mechanics.NewRecord(nf...)
	for i := range mods {
		m.natSlots = append(m.natSlots, m.nat.Slot("n_"+combatant(i)))
	}
	for i := range mods {
		for j := i + 1; j < k; j++ {
			if mods[i] == mods[j] {
				m.needsCoin = true
			}
		}
	}
	// The tie-breaking order is rolled only where two modifiers are equal.
	var pf []mechanics.Field
	if m.needsCoin {
		for j := 1; j < k; j++ {
			pf = append(pf, mechanics.Int(fmt.Sprintf("swap_%d", j), 0, j, fmt.Sprintf("Fisher–Yates step %d: the place swapped with place %d", j, j)))
		}
	}
	m.perm = mechanics.NewRecord(pf...)
	m.swapSlots = make([]mechanics.Slot, k)
	var dice []fieldDie
	for _, f := range pf {
		m.swapSlots[f.Hi] = m.perm.Slot(f.Name)
		dice = append(dice, fieldDie{f.Name, mechanics.D(f.Hi + 1), -1})
	}
	var nd []fieldDie
	for _, f := range nf {
		nd = append(nd, fieldDie{f.Name, d20, 0})
	}
	m.natNode = rollGrouped(m.nat, nd)
	m.orderNode = rollGrouped(m.perm, dice)
	return m
}

// fieldDie is one die rolled into a record field (plus shift).
type fieldDie struct {
	field string
	die   mechanics.Die
	shift int
}

// rollGrouped is the record whose fields are independent dice, rolled in
// groups small enough for the simulator to tabulate each group (at most
// 2¹⁶ combinations) and then joined.
func rollGrouped(rec *mechanics.Record, dice []fieldDie) mechanics.Node {
	var groups []mechanics.Node
	var slots [][]mechanics.Slot
	var acc mechanics.Node
	var accSlots []mechanics.Slot
	size := 1
	for _, d := range dice {
		n := len(d.die.Faces)
		if acc == nil || size*n > 1<<16 {
			if acc != nil {
				groups, slots = append(groups, acc), append(slots, accSlots)
			}
			acc, accSlots, size = mechanics.Const{V: rec.Start()}, nil, 1
		}
		s, shift := rec.Slot(d.field), d.shift
		acc = mechanics.Combine{X: acc, Y: d.die, Name: d.field, F: func(code, v int) int { return s.Set(code, v+shift) }}
		accSlots, size = append(accSlots, s), size*n
	}
	if acc == nil {
		return mechanics.Const{V: rec.Start()}
	}
	groups, slots = append(groups, acc), append(slots, accSlots)
	out := groups[0]
	for g := 1; g < len(groups); g++ {
		ss := slots[g]
		out = mechanics.Combine{X: out, Y: groups[g], Name: "dice", F: func(x, y int) int {
			for _, s := range ss {
				x = s.Set(x, s.Get(y))
			}
			return x
		}}
	}
	return out
}

// outcome is the order of one roll: place[i] is combatant i's place (0 =
// first), order[p] the combatant in place p; coin reports a tie on total
// and modifier (decided by the random order), modTie a tie on total that
// the modifiers decided.
type initiativeOutcome struct {
	place, order [maxInitiative]int
	coin, modTie bool
}

func (m *initiativeModel) outcome(natCode, permCode int) initiativeOutcome {
	var o initiativeOutcome
	var total, rank [maxInitiative]int
	for i := 0; i < m.k; i++ {
		total[i] = m.natSlots[i].Get(natCode) + m.mods[i]
		rank[i] = i
	}
	if m.needsCoin {
		// Fisher–Yates: a uniformly random order of the combatants.
		var perm [maxInitiative]int
		for i := 0; i < m.k; i++ {
			perm[i] = i
		}
		for j := m.k - 1; j >= 1; j-- {
			s := m.swapSlots[j].Get(permCode)
			perm[j], perm[s] = perm[s], perm[j]
		}
		for p := 0; p < m.k; p++ {
			rank[perm[p]] = p
		}
	}
	for i := 0; i < m.k; i++ {
		for j := 0; j < m.k; j++ {
			if j == i {
				continue
			}
			before := false
			switch {
			case total[j] != total[i]:
				before = total[j] > total[i]
			case m.mods[j] != m.mods[i]:
				before = m.mods[j] > m.mods[i]
				o.modTie = true
			default:
				before = rank[j] < rank[i]
				o.coin = true
			}
			if before {
				o.place[i]++
			}
		}
	}
	for i := 0; i < m.k; i++ {
		o.order[o.place[i]] = i
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
	ps := []mechanics.Param{ip("combatants", float64(defK), 2, float64(maxK), fmt.Sprintf("combatants k (2–%d)", maxK))}
	defs := []float64{2, 2, 1, 3, 0, 4, 2, 1, 5, 3, 0, 2}
	for i := 0; i < maxK; i++ {
		ps = append(ps, ip("mod_"+combatant(i), defs[i], -10, 40, fmt.Sprintf("combatant %s's initiative modifier BCB + DEX (used with k ≥ %d)", combatant(i), i+1)))
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
		Summary: fmt.Sprintf("initiative: d20 + BCB + DEX, highest first; ties to the higher modifier, then a coin; full orderings of 2–%d combatants", maxExactInitiative),
		Doc: "T = N + BCB + DEX; the highest acts first; equal totals go to the higher initiative modifier, then to a coin. Pairwise " +
			"P(A before B) = P(N_A + a > N_B + b) + P(tie)·([a > b] + ½[a = b]). The full ordering of k ≤ 4 combatants is enumerated " +
			"exactly (20^k rolls and a uniformly random order for those tied on total and modifier: repeated coin tosses). For 5–12 " +
			"combatants use d20w.initiative.crowd, which only the simulator computes (mechanics.md §2.3).",
		Params:  initiativeParams(maxExactInitiative, 2),
		Options: nil,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
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
			out := mechanics.Combine{X: m.natNode, Y: m.orderNode, Name: "order", F: func(nat, perm int) int {
				o := m.outcome(nat, perm)
				code := so.Set(start, lehmer(o.order[:k]))
				code = sm.Set(code, m.natSlots[0].Get(nat)+m.mods[0]-m.natSlots[1].Get(nat)-m.mods[1])
				return st.SetBool(sc.SetBool(code, o.coin), o.modTie)
			}}
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
		},
	}
}

func initiativeCrowd() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.initiative.crowd",
		Summary: fmt.Sprintf("initiative of up to %d combatants (simulated): A's place, who acts first, A before each other", maxInitiative),
		Doc: "The rule of d20w.initiative (d20 + BCB + DEX, highest first, ties to the higher modifier, then a coin) for 2–12 " +
			"combatants. Beyond 4 the full ordering has 20^k rolls and k! orders, too many to enumerate, so only the simulator " +
			"computes this mechanic; it reports A's place, who acts first, and whether A acts before each other combatant " +
			"(mechanics.md §2.3).",
		MCOnly:   true,
		MCReason: fmt.Sprintf("the full ordering of more than %d combatants is not enumerated: 20^k rolls times k! tie-breaking orders", maxExactInitiative),
		Params:   initiativeParams(maxInitiative, 6),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			m := newInitiative(initiativeMods(c, maxInitiative))
			k := m.k
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
			start := rec.Start()
			out := mechanics.Combine{X: m.natNode, Y: m.orderNode, Name: "order", F: func(nat, perm int) int {
				o := m.outcome(nat, perm)
				code := first.Set(pos.Set(start, o.place[0]+1), o.order[0])
				for i := 1; i < k; i++ {
					code = before[i].SetBool(code, o.place[0] < o.place[i])
				}
				return coin.SetBool(code, o.coin)
			}}
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Report(rec.Fields[0].Name, "first")
			for i := 1; i < k; i++ {
				spec.Report("a_before_" + combatant(i))
			}
			spec.Report("coin")
			return spec, nil
		},
	}
}

func init() { register(initiative(), initiativeCrowd()) }
