package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/study"
)

// translation is a row of docs/translating.md's table of other tools'
// texts: what the tool's user writes, what it means there (from its
// documentation), and oddsmith's expression of that meaning, written by
// hand from the documentation.
type translation struct {
	dialect  notation.Dialect
	text     string // as the tool's user writes it
	meaning  string // what the tool's documentation says it does
	oddsmith string // oddsmith's expression of that meaning
}

// translations are the rows; TestTranslatingRows runs each and writes
// the table (go test ./cmd/oddsmith -run TestTranslatingRows -update).
var translations = []translation{
	{notation.Roll20, "3d6>3", "the number of dice showing at least 3", "3d6cs>=3"},
	{notation.Roll20, "8d10<3", "the number of dice showing at most 3", "8d10#<=3"},
	{notation.Roll20, "10d10>7f1", "dice of 7 or more, less one for each 1", "10d10cs>=7cf1"},
	{notation.Roll20, "4d6kh3>4", "of the three highest dice, those of at least 4", "4d6kh3cs>=4"},
	{notation.Roll20, "2d8r<2", "reroll 1s and 2s until neither shows", "2d8r<=2"},
	{notation.Roll20, "1d20ro<2", "reroll a 1 or a 2 once", "d20ro<=2"},
	{notation.Roll20, "3d6!>5", "explode on 5 and 6", "3d6!>=5"},
	{notation.Roll20, "3d6!!", "compound: the rolls of a die add up to one", "3d6!!"},
	{notation.Roll20, "4d6kh3cs>5cf<2", "the three highest; cs and cf only mark criticals", "4d6kh3"},
	{notation.Roll20, "6d6m", "m only marks the dice that match", "6d6"},
	{notation.Roll20, "4d6sd", "sorted from the highest", "4d6"},
	{notation.Roll20, "/roll 2d6[Fire] + 1d4[Cold] Firebolt!", "a labelled roll with words after it", "2d6[Fire] + 1d4[Cold]"},
	{notation.Roll20, "[[@{level}d8 + @{str_mod}]]", "an inline roll reading the sheet's level and str_mod", "(level)d8 + str_mod"},
	{notation.Roll20, "8d6mt", "the number of sets of matching dice (faces shown by two dice or more)", "8d6mt"},
	{notation.Roll20, "8d6mt3>4", "sets of three or more, of faces of at least 4", "8d6mt3>=4"},
	{notation.Roll20, "5d10!k2", "the two highest of all the rolls, extra rolls included", "5d10!ekh2"},
	{notation.Roll20, "3d6!p", "penetrating: each extra roll counts one less", "3d6!p"},
	{notation.Roll20, "{4d6+3d8}kh1", "the highest of the seven dice", "max(4d6kh1, 3d8kh1)"},
	{notation.Roll20, "{4d6+3d8}k4", "the four highest of the seven dice", "{4d6 + 3d8}kh4"},
	{notation.Roll20, "{4d6+2d8, 3d20+3, 5d10+1}d1", "drop the lowest of the three sums", "{4d6 + 2d8, 3d20 + 3, 5d10 + 1}dl1"},
	{notation.Roll20, "{4d6+2d8, 3d20+3, 5d10+1}>40", "how many of the three sums reach 40", "(4d6 + 2d8 >= 40) + (3d20 + 3 >= 40) + (5d10 + 1 >= 40)"},
	{notation.Roll20, "{3d20+5}>21", "each die plus 5 against 21: the dice of at least 16", "3d20cs>=16"},
	{notation.Roll20, "{2d6!}>4", "every roll of the exploding dice of at least 4", "2d6!cs>=4"},
	{notation.Roll20, "[[ [[1d4]]d6 ]]", "a nested inline roll: 1d4 rolled first, then that many d6", "lookup(d4, {1: 1d6, 2: 2d6, 3: 3d6, 4: 4d6})"},
	{notation.Foundry, "5d6r1", "reroll a 1 once", "5d6ro1"},
	{notation.Foundry, "1d20r<3", "reroll a 1 or a 2 once (< is less than)", "d20ro<3"},
	{notation.Foundry, "1d20rr<3", "reroll 1s and 2s until neither shows", "d20r<3"},
	{notation.Foundry, "2d10x", "explode on 10, without limit", "2d10!"},
	{notation.Foundry, "2d10xo", "explode each die at most once", "2d10!{1}"},
	{notation.Foundry, "3d6x>=5", "explode on 5 and 6", "3d6!>=5"},
	{notation.Foundry, "8d10cs>=7", "the number of dice of at least 7", "8d10cs>=7"},
	{notation.Foundry, "8d10x>=8cs>=8", "explode on 8+, count every roll of 8+", "8d10!>=8cs>=8"},
	{notation.Foundry, "5d10x2>=8", "explode on 8+, at most 2 extra rolls in the whole term, the dice looked at in the order rolled", "5d10!>=8{2 in all}"},
	{notation.Foundry, "5d10x2>=8cs>=8", "the same, counting every roll of 8+", "5d10!>=8{2 in all}cs>=8"},
	{notation.Foundry, "d10x3>=8", "one die: at most 3 extra rolls", "d10!>=8{3}"},
	{notation.Foundry, "2d6xo2>=5", "only the two dice rolled first explode, once each: the cap of 2 never bites", "2d6!>=5{1}"},
	{notation.Foundry, "10d10cs>=7df=1", "dice of 7 or more, less one for each 1", "10d10cs>=7cf1"},
	{notation.Foundry, "6d6cf<=3", "the number of dice of at most 3", "6d6#<=3"},
	{notation.Foundry, "2d20kh", "the higher of two d20", "2d20kh1"},
	{notation.Foundry, "4d6dl", "drop the lowest die", "4d6kh3"},
	{notation.Foundry, "/r 1d20 + 5 # to hit", "a roll with a comment", "d20 + 5"},
	{notation.Foundry, "5d10x10", "explode on a 10", "5d10!"},
	{notation.Foundry, "5d6x5", "explode on a 5 (a 6 does not)", "5d6!=5"},
	{notation.Foundry, "4d10xk2", "the two highest of all the rolls", "4d10!ekh2"},
	{notation.Foundry, "{4d6, 3d8}kh", "the larger of the two sums", "max(4d6, 3d8)"},
	{notation.Foundry, "{4d6+3d8}kh", "keep the whole expression", "4d6 + 3d8"},
	{notation.Foundry, "{2d20, 1d20+5}cs>=15", "how many of the sums reach 15", "(2d20 >= 15) + (d20 + 5 >= 15)"},
	{notation.Foundry, "1d20 + @abilities.dex.mod", "a roll reading the sheet's dexterity modifier", "d20 + abilities_dex_mod"},
	{notation.Foundry, "1d20min10", "a die under 10 counts as 10", "d{10,10,10,10,10,10,10,10,10,10..20}"},
	{notation.Foundry, "4d6max5kh3", "each die at most 5, keep the highest three", "4d{1..5,5}kh3"},
	{notation.Foundry, "(1d4)d6", "roll 1d4, then that many d6", "lookup(d4, {1: 1d6, 2: 2d6, 3: 3d6, 4: 4d6})"},
	{notation.DiceRoller, "5d10>=8", "the number of dice of at least 8", "5d10cs>=8"},
	{notation.DiceRoller, "5d10>8", "the number of dice over 8", "5d10cs>=9"},
	{notation.DiceRoller, "4d6>4f<3", "dice over 4, less one for each die under 3", "4d6cs>4cf<3"},
	{notation.DiceRoller, "4d6kh3dl1", "keep the highest 3 and drop the lowest 1, each of all four dice", "4d6kh3"},
	{notation.DiceRoller, "5d6kh4kl3", "the dice both keep (each picks from all five): the second and third lowest", "5d6dl1dh2"},
	{notation.DiceRoller, "3d6cs=6cf=1", "the sum; cs and cf only mark criticals", "3d6"},
	{notation.DiceRoller, "2d8r<2", "reroll 1s until none shows (< is less than)", "2d8r1"},
	{notation.DiceRoller, "4d6sa", "sorted from the lowest", "4d6"},
	{notation.DiceRoller, "{3d20+5}>21", "1 if the total is over 21, else 0", "if 3d20 + 5 > 21 then 1 else 0"},
	{notation.DiceRoller, "{2d6, 1d8}kh1", "the larger of the two", "max(2d6, d8)"},
	{notation.DiceRoller, "2d6!p", "penetrating explosions", "2d6!p"},
	{notation.DiceRoller, "4d6!kh3", "the three highest of all the rolls", "4d6!ekh3"},
	{notation.DiceRoller, "10d8r!=5 // every die a 5", "reroll every face but 5 until it shows (a comment after //)", "10d{5}"},
	{notation.DiceRoller, "4d7>3f<>2", "dice over 3, less one for each die that is not a 2", "4d7cs>=4cf<=1cf>=3"},
	{notation.DiceRoller, "4d6min3", "a die under 3 counts as 3", "4d{3,3,3..6}"},
	{notation.DiceRoller, "3d6u", "reroll a die that repeats a face until it is new", "3d6u"},
	{notation.DiceRoller, "4d6uo", "reroll a die that repeats a face once", "4d6uo"},
	{notation.DiceRoller, "6d6u=6", "reroll a repeated 6 until it is new", "6d6u6"},
}

