package d20w

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The numbers the describe texts state are the ones the models compute
// with (the texts are formatted from the constants and tables the models
// read; these tests read the text back and compute with it).

// texts are every text of mechanic id: its summary, doc, parameters and
// options, and the docs of its outputs at the defaults and at every value
// of each option on its own.
func texts(t *testing.T, id string) []string {
	t.Helper()
	m := mechtest.Mechanic(t, registry, id)
	out := []string{m.Summary, m.Doc}
	for _, p := range m.Params {
		out = append(out, p.Doc)
	}
	sets := [][]string{nil}
	for _, o := range m.Options {
		out = append(out, o.Doc)
		for _, v := range o.Values {
			sets = append(sets, []string{o.Name + "=" + v})
		}
	}
	for _, s := range sets {
		spec := mechtest.MustModel(t, registry, id, s...)
		for _, v := range spec.Vars {
			out = append(out, v.Doc)
		}
		for _, e := range spec.Events {
			out = append(out, e.Doc)
		}
		for _, f := range spec.Record.Fields {
			out = append(out, f.Doc)
		}
	}
	return out
}

// take10Phrases are the ways the texts state what an NPC counts instead
// of a d20 (the closed forms clamp((… + a − o)/20 …) are checked apart).
var take10Phrases = regexp.MustCompile(`takes? (\d+)|taking (\d+)|take-(\d+)|built-in (\d+)|CM[AD] \+ (\d+)|(\d+) for a side|` +
	`(?:^|[^\w.−(]|[^(]\()(\d+) \+ (?:A|D|a|o|s|Ref|mod_a|mod_o|its modifier|\d+ ≥)`)

// What an NPC counts instead of a d20, wherever a d20w text states it, is
// what the model counts: the certain total of two NPCs.
func TestTake10TextsAreTheModels(t *testing.T) {
	t.Parallel()
	r := run(t, "d20w.core.opposed", "pairing=npc_npc", "mod_a=0", "mod_o=0")
	npc := int(r.Var("total_a").Stats.Mean)
	if r.Var("total_a").Stats.SD != 0 {
		t.Fatalf("an NPC's total varies: %+v", r.Var("total_a").Stats)
	}
	for _, id := range []string{"d20w.attack", "d20w.flatfooted", "d20w.cm", "d20w.crit_choice", "d20w.crippling", "d20w.core.opposed", "d20w.stance"} {
		found := 0
		for _, text := range texts(t, id) {
			for _, m := range take10Phrases.FindAllStringSubmatch(text, -1) {
				for _, g := range m[1:] {
					if g == "" {
						continue
					}
					found++
					if mechtest.TextInt(t, g) != npc {
						t.Errorf("%s: %q says an NPC counts %s; it counts %d: %s", id, m[0], g, npc, text)
					}
				}
			}
		}
		if found == 0 {
			t.Errorf("%s states nowhere what an NPC counts", id)
		}
	}
	// The closed forms of d20w.core.opposed.
	doc := mechtest.Mechanic(t, registry, "d20w.core.opposed").Doc
	pcNPC := mechtest.MatchedInts(t, `PC→NPC: P = clamp\(\((\d+) \+ a − o\)/20, 0, 1\)`, "the opposed doc", doc)[0]
	npcPC := mechtest.MatchedInts(t, `P\(resist\) = clamp\(\((\d+) \+ o − a\)/20, 0, 1\)`, "the opposed doc", doc)[0]
	for _, ao := range [][2]int{{0, 0}, {3, -2}, {-5, 4}} {
		sets := []string{set("mod_a", ao[0]), set("mod_o", ao[1])}
		p := float64(pcNPC+ao[0]-ao[1]) / 20
		mechtest.Near(t, fmt.Sprintf("PC→NPC %v", ao), run(t, "d20w.core.opposed", append(sets, "pairing=pc_npc")...).Event("success").P, p, 1e-12)
		p = float64(npcPC+ao[1]-ao[0]) / 20
		mechtest.Near(t, fmt.Sprintf("NPC→PC resisted %v", ao), run(t, "d20w.core.opposed", append(sets, "pairing=npc_pc")...).Event("resisted").P, p, 1e-12)
	}
}

