package gm

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// docOf is a mechanic's describe text: its summary, doc, parameters' and
// options' docs.
func docOf(t *testing.T, id string) string {
	t.Helper()
	m, err := registry.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{m.Summary, m.Doc}
	for _, p := range m.Params {
		parts = append(parts, p.Doc)
	}
	for _, o := range m.Options {
		parts = append(parts, o.Doc)
	}
	return strings.Join(parts, "\n")
}

// TestJumpRunningOnlyAcross: the rules add running movement to the roll of
// a leap across, not of a jump up; running > 0 with kind=up is bad input,
// refused in one line that names the problem.
func TestJumpRunningOnlyAcross(t *testing.T) {
	t.Parallel()
	m, c, err := registry.Configure("gm.jump", []string{"running=6"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Model(c)
	if err == nil || !mechanics.IsInput(err) {
		t.Fatalf("gm.jump running=6 kind=up: err = %v; want bad input", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "running=6") || !strings.Contains(msg, "kind=across") {
		t.Errorf("gm.jump running=6 kind=up: %q; want one line naming running=6 and kind=across", msg)
	}
	// running=0 jumps up as before; across, running adds to T (10 + 8 + 6).
	mechtest.MustExact(t, registry, "gm.jump", "running=0")
	r := mechtest.MustExact(t, registry, "gm.jump", "kind=across", "running=6", "target=6")
	mechtest.Near(t, "across, running 6: P(reach 6 yd) at T − 16 = 8", r.Event("reaches_target").P, 8.0/20, 1e-15)
}

// TestJumpTargetZero: a target of 0 needs no height, so every roll reaches
// it, a natural 20 too, with the naturals switch or without; describe says
// so instead of "a 20 never does".
func TestJumpTargetZero(t *testing.T) {
	t.Parallel()
	for _, sets := range [][]string{
		{"target=0"},
		{"target=0", "opt.naturals=1_succeeds_20_fails"},
		{"target=0", "opt.naturals=1_succeeds_20_fails", "agility=0", "modifier=-40"},
	} {
		r := mechtest.MustExact(t, registry, "gm.jump", sets...)
		mechtest.Near(t, "P(reach)"+joinSets(sets), r.Event("reaches_target").P, 1, 0)
	}
	// Above 0 the switch makes a 20 fail, however high the target.
	r := mechtest.MustExact(t, registry, "gm.jump", "target=1", "opt.naturals=1_succeeds_20_fails", "agility=40")
	mechtest.Near(t, "P(reach 1 ft), naturals, agility 40", r.Event("reaches_target").P, 19.0/20, 1e-15)
	doc := docOf(t, "gm.jump")
	if !strings.Contains(doc, "a target of 0 needs no height, so every roll reaches it, a natural 20 too") {
		t.Errorf("gm.jump describe does not say that every roll, a natural 20 too, reaches a target of 0:\n%s", doc)
	}
}

// TestFallSecondsAloft: the time aloft at the edges of the falling table's
// bands (1 s per die up to 450 ft) and past 450 ft, where it is exactly
// 7 + (h − 450)/150 s, a fraction, not rounded; describe says so.
func TestFallSecondsAloft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		h    string
		want float64
	}{
		{"0", 1}, {"9.99", 1}, {"10", 2}, {"19.99", 2}, {"20", 3}, {"39.99", 3}, {"40", 4}, {"79.99", 4}, {"80", 5},
		{"159.99", 5}, {"160", 6}, {"319.99", 6}, {"320", 7}, {"450", 7},
		{"450.15", 7.001}, {"451.5", 7.01}, {"525", 7.5}, {"599.99", 7 + 149.99/150}, {"600", 8}, {"750", 9}, {"2000", 7 + 1550.0/150},
	} {
		r := mechtest.MustExact(t, registry, "gm.fall", "height="+c.h)
		v := r.Var("seconds_aloft")
		mechtest.Near(t, "seconds aloft at "+c.h+" ft", v.Stats.Mean, c.want, 1e-12)
		mechtest.Near(t, "seconds aloft at "+c.h+" ft is not random", v.Stats.SD, 0, 0)
	}
	doc := docOf(t, "gm.fall")
	if strings.Contains(doc, "+1 s per 150 ft") || !strings.Contains(doc, "7 + (h − 450)/150") || !strings.Contains(doc, "not rounded") {
		t.Errorf("gm.fall describe does not say that the time past 450 ft is 7 + (h − 450)/150 s, not rounded:\n%s", doc)
	}
}

// TestSuffocationLastRound: a health roll is made only strictly before the
// end of the time without air; one due exactly at the end (round 6 ×
// minutes) is not made, at rest too. describe states the boundary.
func TestSuffocationLastRound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sets  []string
		rolls float64
	}{
		{[]string{"prepared=1", "endurance=12", "minutes=2"}, 0},              // round 12 of 12
		{[]string{"prepared=1", "endurance=11", "minutes=2"}, 1},              // round 11
		{[]string{"prepared=1", "endurance=6", "minutes=2"}, 1},               // rounds 6 and 12 of 12
		{[]string{"prepared=1", "endurance=5", "minutes=2"}, 2},               // rounds 5 and 11
		{[]string{"prepared=1", "endurance=6", "minutes=2", "at_rest=1"}, 0},  // round 12 of 12
		{[]string{"prepared=1", "endurance=5", "minutes=2", "at_rest=1"}, 1},  // round 10, then 22
		{[]string{"prepared=1", "endurance=0", "minutes=0"}, 0},               // no time without air
		{[]string{"prepared=1", "endurance=0", "minutes=1"}, 1},               // round 0, then 6 of 6
		{[]string{"prepared=1", "endurance=0", "minutes=1", "at_rest=1"}, 1},  // round 0, then 12
		{[]string{"prepared=1", "endurance=18", "minutes=4", "at_rest=1"}, 0}, // round 36 of 24
	} {
		r := mechtest.MustExact(t, registry, "gm.suffocation", c.sets...)
		mechtest.Near(t, "health rolls"+joinSets(c.sets), r.Var("health_rolls").Stats.Mean, c.rolls, 0)
		mechtest.Near(t, "health rolls"+joinSets(c.sets)+" (not random)", r.Var("health_rolls").Stats.SD, 0, 0)
	}
	doc := docOf(t, "gm.suffocation")
	if !strings.Contains(doc, "strictly before the end of the time without air") || !strings.Contains(doc, "one due exactly at the end is not made") {
		t.Errorf("gm.suffocation describe does not state that a roll due exactly at the end is not made:\n%s", doc)
	}
}
