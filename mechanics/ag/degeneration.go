package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

func init() { register(woundDegeneration()) }

// degState is one state of the wound-degeneration event DP (K10): the wound
// counts and each clock's last and next test time (in units of 1/L minute, so
// every period 1440/F and 60/D minutes is a whole number; −1 = idle).
type degState struct {
	f, d            int
	lastF, lastD    int64
	nextF, nextD    int64
	bled, atHorizon bool
}

func lcmUpTo(n int) int64 {
	l := int64(1)
	for i := int64(2); i <= int64(n); i++ {
		a, b := l, i
		for b != 0 {
			a, b = b, a%b
		}
		l = l / a * i
	}
	return l
}

func woundDegeneration() *mechanics.Mechanic {
	const id = "ag.wound_degeneration"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "untreated wounds getting worse: Body tests at TN 1 every 24 h ÷ flesh wounds and every hour ÷ deep wounds",
		Doc: "Each untreated, unstabilised wound type is tested on its own clock: flesh wounds every 24 h divided by their number, deep " +
			"wounds every hour divided by theirs. The test is Body vs TN 1 with the current wound penalties; failure adds a flesh wound, a " +
			"fumble a deep wound. A full wound track (flesh 1 box, deep 2) means bleeding out. Exact event DP over (wounds, clock times) " +
			"with the times kept exactly (K10); opt.clock=exponential is the memoryless approximation, a chain on (F, D) stepped per " +
			"minute (mechanics.md §1.7).",
		Params: []mechanics.Param{ip("flesh", 1, 0, 11, "initial unstabilised flesh wounds F₀"), ip("deep", 1, 0, 6, "initial unstabilised deep wounds D₀"),
			named(pAttr, "body", "Body"), pModifier, ip("boxes", 6, 2, 12, "wound track capacity B (flesh 1, deep 2) [placeholder 6]"),
			ip("hours", 48, 1, 168, "horizon in hours")},
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option,
			opt(id, "failure_adds", "flesh: a failure on either clock adds a flesh wound; same_type: a failure adds a wound of the clock's type", "flesh", "same_type"),
			opt(id, "fumble", "deep_instead: a fumble adds a deep wound; deep_in_addition: a deep wound as well as the failure's", "deep_instead", "deep_in_addition"),
			opt(id, "first_test", "after_one_period or immediately", "after_one_period", "immediately"),
			opt(id, "period_update", "at_next_test: a clock's new period applies from its next test; immediately_on_change: both clocks are rescheduled from their last test when the counts change", "at_next_test", "immediately_on_change"),
			opt(id, "penalties", "on: wound penalties (flesh −1, deep −2) apply to the tests; off", "on", "off"),
			opt(id, "tie", "failure: T = 1 exactly fails", "failure"),
			opt(id, "clock", "deterministic: tests every 24 h ÷ F and 1 h ÷ D exactly; exponential: memoryless clocks with rates F/24 and D per hour, stepped per minute (a test falls in a minute with probability F/1440 and D/60)", "deterministic", "exponential")},
		Outputs: []string{"distributions: hours_to_bleed_out (hours+1 = not within the horizon), flesh_at_end, deep_at_end", "events: bled_out, got_worse"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			B := c.Int("boxes")
			f0, d0 := c.Int("flesh"), c.Int("deep")
			if f0+2*d0 >= B {
				return nil, fmt.Errorf("initial wounds fill the track already (%d flesh + 2·%d deep ≥ %d boxes)", f0, d0, B)
			}
			if c.Opt("clock") == "exponential" {
				return memorylessDegeneration(c, o, B, f0, d0), nil
			}
			L := lcmUpTo(B)
			H := int64(c.Int("hours")) * 60 * L
			periodF := func(f int) int64 { return 1440 * L / int64(f) }
			periodD := func(d int) int64 { return 60 * L / int64(d) }
			sameType := c.Opt("failure_adds") == "same_type"
			inAddition := c.Opt("fumble") == "deep_in_addition"
			onChange := c.Opt("period_update") == "immediately_on_change"
			penalties := c.Opt("penalties") == "on"
			body, m := c.Int("body"), c.Int("modifier")

			start := degState{f: f0, d: d0, nextF: -1, nextD: -1}
			first := func(p int64) int64 {
				if c.Opt("first_test") == "immediately" {
					return 0
				}
				return p
			}
			if f0 > 0 {
				start.nextF = first(periodF(f0))
			}
			if d0 > 0 {
				start.nextD = first(periodD(d0))
			}
			// Enumerate the reachable states breadth-first; class 0 pass, 1 fail, 2 fumble.
			index := map[degState]int{}
			var states []degState
			var trans [][3]int
			intern := func(s degState) int {
				if s.bled {
					s.lastF, s.lastD, s.nextF = 0, 0, 0 // nextD carries the time
				}
				if i, ok := index[s]; ok {
					return i
				}
				index[s] = len(states)
				states = append(states, s)
				trans = append(trans, [3]int{-1, -1, -1})
				return len(states) - 1
			}
			finish := func(s degState) degState {
				if s.f+2*s.d >= B {
					return degState{f: s.f, d: s.d, bled: true, nextD: 0}
				}
				nxt := int64(-1)
				for _, t := range []int64{s.nextF, s.nextD} {
					if t >= 0 && (nxt < 0 || t < nxt) {
						nxt = t
					}
				}
				if nxt < 0 || nxt > H {
					return degState{f: s.f, d: s.d, atHorizon: true}
				}
				return s
			}
			step := func(s degState, class int) degState {
				flesh := s.nextF >= 0 && (s.nextD < 0 || s.nextF <= s.nextD)
				now := s.nextD
				if flesh {
					now = s.nextF
				}
				n := s
				if class >= 1 {
					if class == 1 || inAddition {
						if sameType && !flesh {
							n.d++
						} else {
							n.f++
						}
					}
					if class == 2 {
						n.d++
					}
				}
				if n.f+2*n.d >= B {
					return degState{f: n.f, d: n.d, bled: true, nextD: now}
				}
				if flesh {
					n.lastF, n.nextF = now, now+periodF(n.f)
				} else {
					n.lastD, n.nextD = now, now+periodD(n.d)
				}
				// A clock that had nothing to test starts now.
				if s.f == 0 && n.f > 0 {
					n.lastF, n.nextF = now, now+periodF(n.f)
				}
				if s.d == 0 && n.d > 0 {
					n.lastD, n.nextD = now, now+periodD(n.d)
				}
				if onChange && (n.f != s.f || n.d != s.d) {
					if n.f > 0 {
						n.nextF = max(now, n.lastF+periodF(n.f))
					}
					if n.d > 0 {
						n.nextD = max(now, n.lastD+periodD(n.d))
					}
				}
				return finish(n)
			}
			s0 := finish(start)
			queue := []int{intern(s0)}
			for len(queue) > 0 {
				i := queue[0]
				queue = queue[1:]
				s := states[i]
				if s.bled || s.atHorizon {
					continue
				}
				for class := 0; class < 3; class++ {
					ns := step(s, class)
					_, seen := index[ns]
					j := intern(ns)
					trans[i][class] = j
					if !seen {
						queue = append(queue, j)
					}
				}
				if len(states) > 200000 {
					return nil, fmt.Errorf("too many states (%d); shorten the horizon", len(states))
				}
			}
			p := &mechanics.Process{Homogeneous: true, TimeUnit: "test", Start: 0, Horizon: len(states) + 1}
			for _, s := range states {
				name := fmt.Sprintf("%d flesh %d deep", s.f, s.d)
				switch {
				case s.bled:
					name = fmt.Sprintf("bled out at minute %d", s.nextD/L)
				case s.atHorizon:
					name = fmt.Sprintf("alive at %d h with %d flesh, %d deep", c.Int("hours"), s.f, s.d)
				}
				p.Add(s.bled || s.atHorizon, name)
			}
			roll := Pool(2, o)
			p.Kernel = func(int) mechanics.Node { return roll }
			p.Move = func(_, si, r int) int {
				s := states[si]
				pen := 0
				if penalties {
					pen = -(s.f + 2*s.d)
				}
				class := 0
				switch {
				case rollFumble(r):
					class = 2
				case Total(r, body, m+pen) <= 1:
					class = 1
				}
				return trans[si][class]
			}
			hoursOf := func(x int) int {
				_, si := p.SplitOutcome(x)
				if s := states[si]; s.bled {
					return int((s.nextD + 60*L - 1) / (60 * L))
				}
				return c.Int("hours") + 1
			}
			stateOf := func(x int) degState { _, si := p.SplitOutcome(x); return states[si] }
			return &mechanics.Spec{
				Process: p,
				Vars: []mechanics.Var{
					{Name: "hours_to_bleed_out", Doc: "hours (rounded up) until the track is full; hours+1 = not within the horizon", Of: hoursOf},
					{Name: "flesh_at_end", Of: func(x int) int { return stateOf(x).f }},
					{Name: "deep_at_end", Of: func(x int) int { return stateOf(x).d }},
				},
				Events: []mechanics.Event{
					{Name: "bled_out", Of: func(x int) bool { return stateOf(x).bled }},
					{Name: "got_worse", Of: func(x int) bool { s := stateOf(x); return s.f > f0 || s.d > d0 }},
				},
			}, nil
		},
	}
}

