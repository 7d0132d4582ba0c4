package bd

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The numbers the describe texts state are the ones the models compute
// with (the texts are formatted from the constants and tables the models
// read; these tests read the text back and compute with it).

// config is the configuration of mechanic id at the settings.
func config(t *testing.T, id string, settings ...string) mechanics.Config {
	t.Helper()
	_, c, err := registry.Configure(id, settings)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The reaction economy's numbers, wherever bd.vigor, bd.defense and
// bd.skirmish state them, are the ones the chains pay, recover and wake
// with.
func TestEconomyNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	vigor, defense := mechtest.Mechanic(t, registry, "bd.vigor"), mechtest.Mechanic(t, registry, "bd.defense")
	costs := [][]int{
		mechtest.MatchedInts(t, `costs (\d+) Vigor \((\d+) after a Defend action\)`, "bd.vigor's doc", vigor.Doc),
		mechtest.MatchedInts(t, `Block: (\d+) Vigor, (\d+) after a Defend action`, "bd.defense's doc", defense.Doc),
		{mechtest.MatchedInts(t, `reactions cost (\d+)`, "bd.vigor's defend", mechtest.ParamDoc(t, registry, "bd.vigor", "defend"))[0]},
	}
	spec := mechtest.MustModel(t, registry, "bd.defense")
	for _, v := range spec.Vars {
		if v.Name == "value_per_reaction" {
			costs = append(costs, mechtest.MatchedInts(t, `\((\d+) Vigor, (\d+) after Defend\)`, "value_per_reaction", v.Doc))
		}
	}
	if len(costs) != 4 {
		t.Fatal("bd.defense reports no value_per_reaction")
	}
	at := func(defend int) economy {
		return economyOf(config(t, "bd.vigor", fmt.Sprintf("defend=%d", defend)), 20, 0)
	}
	for _, c := range costs {
		if len(c) == 2 && c[0] != at(0).cost {
			t.Errorf("a text says a reaction costs %d; the chain pays %d", c[0], at(0).cost)
		}
		if d := c[len(c)-1]; d != at(1).cost {
			t.Errorf("a text says %d after Defend; the chain pays %d", d, at(1).cost)
		}
	}
	// The chain itself: with one Vigor less than a reaction costs the
	// first attack (which always beats Guard 0) goes unanswered; with the
	// cost, the second.
	for defend, cost := range []int{costs[0][0], costs[0][1]} {
		for v, want := range map[int]float64{cost - 1: 1, cost: 2} {
			r := mechtest.MustExact(t, registry, "bd.vigor", fmt.Sprintf("vigor=%d", v), "stamina=0", "attacks=1", "guard=0", "rounds=5", fmt.Sprintf("defend=%d", defend))
			mechtest.Near(t, fmt.Sprintf("the round of the unanswered attack with defend=%d, vigor=%d", defend, v), r.Var("rounds_to_unanswered").Stats.Mean, want, 1e-12)
		}
	}

	per := [][]int{
		mechtest.MatchedInts(t, `1 back per (\d+) Stamina a round`, "bd.vigor's summary", vigor.Summary),
		mechtest.MatchedInts(t, `1 Vigor per (\d+) Stamina`, "bd.vigor's doc", vigor.Doc),
		mechtest.MatchedInts(t, `1 Vigor back per (\d+) a round`, "bd.vigor's stamina", mechtest.ParamDoc(t, registry, "bd.vigor", "stamina")),
		mechtest.MatchedInts(t, `1 Vigor back per (\d+) a round`, "bd.skirmish's stamina", mechtest.ParamDoc(t, registry, "bd.skirmish", "stamina")),
	}
	for _, p := range per {
		for stamina, want := range map[int]int{p[0] - 1: 0, p[0]: 1, 3 * p[0]: 3} {
			if got := economyOf(config(t, "bd.vigor", fmt.Sprintf("stamina=%d", stamina)), 20, 0).recovery; got != want {
				t.Errorf("a text says 1 Vigor per %d Stamina; with %d Stamina the chain recovers %d, want %d", p[0], stamina, got, want)
			}
		}
	}

	woken := []int{mechtest.MatchedInts(t, `cannot act until it is back to (\d+)`, "bd.vigor's doc", vigor.Doc)[0],
		mechtest.MatchedInts(t, `back to (\d+)`, "the winded flag of the chains", windedFlag())[0]}
	e := economy{vmax: 100}
	for _, w := range woken {
		if _, still := e.recover(w-1, true); !still {
			t.Errorf("a text says a winded creature acts again at %d Vigor; it already does at %d", w, w-1)
		}
		if _, still := e.recover(w, true); still {
			t.Errorf("a text says a winded creature acts again at %d Vigor; it does not", w)
		}
	}
}