// TestTranslatingRows: every row of other tools' texts computes, read in
// its dialect, exactly the distribution of the oddsmith expression written
// from the tool's documentation, and the simulator agrees; the table in
// docs/translating.md is these rows (issue 26, items 1 and 6).
func TestTranslatingRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var table strings.Builder
	table.WriteString("| tool | written there | what it does there | oddsmith reads it with --dialect as | written in oddsmith |\n|---|---|---|---|---|\n")
	for _, r := range translations {
		x, err := notation.ParseIn(r.text, r.dialect)
		if err != nil {
			t.Errorf("%s %q: %v", r.dialect, r.text, err)
			continue
		}
		read := notation.String(x)
		got, err := runExpr(ctx, read, engine.Exact)
		if err != nil {
			t.Errorf("%s %q (%s): %v", r.dialect, r.text, read, err)
			continue
		}
		want, err := runExpr(ctx, r.oddsmith, engine.Exact)
		if err != nil {
			t.Errorf("%s: %v", r.oddsmith, err)
			continue
		}
		if msg := sameDists(got, want); msg != "" {
			t.Errorf("%s %q read as %s: %s; the documented meaning is %s", r.dialect, r.text, read, msg, r.oddsmith)
		}
		sim, err := runExpr(ctx, read, engine.Sim)
		if err != nil {
			t.Errorf("%s %q (%s) in the simulator: %v", r.dialect, r.text, read, err)
		} else if msg := simAgrees(sim, got); msg != "" {
			t.Errorf("%s %q (%s): %s", r.dialect, r.text, read, msg)
		}
		fmt.Fprintf(&table, "| %s | `%s` | %s | `%s` | `%s` |\n", r.dialect.Title(), strings.ReplaceAll(r.text, "|", `\|`), r.meaning, read, r.oddsmith)
	}
	checkGenerated(t, filepath.Join(repoRoot, "docs", "translating.md"), "TestTranslatingRows", table.String())
}

