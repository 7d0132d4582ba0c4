package ag

import (
	"fmt"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// degenerationMechanics are the mechanics declared in degeneration.go.
func degenerationMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{woundDegeneration()}
}

// Options of ag.wound_degeneration.
var (
	optDegFailureAdds = mechanics.SwitchOf("ag.wound_degeneration", "failure_adds",
		"flesh: a failure on either clock adds a flesh wound; same_type: a failure adds a wound of the clock's type", degAddsFlesh, degAddsSameType)
	optDegFumble = mechanics.SwitchOf("ag.wound_degeneration", "fumble",
		"deep_instead: a fumble adds a deep wound; deep_in_addition: a deep wound as well as the failure's", degDeepInstead, degDeepInAddition)
	optDegFirst  = mechanics.SwitchOf("ag.wound_degeneration", "first_test", "after_one_period or immediately", degAfterOnePeriod, degImmediately)
	optDegUpdate = mechanics.SwitchOf("ag.wound_degeneration", "period_update",
		"at_next_test: a clock's new period applies from its next test; immediately_on_change: both clocks are rescheduled from their last test when the counts change",
		degAtNextTest, degOnChange)
	optDegPenalties = mechanics.SwitchOf("ag.wound_degeneration", "penalties", "on: wound penalties (flesh −1, deep −2) apply to the tests; off",
		degPenaltiesOn, degPenaltiesOff)
	optDegTie   = mechanics.SwitchOf("ag.wound_degeneration", "tie", "failure: T = 1 exactly fails", zeroMoSFails)
	optDegClock = mechanics.SwitchOf("ag.wound_degeneration", "clock",
		"deterministic: tests every 24 h ÷ F and 1 h ÷ D exactly; exponential: memoryless clocks with rates F/24 and D per hour, stepped per minute (a test falls in a minute with probability F/1440 and D/60)",
		degDeterministic, degExponential)
)

// degRules are the decoded rules of one wound-degeneration model.
type degRules struct {
	o               CoreOptions
	boxes, f0, d0   int
	hours           int
	body, mod       int
	sameType, inAdd bool
	immediately     bool
	onChange        bool
	penalties       bool
	exponential     bool
	classes         [][]uint8 // [penalty][roll record] → test result
	possible        [][3]bool // [penalty][test result]: some roll gives it
}

// Results of one degeneration test.
const (
	degPass = iota
	degFail
	degFumbled
)

// newDegRules decodes the configuration and tabulates the test: its
// result for every roll record and every wound penalty (flesh + 2·deep
// boxes filled, while the track is not full).
func newDegRules(c mechanics.Config) degRules {
	r := degRules{
		o: coreOptionsOf(c), boxes: c.Int("boxes"), f0: c.Int("flesh"), d0: c.Int("deep"), hours: c.Int("hours"),
		body: c.Int("body"), mod: c.Int("modifier"),
		sameType: optDegFailureAdds.Of(c) == degAddsSameType, inAdd: optDegFumble.Of(c) == degDeepInAddition,
		immediately: optDegFirst.Of(c) == degImmediately, onChange: optDegUpdate.Of(c) == degOnChange,
		penalties: optDegPenalties.Of(c) == degPenaltiesOn, exponential: optDegClock.Of(c) == degExponential,
	}
	_ = optDegTie.Of(c) // T = 1 fails: the test passes at T ≥ 2 below
	r.classes = make([][]uint8, r.boxes)
	r.possible = make([][3]bool, r.boxes)
	rolls := poolOutcomes(Pool(2, r.o))
	for pen := range r.classes {
		r.classes[pen] = make([]uint8, rollRecord.Size())
		m := r.mod
		if r.penalties {
			m -= pen
		}
		for code := range r.classes[pen] {
			switch {
			case rollFumble(code):
				r.classes[pen][code] = degFumbled
			case rollTotal(code, r.body, m) <= 1:
				r.classes[pen][code] = degFail
			}
		}
		for _, code := range rolls {
			r.possible[pen][r.classes[pen][code]] = true
		}
	}
	return r
}

// class is the result of a test with roll record x at f flesh and d deep
// wounds.
func (r *degRules) class(x, f, d int) int { return int(r.classes[f+2*d][x]) }