// The initiative texts give the numbers of combatants the parameters
// allow, and the exact engine enumerates the orderings up to the bound
// they give.
func TestInitiativeBoundsAreTheModels(t *testing.T) {
	t.Parallel()
	exact, crowd := mechtest.Mechanic(t, registry, "d20w.initiative"), mechtest.Mechanic(t, registry, "d20w.initiative.crowd")
	k := exact.Params[0]
	kc := crowd.Params[0]
	if k.Name != "combatants" || kc.Name != "combatants" {
		t.Fatalf("the first parameters are %s and %s", k.Name, kc.Name)
	}
	lo, hi := int(k.Min), int(k.Max)
	checks := []struct {
		what string
		got  []int
		want []int
	}{
		{"d20w.initiative's summary", mechtest.MatchedInts(t, `full orderings of (\d+)–(\d+) combatants`, "d20w.initiative's summary", exact.Summary), []int{lo, hi}},
		{"d20w.initiative's doc", mechtest.MatchedInts(t, `ordering of k ≤ (\d+) combatants`, "d20w.initiative's doc", exact.Doc), []int{hi}},
		{"d20w.initiative's doc", mechtest.MatchedInts(t, `For (\d+)–(\d+) combatants use`, "d20w.initiative's doc", exact.Doc), []int{hi + 1, int(kc.Max)}},
		{"d20w.initiative.crowd's summary", mechtest.MatchedInts(t, `up to (\d+) combatants`, "the crowd's summary", crowd.Summary), []int{int(kc.Max)}},
		{"d20w.initiative.crowd's doc", mechtest.MatchedInts(t, `for (\d+)–(\d+) combatants`, "the crowd's doc", crowd.Doc), []int{int(kc.Min), int(kc.Max)}},
		{"d20w.initiative.crowd's doc", mechtest.MatchedInts(t, `Beyond (\d+) the full ordering`, "the crowd's doc", crowd.Doc), []int{hi}},
		{"d20w.initiative.crowd's reason", mechtest.MatchedInts(t, `more than (\d+) combatants`, "the crowd's reason", crowd.MCReason), []int{hi}},
		{"combatants", mechtest.MatchedInts(t, `combatants k \((\d+)–(\d+)\)`, "combatants", k.Doc), []int{lo, hi}},
		{"the crowd's combatants", mechtest.MatchedInts(t, `combatants k \((\d+)–(\d+)\)`, "combatants", kc.Doc), []int{int(kc.Min), int(kc.Max)}},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s states %v; the parameters give %v", c.what, c.got, c.want)
		}
	}
	// The largest k the text gives is enumerated in full: k! orders.
	r := run(t, "d20w.initiative", set("combatants", hi))
	if n, want := len(band(t, r, "order").P), factorial(hi); n != want {
		t.Errorf("at k = %d the exact engine gives %d orders; want %d", hi, n, want)
	}
	if _, err := mechtest.Exact(registry, "d20w.initiative.crowd"); err == nil {
		t.Error("the exact engine computes d20w.initiative.crowd; its doc says only the simulator does")
	}
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