// memorylessDegeneration is opt.clock=exponential: the state is (F, D) only;
// each minute a flesh test happens with probability F/1440 and a deep test
// with probability D/60 (flesh first when both), the per-minute form of
// Poisson clocks with rates F/24 and D per hour.
func memorylessDegeneration(c mechanics.Config, o CoreOptions, B, f0, d0 int) *mechanics.Spec {
	sameType := c.Opt("failure_adds") == "same_type"
	inAddition := c.Opt("fumble") == "deep_in_addition"
	penalties := c.Opt("penalties") == "on"
	body, m := c.Int("body"), c.Int("modifier")
	W := B + 1
	p := &mechanics.Process{Homogeneous: true, TimeUnit: "minute", Horizon: c.Int("hours") * 60}
	for f := 0; f <= B; f++ {
		for d := 0; d <= B; d++ {
			p.Add(false, fmt.Sprintf("%d flesh %d deep", f, d))
		}
	}
	bled := p.Add(true, "bled_out")
	p.Start = f0*W + d0
	roll := Pool(2, o)
	// class of a test: 0 pass, 1 fail, 2 fumble.
	classOf := func(r, f, d int) int {
		pen := 0
		if penalties {
			pen = -(f + 2*d)
		}
		switch {
		case rollFumble(r):
			return 2
		case Total(r, body, m+pen) <= 1:
			return 1
		}
		return 0
	}
	apply := func(f, d, class int, flesh bool) (int, int) {
		if class == 1 || (class == 2 && inAddition) {
			if sameType && !flesh {
				d++
			} else {
				f++
			}
		}
		if class == 2 {
			d++
		}
		return f, d
	}
	p.Step = func(_, s int) mechanics.Node {
		f, d := s/W, s%W
		// 0 no test, 1 test, for each clock; the same roll node is used twice
		// (independent rolls).
		clock := func(n, per int) mechanics.Node {
			if n == 0 {
				return mechanics.Const{V: 0}
			}
			return mechanics.Die{Faces: []int{1, 0}, Weights: []int64{int64(n), int64(per - n)}}
		}
		test := func(happens mechanics.Node) mechanics.Node {
			return mechanics.Combine{X: happens, Y: roll, Name: "test", F: func(h, r int) int { return h * (1 + r) }}
		}
		return mechanics.Combine{X: test(clock(f, 1440)), Y: test(clock(d, 60)), Name: "minute", F: func(x, y int) int {
			nf, nd := f, d
			if x > 0 {
				nf, nd = apply(nf, nd, classOf(x-1, f, d), true)
			}
			if y > 0 {
				nf, nd = apply(nf, nd, classOf(y-1, nf, nd), false)
			}
			if nf+2*nd >= B {
				return bled
			}
			return nf*W + nd
		}}
	}
	stateOf := func(x int) (int, int, bool) {
		_, s := p.SplitOutcome(x)
		if s == bled {
			return 0, 0, true
		}
		return s / W, s % W, false
	}
	return &mechanics.Spec{
		Process: p,
		Vars: []mechanics.Var{
			{Name: "hours_to_bleed_out", Doc: "hours (rounded up) until the track is full; hours+1 = not within the horizon", Of: func(x int) int {
				t, _ := p.SplitOutcome(x)
				if _, _, b := stateOf(x); !b {
					return c.Int("hours") + 1
				}
				return (t + 59) / 60
			}},
			{Name: "flesh_at_end", Doc: "0 after bleeding out", Of: func(x int) int { f, _, _ := stateOf(x); return f }},
			{Name: "deep_at_end", Doc: "0 after bleeding out", Of: func(x int) int { _, d, _ := stateOf(x); return d }},
		},
		Events: []mechanics.Event{
			{Name: "bled_out", Of: func(x int) bool { _, _, b := stateOf(x); return b }},
			{Name: "got_worse", Of: func(x int) bool { f, d, b := stateOf(x); return b || f > f0 || d > d0 }},
		},
	}
}