// apply adds the wounds of a test result on the flesh or the deep clock.
func (r *degRules) apply(f, d, class int, flesh bool) (int, int) {
	if class == degFail || (class == degFumbled && r.inAdd) {
		if r.sameType && !flesh {
			d++
		} else {
			f++
		}
	}
	if class == degFumbled {
		d++
	}
	return f, d
}

// degRoll is what a degeneration test reads of the two-dice Body roll.
var (
	degRoll       = mechanics.NewRecord(mechanics.Int("roll", 1, 7, "the two-dice result R"), mechanics.Flag("fumble", "double ones"))
	degRollValue  = degRoll.Slot("roll")
	degRollFumble = degRoll.Slot("fumble")
)

// degState is one state of the wound-degeneration event-driven DP on the
// clocks' deterministic schedule: the wound counts and each clock's last
// and next test time (in units of 1/L minute, so every period 1440/F and
// 60/D minutes is a whole number; −1 = idle).
type degState struct {
	f, d            int
	lastF, lastD    int64
	nextF, nextD    int64
	bled, atHorizon bool
}

// lcmUpTo is the least common multiple of 1…n.
func lcmUpTo(n int) int64 {
	l := int64(1)
	for i := int64(2); i <= int64(n); i++ {
		l = expr.Lcm(l, i)
	}
	return l
}

// maxDegStates bounds the event DP.
const maxDegStates = 200000

func woundDegeneration() *mechanics.Mechanic {
	const id = "ag.wound_degeneration"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "untreated wounds getting worse: Body tests at TN 1 every 24 h ÷ flesh wounds and every hour ÷ deep wounds",
		Doc: "Each untreated, unstabilised wound type is tested on its own clock: flesh wounds every 24 h divided by their number, deep " +
			"wounds every hour divided by theirs. The test is Body vs TN 1 with the current wound penalties; failure adds a flesh wound, a " +
			"fumble a deep wound. A full wound track (a flesh wound fills one box, a deep wound two) means bleeding out. Computed exactly as an event-driven DP " +
			"on the clocks' deterministic schedule, over (wounds, clock times) with the times kept exactly; opt.clock=exponential is " +
			"the memoryless approximation, a chain on (F, D) stepped per minute.",
		Params: []mechanics.Param{ip("flesh", 1, 0, 11, "initial unstabilised flesh wounds F₀"), ip("deep", 1, 0, 6, "initial unstabilised deep wounds D₀"),
			named(pAttr, "body", "Body"), pModifier, ip("boxes", 6, 2, 12, "wound track capacity B (flesh 1, deep 2) [placeholder 6]"),
			ip("hours", 48, 1, 168, "horizon in hours")},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optDegFailureAdds, optDegFumble, optDegFirst, optDegUpdate, optDegPenalties, optDegTie, optDegClock),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			r := newDegRules(c)
			if r.f0+2*r.d0 >= r.boxes {
				return nil, fmt.Errorf("initial wounds fill the track already (%d flesh + 2·%d deep ≥ %d boxes)", r.f0, r.d0, r.boxes)
			}
			if r.exponential {
				return memorylessDegeneration(&r), nil
			}
			return eventDegeneration(&r)
		},
	}
}

// degGraph is the state graph of the event DP: the states reachable from
// the start, in the order they were found (breadth first), and each
// state's successor after a pass, a failure and a fumble (−1 for a result
// no roll gives there, and in the absorbing states). Times are in units of
// 1/L minute; H is the horizon in those units.
type degGraph struct {
	r      *degRules
	L, H   int64
	index  map[degState]int
	states []degState
	trans  [][3]int
}

// periodF and periodD are the flesh and deep clocks' periods with f flesh
// or d deep wounds: 24 h ÷ f and 1 h ÷ d.
func (g *degGraph) periodF(f int) int64 { return 1440 * g.L / int64(f) }
func (g *degGraph) periodD(d int) int64 { return 60 * g.L / int64(d) }

// start is the state at time 0: each clock with wounds to test is due
// after one period (or at once with opt.first_test=immediately).
func (g *degGraph) start() degState {
	r := g.r
	s := degState{f: r.f0, d: r.d0, nextF: -1, nextD: -1}
	first := func(p int64) int64 {
		if r.immediately {
			return 0
		}
		return p
	}
	if r.f0 > 0 {
		s.nextF = first(g.periodF(r.f0))
	}
	if r.d0 > 0 {
		s.nextD = first(g.periodD(r.d0))
	}
	return s
}

