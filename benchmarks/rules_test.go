package benchmarks

import (
	"os"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// exprMechanic compiles a one-line rule.
func exprMechanic(b *testing.B, src string) *mechanics.Mechanic {
	r, err := rules.FromExpr(src)
	if err != nil {
		b.Fatal(err)
	}
	return r.Mechanic()
}

// BenchmarkRuleExact: one-line rules through the exact engine as whole
// mechanics (compile, distributions, outputs); goal: 1000d6 ≤ 5 ms.
//
//	go test ./benchmarks -run '^$' -bench RuleExact
func BenchmarkRuleExact(b *testing.B) {
	for _, src := range []string{"1000d6", "4d6kh3", "10d10!{5}kh5", "d20 + 2d10! >= 25", "count(12d6 >= 5)"} {
		b.Run("task="+src, func(b *testing.B) {
			m := exprMechanic(b, src)
			c := m.DefaultConfig()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := exact.Run(m, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRuleSim: one-line rules simulated on one core; goal: 4d6kh3
// ≥ 150 M trials/s.
//
//	go test ./benchmarks -run '^$' -bench RuleSim
func BenchmarkRuleSim(b *testing.B) {
	for _, src := range []string{"4d6kh3", "3d6 >= 10", "d20 + 2d10! >= 25", "count(12d6 >= 5)", "largest_set(7d6)"} {
		b.Run("task="+src, func(b *testing.B) {
			m := exprMechanic(b, src)
			spec, err := m.Model(m.DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			simSpec(b, spec)
		})
	}
}

// BenchmarkRuleCompile: reading a rule file (TOML, the notation, and
// compiling every rule at its defaults, which Parse does); goal ≤ 1 ms.
//
//	go test ./benchmarks -run '^$' -bench RuleCompile
func BenchmarkRuleCompile(b *testing.B) {
	src, err := os.ReadFile("../lang/rules/testdata/house.toml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rules.Parse("house.toml", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuleVsBuiltin: ag's skill test written as a rule
// (examples/rules/ag_skill.toml) against the built-in ag.skill_test, in
// both engines, at skill 2, 6 and 12; goal: the rule within 2× of the
// built-in.
//
//	go test ./benchmarks -run '^$' -bench RuleVsBuiltin
func BenchmarkRuleVsBuiltin(b *testing.B) {
	rs, err := rules.LoadFile("../examples/rules/ag_skill.toml")
	if err != nil {
		b.Fatal(err)
	}
	var rule *mechanics.Mechanic
	for _, r := range rs {
		if r.ID == "my.ag.skill" {
			rule = r.Mechanic()
		}
	}
	builtin, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	for _, skill := range []string{"2", "6", "12"} {
		for _, m := range []*mechanics.Mechanic{builtin, rule} {
			c, err := m.Configure([]string{"skill=" + skill, "tn=6"})
			if err != nil {
				b.Fatal(err)
			}
			b.Run("engine=exact/skill="+skill+"/mechanic="+m.ID, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := exact.Run(m, c); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("engine=sim/skill="+skill+"/mechanic="+m.ID, func(b *testing.B) {
				spec, err := m.Model(c)
				if err != nil {
					b.Fatal(err)
				}
				simSpec(b, spec)
			})
		}
	}
}
