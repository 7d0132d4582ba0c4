package d20w

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/sim"
)

// The oracles below apply the rules of docs/mechanics.md to every face of
// the dice, written from the text and not from the package's helpers, and
// count exact rationals.

// faces are the values a side's d20 shows: 1..20, or only 10 for an NPC.
func faces(rolls bool) []int {
	if !rolls {
		return []int{10}
	}
	out := make([]int, 20)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// rat is a count over a number of equally likely cases.
type rat struct{ n, d int64 }

func (r rat) f() float64     { return float64(r.n) / float64(r.d) }
func (r rat) String() string { return big.NewRat(r.n, r.d).RatString() }

// count is the rational frequency of ok over the equally likely cases.
func count(cases int, ok func(i int) bool) rat {
	n := 0
	for i := range cases {
		if ok(i) {
			n++
		}
	}
	return rat{int64(n), int64(cases)}
}

// pairs enumerates every pair of faces of the two sides.
func pairs(ra, rb bool) [][2]int {
	var out [][2]int
	for _, a := range faces(ra) {
		for _, b := range faces(rb) {
			out = append(out, [2]int{a, b})
		}
	}
	return out
}

var pairings = []string{"pc_npc", "npc_pc", "pc_pc", "npc_npc"}

// rollsOf says who rolls in a pairing (actor, target).
func rollsOf(p string) (bool, bool) {
	return p == "pc_npc" || p == "pc_pc", p == "npc_pc" || p == "pc_pc"
}

// d20w.core.opposed: T_a ≥ T_o; under all_rolls the acting PC's 20 wins and 1 loses, or,
// when an NPC acts, the PC's 20 resists and its 1 fails to.
func TestOpposedBruteForce(t *testing.T) {
	t.Parallel()
	for _, p := range pairings {
		ra, ro := rollsOf(p)
		for _, nat := range []string{"manoeuvres_only", "all_rolls", "none"} {
			for _, a := range []int{-8, 0, 3, 11} {
				for _, o := range []int{-4, 0, 5, 14} {
					ps := pairs(ra, ro)
					win := count(len(ps), func(i int) bool {
						na, no := ps[i][0], ps[i][1]
						ok := na+a >= no+o
						if nat == "all_rolls" {
							switch {
							case ra && na == 20, !ra && ro && no == 1:
								ok = true
							case ra && na == 1, !ra && ro && no == 20:
								ok = false
							}
						}
						return ok
					})
					r := run(t, "d20w.core.opposed", "pairing="+p, "opt.naturals="+nat, set("mod_a", a), set("mod_o", o))
					mechtest.Near(t, fmt.Sprintf("%s %s %+d vs %+d: P(success) %s", p, nat, a, o, win), r.Event("success").P, win.f(), 1e-12)
					// The margin's law, exactly: P(margin = m) as a fraction.
					m := r.Var("margin")
					for i, got := range m.Exact {
						want := count(len(ps), func(j int) bool { return ps[j][0]+a-ps[j][1]-o == m.Lo+i })
						if got != want.String() {
							t.Errorf("%s %+d vs %+d: P(margin = %d) = %s; want %s", p, a, o, m.Lo+i, got, want)
						}
					}
				}
			}
		}
	}
}

// attackOracle is d20w.attack for one pair of faces: hit and crit.
func attackOracle(p, nat, needsHit, source string, a, d, w, na, nd int) (hit, crit bool) {
	ra, rd := rollsOf(p)
	hit = na+a >= nd+d // NPCs show 10
	if nat == "all_rolls" {
		switch {
		case ra && na == 20, !ra && rd && nd == 1:
			hit = true
		case ra && na == 1, !ra && rd && nd == 20:
			hit = false
		}
	}
	threat := false
	switch p {
	case "pc_npc":
		threat = na >= 21-w
	case "npc_pc":
		threat = nd <= w
	case "pc_pc":
		threat = na >= 21-w || (source == "either" && nd <= w)
	}
	if needsHit == "auto_hit" {
		return hit || threat, threat
	}
	return hit, hit && threat
}

func TestAttackBruteForce(t *testing.T) {
	t.Parallel()
	for _, p := range append(pairings, "npc_npc_both") {
		for _, nat := range []string{"manoeuvres_only", "all_rolls"} {
			for _, needsHit := range []string{"yes", "auto_hit"} {
				for _, source := range []string{"attacker_natural", "either"} {
					for _, ad := range [][2]int{{5, 3}, {-2, 12}, {12, 0}, {0, 25}} {
						for _, w := range []int{1, 2, 5} {
							sets := []string{"opt.naturals=" + nat, "opt.crit_needs_hit=" + needsHit, "opt.pvp_crit_source=" + source,
								set("attack", ad[0]), set("defence", ad[1]), set("threat", w)}
							q := p
							if p == "npc_npc_both" {
								sets, q = append(sets, "pairing=npc_npc", "opt.npc_vs_npc=both_roll"), "pc_pc"
							} else {
								sets = append(sets, "pairing="+p)
							}
							ra, rd := rollsOf(q)
							ps := pairs(ra, rd)
							hit := count(len(ps), func(i int) bool {
								h, _ := attackOracle(q, nat, needsHit, source, ad[0], ad[1], w, ps[i][0], ps[i][1])
								return h
							})
							crit := count(len(ps), func(i int) bool {
								_, c := attackOracle(q, nat, needsHit, source, ad[0], ad[1], w, ps[i][0], ps[i][1])
								return c
							})
							r := run(t, "d20w.attack", sets...)
							mechtest.Near(t, fmt.Sprint(sets, " P(hit) ", hit), r.Event("hit").P, hit.f(), 1e-12)
							mechtest.Near(t, fmt.Sprint(sets, " P(crit) ", crit), r.Event("crit").P, crit.f(), 1e-12)
							if hit.n > 0 {
								mechtest.Near(t, fmt.Sprint(sets, " P(crit | hit)"), r.Var("crit_if_hit").Stats.Mean, float64(crit.n)/float64(hit.n), 1e-12)
							}
						}
					}
				}
			}
		}
	}
}

// d20w.flatfooted: the flat-footed target loses its DEX bonus (a penalty stays); a hit
// goes to Wound Points unless N + Ref ≥ 15.
func TestFlatfootedBruteForce(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"pc_npc", "npc_pc", "pc_pc"} {
		for _, dex := range []int{-2, 0, 4} {
			for _, npcSaves := range []string{"roll", "take_10"} {
				a, d, ref := 5, 3, 2
				ra, rd := rollsOf(p)
				rs := rd || npcSaves == "roll"
				var hits, hitsNormal, wounds, cases int
				for _, na := range faces(ra) {
					for _, nd := range faces(rd) {
						for _, ns := range faces(rs) {
							cases++
							hit, _ := attackOracle(p, "none", "yes", "attacker_natural", a, d+min(dex, 0), 1, na, nd)
							normal, _ := attackOracle(p, "none", "yes", "attacker_natural", a, d+dex, 1, na, nd)
							hits += bit(hit)
							hitsNormal += bit(normal)
							wounds += bit(hit && ns+ref < 15)
						}
					}
				}
				r := run(t, "d20w.flatfooted", "pairing="+p, set("dex", dex), "opt.npc_saves="+npcSaves)
				what := fmt.Sprintf("%s dex %d %s", p, dex, npcSaves)
				mechtest.Near(t, what+" P(hit)", r.Event("hit").P, float64(hits)/float64(cases), 1e-12)
				mechtest.Near(t, what+" P(hit_normal)", r.Event("hit_normal").P, float64(hitsNormal)/float64(cases), 1e-12)
				mechtest.Near(t, what+" P(wound_damage)", r.Event("wound_damage").P, float64(wounds)/float64(cases), 1e-12)
			}
		}
	}
}