// The track's points, levels, step values, cap and Easy-task bounds the
// texts state are the ones d20w.modtrack and d20w.crippling compute with.
func TestTrackTextsAreTheModels(t *testing.T) {
	t.Parallel()
	doc := mechtest.Mechanic(t, registry, "d20w.modtrack").Doc
	value := func(sets ...string) int {
		t.Helper()
		return int(run(t, "d20w.modtrack", append([]string{"minor_bonuses=0"}, sets...)...).Var("net_value").Stats.Mean)
	}
	points := func(sets ...string) int {
		t.Helper()
		return int(run(t, "d20w.modtrack", append([]string{"minor_bonuses=0"}, sets...)...).Var("net_points").Stats.Mean)
	}
	pts := mechtest.MatchedInts(t, `Points Minor (\d+), Major (\d+), Extreme (\d+)`, "d20w.modtrack's doc", doc)
	for i, n := range stepNames {
		if got := points(n + "_bonuses=1"); got != pts[i] {
			t.Errorf("one %s bonus is %d points; the doc says %d", n, got, pts[i])
		}
	}
	// The levels by points, in d20w.modtrack and d20w.crippling.
	bands := `(\d+) Minor, (\d+)–(\d+) Major, ≥ (\d+) Extreme`
	for _, text := range []string{doc, mechtest.Mechanic(t, registry, "d20w.crippling").Doc} {
		b := mechtest.MatchedInts(t, bands, "a levels text", text)
		for p, want := range map[int]int{b[0]: 1, b[1]: 2, b[2]: 2, b[3]: 3, b[3] + 1: 3, b[1] - 1: 1} {
			if level(p) != want {
				t.Errorf("%d points are level %d; the text %v says %d", p, level(p), b, want)
			}
		}
	}
	// The step values of opt.values.
	values := mechtest.OptionDoc(t, registry, "d20w.modtrack", "values")
	for name, v := range map[string][]int{
		"doubling":         mechtest.MatchedInts(t, `doubling ±(\d+)/±(\d+)/±(\d+)`, "opt.values", values),
		"d20_circumstance": mechtest.MatchedInts(t, `d20_circumstance ±(\d+)/±(\d+)/±(\d+)`, "opt.values", values),
	} {
		for i, n := range stepNames {
			if got := value("opt.values="+name, n+"_bonuses=1"); got != v[i] {
				t.Errorf("opt.values=%s: a %s bonus is worth %d; the option says %d", name, n, got, v[i])
			}
		}
	}
	// The cap.
	capDoc := mechtest.OptionDoc(t, registry, "d20w.modtrack", "cap")
	c := mechtest.MatchedInts(t, `extreme: (\d+) net points or more are Extreme and no more; open: each point beyond (\d+) adds`, "opt.cap", capDoc)
	extreme := value("extreme_bonuses=1")
	for _, p := range c {
		for extra := 0; extra <= 2; extra++ {
			sets := []string{set("minor_bonuses", p+extra), "minor_penalties=0"}
			if got := int(run(t, "d20w.modtrack", sets...).Var("net_value").Stats.Mean); got != extreme {
				t.Errorf("%d points are worth %d under cap=extreme; the option says Extreme (%d) and no more", p+extra, got, extreme)
			}
			if got, want := int(run(t, "d20w.modtrack", append(sets, "opt.cap=open")...).Var("net_value").Stats.Mean), extreme+extra*value("minor_bonuses=1"); got != want {
				t.Errorf("%d points are worth %d under cap=open; the option says %d", p+extra, got, want)
			}
		}
	}
	// A Major and a Minor.
	mm := mechtest.MatchedInts(t, `the value of (\d+) net points \(a Major and a Minor\): major \(it stays Major\) or interpolate \((\d+) × the Minor value\)`,
		"opt.major_plus_minor", mechtest.OptionDoc(t, registry, "d20w.modtrack", "major_plus_minor"))
	if got := points("major_bonuses=1", "minor_bonuses=1"); got != mm[0] {
		t.Errorf("a Major and a Minor are %d points; the option says %d", got, mm[0])
	}
	if got, want := int(run(t, "d20w.modtrack", "major_bonuses=1", "minor_bonuses=1", "opt.major_plus_minor=interpolate").Var("net_value").Stats.Mean), mm[1]*value("minor_bonuses=1"); got != want {
		t.Errorf("interpolated, a Major and a Minor are worth %d; the option says %d", got, want)
	}
	if got := points(set("minor_bonuses", mm[0])); got != mm[0] || level(got) != 2 {
		t.Errorf("%d Minors are %d points, level %d", mm[0], got, level(got))
	}
	// The Easy task: rolled (and so failing at DC 60) from the bound on.
	easy := mechtest.OptionDoc(t, registry, "d20w.modtrack", "easy_rolls")
	for _, bound := range [][]int{mechtest.MatchedInts(t, `p ≤ (−\d+)`, "opt.easy_rolls", easy), mechtest.MatchedInts(t, `p ≤ (−\d+) \(opt.easy_rolls\)`, "the doc", doc)} {
		for n, want := range map[int]float64{-bound[0] - 1: 1, -bound[0]: 0} {
			got := run(t, "d20w.modtrack", "task=easy", "minor_bonuses=0", set("minor_penalties", n), "dc=60").Event("success").P
			mechtest.Near(t, fmt.Sprintf("an Easy task with %d Minor penalties (the text: rolled at p ≤ %d)", n, bound[0]), got, want, 1e-12)
		}
	}
	either := mechtest.MatchedInts(t, `\|p\| ≥ (\d+)`, "opt.easy_rolls", easy)[0]
	for n, want := range map[int]float64{either - 1: 1, either: 0} {
		got := run(t, "d20w.modtrack", "task=easy", "opt.easy_rolls=any_extreme", set("minor_bonuses", n), "dc=60").Event("success").P
		mechtest.Near(t, fmt.Sprintf("an Easy task with %d Minor bonuses under any_extreme (the text: rolled at |p| ≥ %d)", n, either), got, want, 1e-12)
	}
	// d20w.crippling's events.
	r := run(t, "d20w.crippling", "attacks=8", "threat=4")
	inj := r.Var("injuries")
	for name, pattern := range map[string]string{"major": `\((\d+) injuries or more\)`, "extreme": `\((\d+) injuries or more\)`} {
		var doc string
		for _, e := range mechtest.MustModel(t, registry, "d20w.crippling", "attacks=8", "threat=4").Events {
			if e.Name == name {
				doc = e.Doc
			}
		}
		k := mechtest.MatchedInts(t, pattern, "the event "+name, doc)[0]
		var tail float64
		for i, p := range inj.P {
			if inj.Lo+i >= k {
				tail += p
			}
		}
		mechtest.Near(t, fmt.Sprintf("P(%s) against P(injuries ≥ %d)", name, k), r.Event(name).P, tail, 1e-12)
	}
}