// intern is the index of a state, a new one when it was not seen before.
func (g *degGraph) intern(s degState) int {
	if s.bled {
		s.lastF, s.lastD, s.nextF = 0, 0, 0 // nextD carries the time
	}
	// States that differ only where it cannot matter have the same
	// future, and are one state: the last test times only matter when
	// both clocks are rescheduled from them (immediately_on_change),
	// and a test due after the horizon never happens (a new period
	// is counted from the test that happens or from the last test,
	// never from a test still due).
	if !g.r.onChange {
		s.lastF, s.lastD = 0, 0
	}
	if s.nextF > g.H {
		s.nextF = g.H + 1
	}
	if s.nextD > g.H {
		s.nextD = g.H + 1
	}
	if i, ok := g.index[s]; ok {
		return i
	}
	g.index[s] = len(g.states)
	g.states = append(g.states, s)
	g.trans = append(g.trans, [3]int{-1, -1, -1})
	return len(g.states) - 1
}

// finish makes s absorbing when the track is full (bled out) or when no
// test is due within the horizon.
func (g *degGraph) finish(s degState) degState {
	if s.f+2*s.d >= g.r.boxes {
		return degState{f: s.f, d: s.d, bled: true, nextD: 0}
	}
	nxt := int64(-1)
	for _, t := range []int64{s.nextF, s.nextD} {
		if t >= 0 && (nxt < 0 || t < nxt) {
			nxt = t
		}
	}
	if nxt < 0 || nxt > g.H {
		return degState{f: s.f, d: s.d, atHorizon: true}
	}
	return s
}

// step is the state after the test due first in s (the flesh clock's on a
// tie) ends in class: the wounds it adds, the clocks rescheduled.
func (g *degGraph) step(s degState, class int) degState {
	r := g.r
	flesh := s.nextF >= 0 && (s.nextD < 0 || s.nextF <= s.nextD)
	now := s.nextD
	if flesh {
		now = s.nextF
	}
	n := s
	n.f, n.d = r.apply(s.f, s.d, class, flesh)
	if n.f+2*n.d >= r.boxes {
		return degState{f: n.f, d: n.d, bled: true, nextD: now}
	}
	if flesh {
		n.lastF, n.nextF = now, now+g.periodF(n.f)
	} else {
		n.lastD, n.nextD = now, now+g.periodD(n.d)
	}
	// A clock that had nothing to test starts now.
	if s.f == 0 && n.f > 0 {
		n.lastF, n.nextF = now, now+g.periodF(n.f)
	}
	if s.d == 0 && n.d > 0 {
		n.lastD, n.nextD = now, now+g.periodD(n.d)
	}
	if r.onChange && (n.f != s.f || n.d != s.d) {
		if n.f > 0 {
			n.nextF = max(now, n.lastF+g.periodF(n.f))
		}
		if n.d > 0 {
			n.nextD = max(now, n.lastD+g.periodD(n.d))
		}
	}
	return g.finish(n)
}

// exploreDegeneration enumerates the states reachable from the start,
// breadth first, and their successors; it fails past maxDegStates.
func exploreDegeneration(r *degRules) (*degGraph, error) {
	L := lcmUpTo(r.boxes)
	g := &degGraph{r: r, L: L, H: int64(r.hours) * 60 * L, index: map[degState]int{}}
	queue := []int{g.intern(g.finish(g.start()))}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		s := g.states[i]
		if s.bled || s.atHorizon {
			continue
		}
		for class := range 3 {
			if !r.possible[s.f+2*s.d][class] {
				continue // no roll gives it: its successor is never reached
			}
			n := len(g.states)
			j := g.intern(g.step(s, class))
			g.trans[i][class] = j
			if j == n {
				queue = append(queue, j)
			}
		}
		if len(g.states) > maxDegStates {
			return nil, fmt.Errorf("too many states (%d); shorten the horizon", len(g.states))
		}
	}
	return g, nil
}

// longestPath is the most tests a path from the start can take. Every
// path absorbs (bleeding out or reaching the horizon), and the states form
// a DAG (each test moves a clock on or adds a wound), so it is a memoised
// walk.
func (g *degGraph) longestPath() int {
	longest := make([]int, len(g.states))
	for i := range longest {
		longest[i] = -1
	}
	var depth func(i int) int
	depth = func(i int) int {
		if longest[i] >= 0 {
			return longest[i]
		}
		d := 0
		for _, j := range g.trans[i] {
			if j >= 0 {
				d = max(d, 1+depth(j))
			}
		}
		longest[i] = d
		return d
	}
	return depth(0)
}