// d20w.cm: CMA + m against CMD, NPCs adding 10, naturals on the manoeuvre
// roll (mirrored for a defending PC), escaping bonds without the 20.
func TestCMBruteForce(t *testing.T) {
	t.Parallel()
	size := map[int]int{-4: -8, -3: -4, -2: -2, -1: -1, 0: 0, 1: 1, 2: 2, 3: 4, 4: 8}
	for _, p := range pairings {
		for _, nat := range []string{"manoeuvres_only", "none"} {
			for _, mirror := range []string{"mirror", "none"} {
				for _, man := range []string{"standard", "escape_bonds"} {
					for _, cfg := range [][5]int{{4, 6, 0, 0, 0}, {-3, 10, 2, -3, 1}, {15, 0, -1, 2, -4}} {
						cma0, cmd0, m, as, ds := cfg[0], cfg[1], cfg[2], cfg[3], cfg[4]
						str, dex := 2, 5
						cma := cma0 + str + size[as]
						if as <= -2 {
							cma = cma0 + dex + size[as]
						}
						cmd := cmd0 + 1 + 3 + size[ds] // defender STR 1, DEX 3
						ra, rd := rollsOf(p)
						ps := pairs(ra, rd)
						win := count(len(ps), func(i int) bool {
							na, nd := ps[i][0], ps[i][1]
							ok := na+cma+m >= nd+cmd // NPCs show 10
							if nat != "none" {
								if ra {
									ok = (na == 20 && man == "standard") || (na != 1 && ok)
								} else if rd && mirror == "mirror" {
									ok = (nd == 1 && man == "standard") || (nd != 20 && ok)
								}
							}
							return ok
						})
						sets := []string{"pairing=" + p, "opt.naturals=" + nat, "opt.defender_naturals=" + mirror, "manoeuvre=" + man,
							set("cma", cma0), set("cmd", cmd0), set("bonus", m), set("attacker_size", as), set("defender_size", ds),
							set("attacker_str", str), set("attacker_dex", dex), "defender_str=1", "defender_dex=3"}
						r := run(t, "d20w.cm", sets...)
						mechtest.Near(t, fmt.Sprint(sets, " P(success) ", win), r.Event("success").P, win.f(), 1e-12)
						mechtest.Near(t, fmt.Sprint(sets, " P(aoo)"), r.Event("defender_aoo").P, 1-win.f(), 1e-12)
					}
				}
			}
		}
	}
	// opt.bab_is_bcb=no reads the defender's BAB instead of its BCB.
	a := run(t, "d20w.cm", "defender_bcb=5", "defender_bab=1", "opt.bab_is_bcb=no")
	b := run(t, "d20w.cm", "cmd=7")
	mechtest.Near(t, "BAB instead of BCB", a.Event("success").P, b.Event("success").P, 1e-12)
	// Degrees ⌊M / W⌋ of a success.
	d := run(t, "d20w.cm", "cma=10", "cmd=0", "margin_width=3") // M = N + 10 − 10 = N: success on 1..20 except the natural 1
	deg := d.Var("degree")
	for k := range deg.P {
		want := 0
		for n := 2; n <= 20; n++ {
			if n/3 == deg.Lo+k {
				want++
			}
		}
		mechtest.Near(t, fmt.Sprintf("P(degree %d)", deg.Lo+k), deg.P[k], float64(want)/20, 1e-12)
	}
}