// The size table of d20w.cm's size parameters is the special size
// modifier the manoeuvre adds.
func TestCMSizeTableIsTheModels(t *testing.T) {
	t.Parallel()
	rows := regexp.MustCompile(`(−?\d+) ([A-Z]\w+)(?: \(([+−]\d+)\))?`).FindAllStringSubmatch(mechtest.ParamDoc(t, registry, "d20w.cm", "attacker_size"), -1)
	if len(rows) != len(sizeNames) {
		t.Fatalf("the size table has %d rows: %v", len(rows), rows)
	}
	table := func(name string) string {
		return strings.SplitN(mechtest.ParamDoc(t, registry, "d20w.cm", name), "size category: ", 2)[1]
	}
	if table("attacker_size") != table("defender_size") {
		t.Errorf("the size tables differ: %s / %s", table("attacker_size"), table("defender_size"))
	}
	for _, r := range rows {
		mod := 0
		if r[3] != "" {
			mod = mechtest.TextInt(t, r[3])
		}
		for _, p := range []string{"pc_npc", "npc_pc", "pc_pc"} {
			sized := run(t, "d20w.cm", "pairing="+p, "attacker_size="+strconv.Itoa(mechtest.TextInt(t, r[1]))).Event("success").P
			moved := run(t, "d20w.cm", "pairing="+p, set("bonus", mod)).Event("success").P
			mechtest.Near(t, fmt.Sprintf("%s: a %s attacker against a Medium one with %+d", p, r[2], mod), sized, moved, 1e-12)
			sized = run(t, "d20w.cm", "pairing="+p, "defender_size="+strconv.Itoa(mechtest.TextInt(t, r[1]))).Event("success").P
			moved = run(t, "d20w.cm", "pairing="+p, set("bonus", -mod)).Event("success").P
			mechtest.Near(t, fmt.Sprintf("%s: a %s defender against a Medium one with %+d", p, r[2], -mod), sized, moved, 1e-12)
		}
	}
}