// process is the chain on the graph's states, one test per step: one
// kernel for every state, the Body roll (what the test reads of it), and
// a move that reads the state's successor for the roll's result at the
// state's penalty, tabulated per state and roll.
func (g *degGraph) process() *mechanics.Process {
	r, states := g.r, g.states
	p := &mechanics.Process{Homogeneous: true, TimeUnit: "test", Start: 0, Horizon: max(g.longestPath(), 1)}
	pens := make([]int, len(states))
	for i, s := range states {
		name := fmt.Sprintf("%d flesh %d deep", s.f, s.d)
		switch {
		case s.bled:
			name = fmt.Sprintf("bled out at minute %d", s.nextD/g.L)
		case s.atHorizon:
			name = fmt.Sprintf("alive at %d h with %d flesh, %d deep", r.hours, s.f, s.d)
		default:
			pens[i] = s.f + 2*s.d
		}
		p.Add(s.bled || s.atHorizon, name)
	}
	kernel := mechanics.Map{X: Pool(2, r.o), Name: "Body roll", F: func(x int) int {
		return degRollFumble.SetBool(degRollValue.Set(degRoll.Start(), rollValue(x)), rollFumble(x))
	}}
	K := degRoll.Size()
	move := make([]int32, len(states)*K)
	for si := range states {
		if states[si].bled || states[si].atHorizon {
			continue
		}
		for k := range K {
			x := slotFumble.SetBool(slotRoll.Set(rollRecord.Start(), degRollValue.Get(k)), degRollFumble.Bool(k))
			move[si*K+k] = int32(g.trans[si][r.classes[pens[si]][x]]) // −1 for a roll the dice never show
		}
	}
	p.Kernel = func(int) mechanics.Node { return kernel }
	p.Move = func(_, si, k int) int { return int(move[si*K+k]) }
	return p
}

// eventDegeneration is the exact event DP: the states reachable from the
// start, one test per step (whichever clock is due first; flesh first on
// a tie), each state's three successors (pass, fail, fumble) tabulated.
func eventDegeneration(r *degRules) (*mechanics.Spec, error) {
	g, err := exploreDegeneration(r)
	if err != nil {
		return nil, err
	}
	p := g.process()
	states, L := g.states, g.L
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	spec.Vars = []mechanics.Var{
		{Name: "hours_to_bleed_out", Doc: "hours (rounded up) until the track is full; hours+1 = not within the horizon", Unit: "h",
			Expr: p.StateTable(func(si int) int {
				if s := states[si]; s.bled {
					return int((s.nextD + 60*L - 1) / (60 * L))
				}
				return r.hours + 1
			})},
		{Name: "flesh_at_end", Doc: "flesh wounds when the track filled or at the horizon", Unit: "wounds", Expr: p.StateTable(func(si int) int { return states[si].f })},
		{Name: "deep_at_end", Doc: "deep wounds when the track filled or at the horizon", Unit: "wounds", Expr: p.StateTable(func(si int) int { return states[si].d })},
	}
	spec.Event("bled_out", "the wound track filled within the horizon", p.StateSet(func(si int) bool { return states[si].bled })).
		Event("got_worse", "at least one wound more than at the start", p.StateSet(func(si int) bool { s := states[si]; return s.f > r.f0 || s.d > r.d0 }))
	return spec, nil
}

// clockRecord is one clock's minute under the memoryless clocks: whether
// it tested, and the Body roll if it did.
var (
	clockRecord = mechanics.NewRecord(append([]mechanics.Field{mechanics.Flag("tested", "the clock tested this minute")}, rollRecord.Fields...)...)
	clockTested = clockRecord.Slot("tested")
	clockRoll   = clockRecord.Embed("", rollRecord)
)