// d20w.initiative: highest total first, ties to the higher modifier, then a uniformly
// random order; every order of three combatants over every roll.
func TestInitiativeBruteForce(t *testing.T) {
	t.Parallel()
	for _, mods := range [][]int{{2, 2, 1}, {0, 0, 0}, {5, 1, 9}, {3, 4, 3}} {
		probs := map[string]*big.Rat{}
		perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
		one := big.NewRat(1, 8000*6)
		for n := range 8000 {
			nat := []int{n%20 + 1, n/20%20 + 1, n/400 + 1}
			for _, perm := range perms {
				rank := make([]int, 3)
				for p, c := range perm {
					rank[c] = p
				}
				order := []int{0, 1, 2}
				slices.SortFunc(order, func(i, j int) int {
					ti, tj := nat[i]+mods[i], nat[j]+mods[j]
					switch {
					case ti != tj:
						return tj - ti
					case mods[i] != mods[j]:
						return mods[j] - mods[i]
					}
					return rank[i] - rank[j]
				})
				l := orderLabel(order)
				if probs[l] == nil {
					probs[l] = new(big.Rat)
				}
				probs[l].Add(probs[l], one)
			}
		}
		r := run(t, "d20w.initiative", "combatants=3", set("mod_a", mods[0]), set("mod_b", mods[1]), set("mod_c", mods[2]))
		b := band(t, r, "order")
		for i, l := range b.Labels {
			want := 0.0
			if probs[l] != nil {
				want, _ = probs[l].Float64()
			}
			mechtest.Near(t, fmt.Sprintf("%v P(%s)", mods, l), b.P[i], want, 1e-12)
		}
	}
	// Two combatants: P(A before B) = P(N_A + a > N_B + b) + P(tie)·([a > b] + ½[a = b]).
	for _, ab := range [][2]int{{2, 2}, {3, 1}, {0, 6}} {
		a, b := ab[0], ab[1]
		var gt, tie int
		for na := 1; na <= 20; na++ {
			for nb := 1; nb <= 20; nb++ {
				gt += bit(na+a > nb+b)
				tie += bit(na+a == nb+b)
			}
		}
		tieShare := 0.0
		switch {
		case a > b:
			tieShare = 1
		case a == b:
			tieShare = 0.5
		}
		mechtest.Near(t, fmt.Sprintf("P(A %+d before B %+d)", a, b), run(t, "d20w.initiative", set("mod_a", a), set("mod_b", b)).Event("a_before_b").P,
			(float64(gt)+float64(tie)*tieShare)/400, 1e-12)
	}
}

