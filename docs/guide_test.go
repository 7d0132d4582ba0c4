// Package docs_test holds the code of docs/adding-a-mechanic.md: a toy
// system with one mechanic, written as a real system package would write
// it, computed by both engines in Example functions and checked by the same
// CheckSystem every system runs. TestGuideMatchesCode keeps the guide's Go
// blocks identical to this file, so the guide always compiles and runs.
package docs_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// coin is toy.coins.opt.coin: which coin is flipped.
type coin int

// Values of toy.coins.opt.coin; the first is the default.
const (
	fairCoin   coin = iota // fair
	loadedCoin             // loaded
)

// String names the values; in a system package `go tool stringer
// -linecomment` writes it from the comments above.
func (c coin) String() string { return [...]string{"fair", "loaded"}[c] }

var optCoin = mechanics.SwitchOf("toy.coins", "coin",
	"fair: heads half the time; loaded: heads two times in three", fairCoin, loadedCoin)

// coinsRecord is the outcome of one trial: the number of heads.
var coinsRecord = mechanics.NewRecord(mechanics.Int("heads", 0, 100, "coins that show heads"))

// buildCoins is toy.coins: n coins, success with at least k heads.
func buildCoins(c mechanics.Config) (*mechanics.Spec, error) {
	n, k := c.Int("n"), c.Int("k")
	if k > n {
		return nil, fmt.Errorf("k = %d heads cannot come from n = %d coins", k, n)
	}
	face := mechanics.Die{Faces: []int{0, 1}, Weights: []int64{1, 1}} // tails 0, heads 1
	if optCoin.Of(c) == loadedCoin {
		face.Weights = []int64{1, 2}
	}
	spec := &mechanics.Spec{
		Record:  coinsRecord,
		Outcome: kit.Encode(coinsRecord, coinsRecord.Slot("heads"), mechanics.Repeat{X: face, N: n}),
	}
	spec.Var("heads", "the number of heads", expr.F("heads")).
		Event("success", "at least k heads", expr.Ge(expr.F("heads"), expr.K(int64(k))))
	return spec, nil
}

// toyMechanics are the toy system's mechanics: what a system's catalog.go
// returns from Mechanics().
func toyMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{{
		ID:      "toy.coins",
		Summary: "flip n coins: at least k heads?",
		Doc:     "Flip n coins and count the heads; success with at least k of them.",
		Params: []mechanics.Param{
			mechanics.IntParam("n", 3, 1, 100, "coins flipped"),
			mechanics.IntParam("k", 2, 0, 100, "heads needed"),
		},
		Options: mechanics.Options(optCoin),
		Build:   buildCoins,
	}}
}

// extraConfigs are the configurations the system test runs besides the
// defaults: together they set every value of every option.
var extraConfigs = map[string][][]string{
	"toy.coins": {{"opt.coin=loaded", "n=10", "k=7"}},
}

// The toy system passes the test every system runs: declarations and docs,
// option coverage, both engines agreeing, every parameter at its limits and
// random configurations.
func TestToySystem(t *testing.T) {
	mechtest.CheckSystem(t, mechtest.System{Name: "toy", Mechanics: toyMechanics(), Extra: extraConfigs})
}

// A registry holds the toy system's mechanics; both engines compute them.
// (systems.Default is the registry of the built-in systems; a new system is
// added to it in systems/systems.go.)
func Example_computeBothEngines() {
	reg := mechanics.NewRegistry(toyMechanics()...)
	m, c, err := reg.Configure("toy.coins", []string{"n=3", "k=2"})
	if err != nil {
		panic(err)
	}
	ex, err := exact.Run(m, c)
	if err != nil {
		panic(err)
	}
	fmt.Printf("exact: P(heads = 0, 1, 2, 3) = %v; P(at least 2) = %v\n", ex.Var("heads").Exact, ex.Event("success").P)
	sm, err := sim.Run(context.Background(), m, c, sim.Options{Trials: 100_000, Seed: 1})
	if err != nil {
		panic(err)
	}
	e := sm.Event("success")
	fmt.Printf("simulated: %.3f, 95%% interval covers 1/2: %v\n", e.P, e.CI[0] <= 0.5 && 0.5 <= e.CI[1])
	// Output:
	// exact: P(heads = 0, 1, 2, 3) = [1/8 3/8 3/8 1/8]; P(at least 2) = 0.5
	// simulated: 0.499, 95% interval covers 1/2: true
}

// TestGuideMatchesCode keeps docs/adding-a-mechanic.md true: every Go block
// of the guide appears verbatim in this file.
func TestGuideMatchesCode(t *testing.T) {
	guide, err := os.ReadFile("adding-a-mechanic.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("guide_test.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) < 4 {
		t.Fatalf("found %d Go blocks in the guide", len(blocks))
	}
	for _, b := range blocks {
		if !strings.Contains(string(src), b[1]) {
			t.Errorf("the guide's block is not in docs/guide_test.go:\n%s", b[1])
		}
	}
}