// memorylessDegeneration is opt.clock=exponential: the state is (F, D) only;
// each minute a flesh test happens with probability F/1440 and a deep test
// with probability D/60 (flesh first when both), the per-minute form of
// Poisson clocks with rates F/24 and D per hour. The chances of a test
// depend on the state, so each state has its own step (Step form, not one
// shared kernel); the chain is homogeneous.
func memorylessDegeneration(r *degRules) *mechanics.Spec {
	B, f0, d0 := r.boxes, r.f0, r.d0
	counts := mechanics.NewRecord(mechanics.Int("flesh", 0, B, "flesh wounds"), mechanics.Int("deep", 0, B, "deep wounds"))
	sFlesh, sDeep := counts.Slot("flesh"), counts.Slot("deep")
	p := &mechanics.Process{Homogeneous: true, TimeUnit: "minute", Horizon: r.hours * 60}
	base := p.AddRecord(false, counts)
	bled := p.Add(true, "bled_out")
	p.Start = base + sDeep.Set(sFlesh.Set(counts.Start(), f0), d0)
	roll := Pool(2, r.o)
	noTest := clockRecord.Start()
	// clock tests with probability n/per in a minute.
	clock := func(n, per int) mechanics.Node {
		if n == 0 {
			return mechanics.Const{V: noTest}
		}
		happens := mechanics.Die{Faces: []int{1, 0}, Weights: []int64{int64(n), int64(per - n)}}
		return mechanics.Combine{X: happens, Y: roll, Name: "test", F: func(h, x int) int {
			if h == 0 {
				return noTest
			}
			return clockRoll.Put(clockTested.Set(noTest, 1), x)
		}}
	}
	p.Step = func(_, s int) mechanics.Node {
		code := s - base
		f, d := sFlesh.Get(code), sDeep.Get(code)
		if f+2*d >= B {
			return mechanics.Const{V: bled} // unreachable: a full track has bled out
		}
		return mechanics.Combine{X: clock(f, 1440), Y: clock(d, 60), Name: "minute", F: func(x, y int) int {
			nf, nd := f, d
			if clockTested.Bool(x) {
				nf, nd = r.apply(nf, nd, r.class(clockRoll.Get(x), f, d), true)
			}
			if clockTested.Bool(y) && nf+2*nd < B {
				nf, nd = r.apply(nf, nd, r.class(clockRoll.Get(y), nf, nd), false)
			}
			if nf+2*nd >= B {
				return bled
			}
			return base + sDeep.Set(sFlesh.Set(code, nf), nd)
		}}
	}
	atEnd := func(sl mechanics.Slot) expr.Expr {
		return p.StateTable(func(s int) int {
			if s == bled {
				return 0
			}
			return sl.Get(s - base)
		})
	}
	isBled := p.In(bled)
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	spec.Vars = []mechanics.Var{
		{Name: "hours_to_bleed_out", Doc: "hours (rounded up) until the track is full", Unit: "h",
			Expr: expr.Ceil(expr.Div(expr.F("time"), expr.K(60))), When: isBled,
			Otherwise: fmt.Sprintf("not bled out within %d hours", r.hours)},
		{Name: "flesh_at_end", Doc: "0 after bleeding out", Unit: "wounds", Expr: atEnd(sFlesh)},
		{Name: "deep_at_end", Doc: "0 after bleeding out", Unit: "wounds", Expr: atEnd(sDeep)},
	}
	spec.Event("bled_out", "the wound track filled within the horizon", isBled).
		Event("got_worse", "bled out, or at least one wound more than at the start", expr.Or(isBled, p.StateSet(func(s int) bool {
			return s != bled && (sFlesh.Get(s-base) > f0 || sDeep.Get(s-base) > d0)
		})))
	return spec
}

// poolOutcomes lists the roll records a pool node can yield, by rolling
// every combination of its dice through its evaluator.
func poolOutcomes(n mechanics.Node) []int {
	p, ok := n.(mechanics.Pool)
	if !ok {
		panic("ag: poolOutcomes of a node that is not a pool")
	}
	faces := append([]int(nil), p.Die.Faces...)
	slices.Sort(faces)
	faces = slices.Compact(faces)
	counts := make([]int, len(faces))
	seen := map[int]bool{}
	var out []int
	var roll func(left, from int)
	roll = func(left, from int) {
		if left == 0 {
			st := p.Eval.Start()
			for i, f := range faces {
				st = p.Eval.Next(st, f, counts[i])
			}
			if v := p.Eval.Final(st); !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
			return
		}
		for i := from; i < len(faces); i++ {
			counts[i]++
			roll(left-1, i)
			counts[i]--
		}
	}
	roll(p.N, 0)
	return out
}