// The simulated crowd agrees with the exact orderings for four combatants.
func TestCrowdMatchesExact(t *testing.T) {
	t.Parallel()
	ex := run(t, "d20w.initiative", "combatants=4", "mod_a=2", "mod_b=2", "mod_c=1", "mod_d=3")
	m, _ := registry.Lookup("d20w.initiative.crowd")
	c, err := m.Configure([]string{"combatants=4", "mod_a=2", "mod_b=2", "mod_c=1", "mod_d=3"})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := sim.Run(t.Context(), m, c, sim.Options{Trials: 200_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a_before_b", "a_before_c", "a_before_d"} {
		e, s := ex.Event(name), sr.Event(name)
		if e.P < s.CI[0]-0.005 || e.P > s.CI[1]+0.005 {
			t.Errorf("%s: exact %v outside the simulated interval %v", name, e.P, s.CI)
		}
	}
	pos := sr.Var("a_position")
	if d := math.Abs(pos.Stats.Mean - ex.Var("a_position").Stats.Mean); d > 0.02 {
		t.Errorf("E[A's place]: simulated %v, exact %v", pos.Stats.Mean, ex.Var("a_position").Stats.Mean)
	}
}

// d20w.crit_choice: the opportunity-attack chain. h(B) = P(hit) + P(crit)·[B > 0]·h'(B − 1),
// on distributions; a crit with no budget left buys a crippling injury.
func TestCritChoiceRecursion(t *testing.T) {
	t.Parallel()
	for _, cfg := range []struct {
		a, d, w, s int
		oaCrit     bool
	}{{5, 3, 1, 2, true}, {12, 3, 5, 0, true}, {8, 8, 4, 6, false}, {2, 10, 3, -3, true}} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			t.Parallel()
			ph := float64(max(0, min(20, 11+cfg.a-cfg.d))) / 20 // PC → NPC: N + A ≥ 10 + D
			pc := float64(min(cfg.w, max(0, min(20, 11+cfg.a-cfg.d)))) / 20
			pfail := float64(max(0, min(20, 14-cfg.s))) / 20 // N + s < 15
			for b := 0; b <= 4; b++ {
				// dist(left, crits) is the PMF of hits of an attack and its chain.
				var dist func(left int, crits bool) []float64
				dist = func(left int, crits bool) []float64 {
					out := make([]float64, left+2)
					out[0] = 1 - ph
					if !crits || left == 0 {
						out[1] = ph
						return out
					}
					out[1] = ph - pc
					for k, q := range dist(left-1, cfg.oaCrit) {
						out[k+1] += pc * q
					}
					return out
				}
				want := dist(b, true)
				// P(crippled): the crit that ends the chain when the budget is spent.
				crip := pc
				for i := 0; i < b; i++ {
					if !cfg.oaCrit {
						crip = 0
						break
					}
					crip *= pc
				}
				crip *= pfail
				r := run(t, "d20w.crit_choice", set("attack", cfg.a), set("defence", cfg.d), set("threat", cfg.w), set("save", cfg.s), set("budget", b),
					"opt.oa_can_crit="+map[bool]string{true: "yes", false: "no"}[cfg.oaCrit])
				h := r.Var("hits")
				for k, p := range h.P {
					w := 0.0
					if h.Lo+k < len(want) {
						w = want[h.Lo+k]
					}
					mechtest.Near(t, fmt.Sprintf("B=%d P(hits = %d)", b, h.Lo+k), p, w, 1e-12)
				}
				mechtest.Near(t, fmt.Sprintf("B=%d P(crippled)", b), r.Event("crippled").P, crip, 1e-12)
			}
		})
	}
	// cripple_first: P(crippled) = P(crit)·P(N + s < 15); manoeuvre_first: P(crit)·P(manoeuvre).
	mechtest.Near(t, "cripple_first", run(t, "d20w.crit_choice", "opt.policy=cripple_first", "threat=4").Event("crippled").P, 4.0/20*12/20, 1e-12)
	mechtest.Near(t, "manoeuvre_first", run(t, "d20w.crit_choice", "opt.policy=manoeuvre_first", "threat=4").Event("manoeuvre_success").P, 4.0/20*9/20, 1e-12)
	// A ranged weapon buys no opportunity attack.
	mechtest.Near(t, "ranged", run(t, "d20w.crit_choice", "weapon=ranged", "budget=3").Var("opportunity_attacks").Stats.Max, 0, 1e-12)
}