// runExpr runs a one-liner with the engine kind (the simulator with a
// fixed seed).
func runExpr(ctx context.Context, src string, kind engine.Kind) (*engine.Result, error) {
	r, err := rules.FromExpr(src)
	if err != nil {
		return nil, err
	}
	m := r.Mechanic()
	c, err := m.Configure(nil)
	if err != nil {
		return nil, err
	}
	return study.Engine{Kind: kind, Trials: 40_000, Seed: 26}.Run(ctx, m, c)
}

// sameDists compares two exact results variable by variable and event by
// event: "" when they agree.
func sameDists(a, b *engine.Result) string {
	if len(a.Vars) != len(b.Vars) || len(a.Events) != len(b.Events) {
		return fmt.Sprintf("%d variables and %d events, want %d and %d", len(a.Vars), len(a.Events), len(b.Vars), len(b.Events))
	}
	for i := range a.Vars {
		x, y := &a.Vars[i], &b.Vars[i]
		px, py := pmfOf(x), pmfOf(y)
		for v, p := range px {
			if math.Abs(p-py[v]) > 1e-12 {
				return fmt.Sprintf("%s: P(%g) = %.12g, want %.12g", x.Name, v, p, py[v])
			}
		}
		for v, p := range py {
			if _, ok := px[v]; !ok && p > 1e-12 {
				return fmt.Sprintf("%s: P(%g) = 0, want %.12g", x.Name, v, p)
			}
		}
	}
	for i := range a.Events {
		if math.Abs(a.Events[i].P-b.Events[i].P) > 1e-12 {
			return fmt.Sprintf("P(%s) = %.12g, want %.12g", a.Events[i].Name, a.Events[i].P, b.Events[i].P)
		}
	}
	return ""
}

// pmfOf is a variable's distribution by value.
func pmfOf(v *engine.VarResult) map[float64]float64 {
	out := map[float64]float64{}
	for i, p := range v.P {
		if p > 0 {
			out[v.Value(i)] += p
		}
	}
	return out
}

// simAgrees checks a simulated result against the exact one: every
// variable's mean within 5 standard errors, every event's probability
// within 5 standard errors.
func simAgrees(sim, ex *engine.Result) string {
	for i := range ex.Vars {
		var m, m2 float64
		for v, p := range pmfOf(&ex.Vars[i]) {
			m += v * p
			m2 += v * v * p
		}
		var sm float64
		for v, p := range pmfOf(&sim.Vars[i]) {
			sm += v * p
		}
		se := math.Sqrt(max(m2-m*m, 0)/float64(sim.Trials)) + 1e-9
		if math.Abs(sm-m) > 5*se {
			return fmt.Sprintf("%s: simulated mean %.4f, exact %.4f (5 standard errors %.4f)", ex.Vars[i].Name, sm, m, 5*se)
		}
	}
	for i := range ex.Events {
		p := ex.Events[i].P
		se := math.Sqrt(p*(1-p)/float64(sim.Trials)) + 1e-9
		if math.Abs(sim.Events[i].P-p) > 5*se {
			return fmt.Sprintf("P(%s): simulated %.4f, exact %.4f", ex.Events[i].Name, sim.Events[i].P, p)
		}
	}
	return ""
}

// checkGenerated compares the part of a doc between the markers of test
// with text, or with -update writes text there.
func checkGenerated(t *testing.T, path, test, text string) {
	t.Helper()
	begin := "<!-- generated by " + test + " (go test ./cmd/oddsmith -run " + test + " -update): do not edit -->\n"
	end := "<!-- end of " + test + " -->\n"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no markers %q … %q", path, begin, end)
	}
	if s[i+len(begin):j] == text {
		return
	}
	if !*update {
		t.Fatalf("%s: the table of %s is stale: run go test ./cmd/oddsmith -run %s -update", path, test, test)
	}
	if err := os.WriteFile(path, []byte(s[:i+len(begin)]+text+s[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