// The ladder the parameters list is the one Build accepts, and the
// qualities they name are the rungs the armour rules read.
func TestLadderTextsAreTheModels(t *testing.T) {
	t.Parallel()
	sizes := regexp.MustCompile(`(\d+(?:, \d+)*) or (\d+)`)
	for _, p := range [][2]string{{"bd.check", "rank"}, {"bd.defense", "rank_d"}, {"bd.damage", "rank"}, {"bd.track", "rank_d"}, {"bd.track", "rank_b"}} {
		m := sizes.FindStringSubmatch(mechtest.ParamDoc(t, registry, p[0], p[1]))
		if m == nil {
			t.Fatalf("%s.%s lists no sizes", p[0], p[1])
		}
		var listed []int
		for _, s := range append(strings.Split(m[1], ", "), m[2]) {
			n, _ := strconv.Atoi(s)
			listed = append(listed, n)
		}
		for s := 4; s <= 20; s++ { // the parameters' range
			m, c, err := registry.Configure(p[0], []string{p[1] + "=" + strconv.Itoa(s)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Model(c)
			if ok := slices.Contains(listed, s); ok != (err == nil) {
				t.Errorf("%s.%s lists %v; %s=%d builds: %v", p[0], p[1], listed, p[1], s, err)
			}
		}
	}
	heroicDie := mechtest.MatchedInts(t, `d(\d+) = heroic`, "bd.check's rank", mechtest.ParamDoc(t, registry, "bd.check", "rank"))[0]
	// Durability of heroic quality is immune to a weapon of lower quality;
	// one rung below heroic is not.
	below := mechtest.MatchedInts(t, `\(below (\d+): no immunity\)`, "durability_quality", mechtest.ParamDoc(t, registry, "bd.armor", "durability_quality"))[0]
	if below != heroicDie {
		t.Errorf("heroic is d%d in rank, %d in durability_quality", heroicDie, below)
	}
	for _, q := range mechtest.MatchedInts(t, `(\d+) heroic, (\d+) epic, (\d+) legendary`, "armor's quality", mechtest.ParamDoc(t, registry, "bd.armor", "durability_quality")) {
		r := mechtest.MustExact(t, registry, "bd.armor", "durability_quality="+strconv.Itoa(q), "quality=8", "ar=0")
		mechtest.Near(t, fmt.Sprintf("P(damage gets through Durability quality %d)", q), r.Event("gets_through").P, 0, 0)
	}
	r := mechtest.MustExact(t, registry, "bd.armor", "durability_quality=8", "quality=8", "ar=0")
	mechtest.Near(t, "P(damage gets through ordinary Durability)", r.Event("gets_through").P, 1, 1e-9)
	for _, p := range []string{"quality", "armor_quality"} {
		id := map[string]string{"quality": "bd.damage", "armor_quality": "bd.armor"}[p]
		q := mechtest.MatchedInts(t, `(\d+) ordinary, (\d+) heroic`, id+"."+p, mechtest.ParamDoc(t, registry, id, p))
		if q[1] != heroicDie || q[0] != ladder[heroic-1] {
			t.Errorf("%s.%s: ordinary %d, heroic %d", id, p, q[0], q[1])
		}
	}
	// The mean the burst doc gives for the heroic die is the model's.
	m := regexp.MustCompile(`\(d(\d+)!: ([\d.]+)\)`).FindStringSubmatch(mechtest.Mechanic(t, registry, "bd.core.burst").Doc)
	if m == nil || m[1] != strconv.Itoa(heroicDie) {
		t.Fatalf("bd.core.burst's doc gives no mean of the heroic die: %v", m)
	}
	mean, _ := strconv.ParseFloat(m[2], 64)
	got := mechtest.MustExact(t, registry, "bd.core.burst", "rank="+m[1]).Var("value").Stats.Mean
	mechtest.Near(t, "E[d"+m[1]+"!] as the doc writes it", mean, got, 5e-4)
}

// The covers, the visibilities and the size steps move Guard and VS by
// the amounts the texts give.
func TestGuardAndVSTablesAreTheModels(t *testing.T) {
	t.Parallel()
	hit := func(sets ...string) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, "bd.attack", sets...).Event("hit").P
	}
	attack := mechtest.Mechanic(t, registry, "bd.attack")
	for _, text := range []string{mechtest.OptionDoc(t, registry, "bd.attack", "cover"), attack.Doc} {
		b := mechtest.MatchedInts(t, `light \+(\d+)(?: Guard)?, partial \+(\d+), full \+(\d+)`, "a cover text", text)
		for i, c := range []string{"light", "partial", "full"} {
			mechtest.Near(t, "P(hit) against "+c+" cover", hit("opt.cover="+c, "guard=15"), hit("guard="+strconv.Itoa(15+b[i])), 0)
		}
	}
	for _, text := range []string{mechtest.OptionDoc(t, registry, "bd.attack", "size_t"), attack.Doc} {
		per := mechtest.MatchedInts(t, `(?:rises by |guard \+ )(\d+)`, "a size text", text)[0]
		mechtest.Near(t, "P(hit) of a huge attacker on a small target", hit("opt.size_a=huge", "opt.size_t=small", "guard=15"), hit("guard="+strconv.Itoa(15+3*per)), 0)
	}
	ex := mechtest.MatchedInts(t, `G becomes ⌈G/2⌉ \((\d+) → (\d+)\)`, "bd.attack's doc", attack.Doc)
	mechtest.Near(t, "the unaware example", hit("behind_unaware=1", "guard="+strconv.Itoa(ex[0])), hit("guard="+strconv.Itoa(ex[1])), 0)

	success := func(sets ...string) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, "bd.check", sets...).Event("success").P
	}
	vis := mechtest.MatchedInts(t, `normal \+(\d+), reduced \+(\d+), low \+(\d+), zero \+(\d+)`, "the visibility option", mechtest.OptionDoc(t, registry, "bd.check", "visibility"))
	bare := mechtest.MatchedInts(t, `by (\d+), (\d+) and (\d+)`, "bd.check's doc", mechtest.Mechanic(t, registry, "bd.check").Doc)
	if !slices.Equal(vis[1:], bare) {
		t.Errorf("the option gives %v, the doc %v", vis, bare)
	}
	for i, v := range []string{"normal", "reduced", "low", "zero"} {
		mechtest.Near(t, "P(success) at "+v+" visibility", success("visibility="+v, "vs=20"), success("vs="+strconv.Itoa(20+vis[i])), 0)
	}

	armour := mechtest.MatchedInts(t, `partial \+(\d+) armour rank, full \+(\d+) \(light cover stops nothing\)`, "bd.armor's cover", mechtest.OptionDoc(t, registry, "bd.armor", "cover"))
	mean := func(sets ...string) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, "bd.armor", sets...).Var("damage_after").Stats.Mean
	}
	for i, c := range []string{"partial", "full"} {
		mechtest.Near(t, "damage after "+c+" cover", mean("cover="+c, "ar=0"), mean("ar="+strconv.Itoa(armour[i])), 0)
	}
	mechtest.Near(t, "damage after light cover", mean("cover=light", "ar=0"), mean("ar=0"), 0)

	feeble := mechtest.MatchedInts(t, `attack: d(\d+) \(feeble below d(\d+) on the ladder\) or d(\d+)`, "the feeble die", mechtest.OptionDoc(t, registry, "bd.damage", "feeble_die"))
	for i, v := range []string{"d4", "d6"} {
		d := feeble[2*i]
		got := mechtest.MustExact(t, registry, "bd.damage", "unarmed=1", "k_b=0", "opt.feeble_die="+v).Var("damage").Stats.Mean
		mechtest.Near(t, "the mean of the feeble "+v, got, float64(d+1)/2, 1e-12)
	}
}