// d20w.crippling: injuries ~ Binomial(r, P(crit)·P(save fails)), on the track.
func TestCripplingBinomial(t *testing.T) {
	t.Parallel()
	for _, cfg := range []struct{ w, s, r int }{{1, 2, 5}, {3, 2, 8}, {5, -4, 12}, {2, 20, 4}} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			t.Parallel()
			p := float64(cfg.w) / 20 * float64(max(0, min(20, 14-cfg.s))) / 20
			res := run(t, "d20w.crippling", set("threat", cfg.w), set("save", cfg.s), set("attacks", cfg.r))
			k := res.Var("injuries")
			for i, got := range k.P {
				n := k.Lo + i
				want := float64(binom(cfg.r, n)) * math.Pow(p, float64(n)) * math.Pow(1-p, float64(cfg.r-n))
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("P(k = %d) = %v; want %v", n, got, want)
				}
			}
			levels := [4]float64{}
			for i, q := range k.P {
				levels[level(k.Lo+i)] += q
			}
			lb := band(t, res, "level")
			for i := range levels {
				mechtest.Near(t, "P(level "+lb.Labels[i]+")", lb.P[i], levels[i], 1e-12)
			}
		})
	}
}

func binom(n, k int) int64 {
	b := int64(1)
	for i := 1; i <= k; i++ {
		b = b * int64(n-k+i) / int64(i)
	}
	return b
}

// d20w.stance: one round of exchange at every s, enumerated over the dice.
func TestStanceBruteForce(t *testing.T) {
	t.Parallel()
	shifts := map[string][3]int{"aggressive": {1, -1, 0}, "defensive": {-1, 1, 0}, "precision": {1, 0, -1}, "reckless": {0, -1, 1},
		"power": {-1, 0, 1}, "guarded": {0, 1, -1}, "aggressive_reckless": {1, -2, 1}}
	for st, sh := range shifts {
		for _, p := range []string{"pc_npc", "npc_pc", "pc_pc"} {
			me, en := rollsOf(p)
			s, a, d, die, bonus, ea, ed, edie, eb := 3, 4, 6, 6, 1, 5, 2, 4, 0
			var cases int
			var hit, taken int
			var net [5]int64
			for _, na := range faces(me) {
				for _, nd := range faces(en) {
					for _, ne := range faces(en) {
						for _, nm := range faces(me) {
							for x := 1; x <= die; x++ {
								for y := 1; y <= edie; y++ {
									cases++
									for k := 0; k <= 4; k++ {
										h := na+a+sh[0]*k >= nd+ed
										g := ne+ea >= nm+d+sh[1]*k
										v := bit(h)*max(0, x+bonus+sh[2]*k) - bit(g)*max(0, y+eb)
										net[k] += int64(v)
										if k == s {
											hit += bit(h)
											taken += bit(g)
										}
									}
								}
							}
						}
					}
				}
			}
			r := run(t, "d20w.stance", "stance="+st, "pairing="+p, set("s", s), set("bcb", 4), set("attack", a), set("defence", d), set("damage_die", die),
				set("damage_bonus", bonus), set("enemy_attack", ea), set("enemy_defence", ed), set("enemy_damage_die", edie), set("enemy_damage_bonus", eb))
			what := st + " " + p
			mechtest.Near(t, what+" P(hit)", r.Event("hit").P, float64(hit)/float64(cases), 1e-12)
			mechtest.Near(t, what+" P(hit_taken)", r.Event("hit_taken").P, float64(taken)/float64(cases), 1e-12)
			for k := 0; k <= 4; k++ {
				want := float64(net[k]) / float64(cases)
				mechtest.Near(t, fmt.Sprintf("%s E[net at s = %d]", what, k), r.Var(fmt.Sprintf("net_s%d", k)).Stats.Mean, want, 1e-12)
			}
		}
	}
	// s beyond S_max is refused.
	if _, err := mechtest.Exact(registry, "d20w.stance", "bcb=4", "s=3", "opt.max=half_bcb"); err == nil {
		t.Error("s = 3 with ⌊BCB/2⌋ = 2 was accepted")
	}
}

