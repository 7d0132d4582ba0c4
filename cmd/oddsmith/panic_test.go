package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// engineBug is the panic value of the mechanics below that break an engine
// on purpose: not a mechanics.Fault, so it is a bug no engine may recover.
type engineBug string

// breakingRegistry holds mechanics whose model panics with x:
//
//   - test.node: a node's function, on a roll of 6 (both engines meet it;
//     the simulator in its workers);
//   - test.move: a process's Move, from a state no step leads to, which
//     only the simulator meets, tabulating Move over every state ahead of
//     need (where a fault selects a slower loop and the run goes on);
//   - test.build: the builder.
func breakingRegistry(x any) *mechanics.Registry {
	swept := []mechanics.Param{mechanics.IntParam("n", 1, 1, 4, "a parameter to sweep (the model ignores it)")}
	node := &mechanics.Mechanic{ID: "test.node", Summary: "a roll whose 6 breaks the model", Params: swept,
		Build: func(mechanics.Config) (*mechanics.Spec, error) {
			rec := mechanics.NewRecord(mechanics.Int("roll", 1, 6, "the roll"))
			roll := rec.Slot("roll")
			spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Map{X: mechanics.D(6), F: func(v int) int {
				if v == 6 {
					panic(x)
				}
				return roll.Set(rec.Start(), v)
			}}}
			return spec.Report("roll"), nil
		}}
	move := &mechanics.Mechanic{ID: "test.move", Summary: "a chain that breaks from a state it never reaches",
		Build: func(mechanics.Config) (*mechanics.Spec, error) {
			p := &mechanics.Process{Horizon: 10, Homogeneous: true, TimeUnit: "turn"}
			calm := p.Add(false, "calm")
			limbo := p.Add(false, "limbo")
			out := p.Add(true, "out")
			p.Kernel = func(int) mechanics.Node { return mechanics.D(6) }
			p.Move = func(_, s, v int) int {
				switch {
				case s == limbo:
					panic(x)
				case v == 6:
					return out
				}
				return calm
			}
			return mechanics.ProcessSpec(p), nil
		}}
	build := &mechanics.Mechanic{ID: "test.build", Summary: "a model that breaks while it is built", Params: swept,
		Build: func(mechanics.Config) (*mechanics.Spec, error) { panic(x) }}
	return mechanics.NewRegistry(node, move, build)
}

// TestEngineBugIsAnInternalError: a panic that is not a fault of the model
// reaches the command's one handler in either engine, from the simulator's
// workers and from where a fallback once swallowed it: exit 1 with one line
// that says "internal error", no stack trace. The same model raising a
// mechanics.Fault fails with the model's error (a built-in's: exit 1), or,
// where the simulator only tabulated Move ahead of need, runs.
func TestEngineBugIsAnInternalError(t *testing.T) {
	bug := withBuiltins(context.Background(), breakingRegistry(engineBug("broken on purpose")))
	fault := withBuiltins(context.Background(), breakingRegistry(mechanics.Fault{Err: errors.New("no rule for this")}))
	sim := []string{"-n", "20000", "-s", "3"}
	cases := []struct {
		name string
		ctx  context.Context
		args []string
		code int
		want string // in the one line of the error ("" when it runs)
	}{
		{"exact, node bug", bug, []string{"exact", "test.node"}, exitFailure, "internal error (please report it): broken on purpose"},
		{"sim, node bug", bug, append([]string{"sim", "test.node"}, sim...), exitFailure, "internal error (please report it): broken on purpose"},
		{"sim, move bug", bug, append([]string{"sim", "test.move"}, sim...), exitFailure, "internal error (please report it): broken on purpose"},
		{"exact, node fault", fault, []string{"exact", "test.node"}, exitFailure, "test.node: the model failed: no rule for this"},
		{"sim, node fault", fault, append([]string{"sim", "test.node"}, sim...), exitFailure, "test.node: the model failed: no rule for this"},
		{"sim, move fault", fault, append([]string{"sim", "test.move"}, sim...), 0, ""},
		{"exact, move bug", bug, []string{"exact", "test.move"}, 0, ""},
		{"exact, build bug", bug, []string{"exact", "test.build"}, exitFailure, "internal error (please report it): broken on purpose"},
		{"sim, build fault", fault, append([]string{"sim", "test.build"}, sim...), exitFailure, "test.build: building the model failed: no rule for this"},
		// A plan's analyses and a shard's points run side by side in
		// goroutines of their own (study's group carries a panic to the
		// command's goroutine).
		{"plan, node bug", bug, []string{"run", "PLAN"}, exitFailure, "internal error (please report it): broken on purpose"},
		{"sim sweep shard, build bug", bug, append([]string{"sweep", "test.build", "--engine", "sim", "--vary", "n=1..4", "--shard", "1/2", "-o", "SHARD"}, sim...), exitFailure, "internal error (please report it): broken on purpose"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for i, a := range c.args {
				switch a {
				case "PLAN":
					plan := filepath.Join(dir, "plan.toml")
					src := "[[analysis]]\nname = \"a\"\nmechanic = \"test.node\"\nvary = { n = \"1..4\" }\nmetric = \"mean:roll\"\n"
					if err := os.WriteFile(plan, []byte(src), 0o644); err != nil {
						t.Fatal(err)
					}
					c.args = append(slices.Clone(c.args[:i]), plan, "-o", filepath.Join(dir, "out"))
				case "SHARD":
					c.args = slices.Clone(c.args)
					c.args[i] = filepath.Join(dir, "points.shard")
				}
			}
			code, _, stderr := runCLI(c.ctx, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if c.want == "" {
				if strings.Contains(stderr, "oddsmith:") {
					t.Errorf("stderr %q, want no error", stderr)
				}
				return
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr %q, want one line with %q", stderr, c.want)
			}
			if internal := strings.Contains(stderr, "internal error"); internal != strings.Contains(c.want, "internal error") {
				t.Errorf("stderr %q: internal error %v", stderr, internal)
			}
		})
	}
}