// The Go form of a contest and of an attack (used inside nodes) agrees with
// its expression (used by the outputs) on every pair of naturals.
func TestGoFormsMatchExpressions(t *testing.T) {
	t.Parallel()
	fields := func(r attackRule, na, nd int) map[string]expr.Rat {
		m := map[string]expr.Rat{}
		if r.actor.rolls() {
			m[r.actor.field] = expr.Int(int64(na))
		}
		if r.target.rolls() {
			m[r.target.field] = expr.Int(int64(nd))
		}
		return m
	}
	for p := pcVsNPC; p <= npcVsNPC; p++ {
		for _, nat := range []naturalsRule{naturalsManoeuvresOnly, naturalsAllRolls} {
			for _, nh := range []critNeedsHit{critNeedsHitYes, critAutoHit} {
				for _, src := range []pvpCritSource{critSourceAttacker, critSourceEither} {
					for _, npc := range []npcPair{npcDeterministic, npcBothRoll} {
						o := attackOptions{pairing: p, needsHit: nh, source: src, npc: npc, naturals: nat}
						for _, ad := range [][3]int{{5, 3, 2}, {-3, 9, 5}, {14, 0, 1}} {
							r := o.rule(ad[0], ad[1], ad[2])
							for na := 1; na <= 20; na++ {
								for nd := 1; nd <= 20; nd++ {
									f := fields(r, na, nd)
									if got := mechtest.Eval(t, r.hit(), f).N != 0; got != r.hitOf(na, nd) {
										t.Fatalf("%+v %v: hit at %d, %d: expression %v, Go %v", o, ad, na, nd, got, r.hitOf(na, nd))
									}
									if got := mechtest.Eval(t, r.crit(), f).N != 0; got != r.critOf(na, nd) {
										t.Fatalf("%+v %v: crit at %d, %d: expression %v, Go %v", o, ad, na, nd, got, r.critOf(na, nd))
									}
									cm := cmOptions{pairing: p, naturals: nat, mirror: defenderMirror, escape: nd%2 == 0}.contest(ad[0], ad[1])
									cf := map[string]expr.Rat{}
									if cm.actor.rolls() {
										cf[cm.actor.field] = expr.Int(int64(na))
									}
									if cm.target.rolls() {
										cf[cm.target.field] = expr.Int(int64(nd))
									}
									if got := mechtest.Eval(t, cm.success(), cf).N != 0; got != cm.holds(na, nd) {
										t.Fatalf("cm %v %v: at %d, %d: expression %v, Go %v", p, ad, na, nd, got, cm.holds(na, nd))
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// With equal modifiers every order is as likely as any other, for every
// crowd size (the random order is one draw of k! up to 8, Fisher–Yates
// steps beyond): A's place is uniform on 1..k.
func TestCrowdSymmetric(t *testing.T) {
	t.Parallel()
	m, _ := registry.Lookup("d20w.initiative.crowd")
	for _, k := range []int{2, 5, 6, 8, 9, 12} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			t.Parallel()
			sets := []string{set("combatants", k)}
			for i := 0; i < maxInitiative; i++ {
				sets = append(sets, "mod_"+combatant(i)+"=3")
			}
			c, err := m.Configure(sets)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sim.Run(t.Context(), m, c, sim.Options{Trials: 60_000, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			pos := r.Var("a_position")
			for i, p := range pos.P {
				if math.Abs(p-1/float64(k)) > 5*math.Sqrt(1/float64(k)/60_000) {
					t.Errorf("P(A in place %d) = %v; want %v", pos.Lo+i, p, 1/float64(k))
				}
			}
			if e := r.Event("a_before_b"); math.Abs(e.P-0.5) > 5*0.5/math.Sqrt(60_000) {
				t.Errorf("P(A before B) = %v; want 1/2", e.P)
			}
		})
	}
}
