package rules

import (
	"bytes"
	"context"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/sim"
)

// quotients enumerates x/y over every pair of two small distributions
// (value → weight), exactly: the brute force the engines are held to.
func quotients(xs, ys map[int64]int64) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	var tot int64
	for _, wx := range xs {
		for _, wy := range ys {
			tot += wx * wy
		}
	}
	for x, wx := range xs {
		for y, wy := range ys {
			k := big.NewRat(x, y).RatString()
			if out[k] == nil {
				out[k] = new(big.Rat)
			}
			out[k].Add(out[k], big.NewRat(wx*wy, tot))
		}
	}
	return out
}

func die(n int64) map[int64]int64 {
	d := map[int64]int64{}
	for f := int64(1); f <= n; f++ {
		d[f] = 1
	}
	return d
}

// TestDivisionByADie: a quotient by a die (issue 26: d20/d20 "needed about
// 69 GiB" in both engines) is computed exactly — its few values held one
// by one, however fine their lattice — and simulated, and both agree with
// the enumeration of every pair of numerator and denominator.
func TestDivisionByADie(t *testing.T) {
	t.Parallel()
	twoD10 := map[int64]int64{}
	for a := int64(1); a <= 10; a++ {
		for b := int64(1); b <= 10; b++ {
			twoD10[a+b]++
		}
	}
	for _, c := range []struct {
		src  string
		want map[string]*big.Rat
	}{
		{"d20/d20", quotients(die(20), die(20))},
		{"2d10/d20", quotients(twoD10, die(20))},
		{"5/d36", quotients(map[int64]int64{5: 1}, die(36))},
		{"1/d70", quotients(map[int64]int64{1: 1}, die(70))}, // no common denominator in 64 bits
	} {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			r, err := FromExpr(c.src)
			if err != nil {
				t.Fatal(err)
			}
			m := r.Mechanic()
			ex, err := exact.Run(m, m.DefaultConfig())
			if err != nil {
				t.Fatalf("exact: %v", err)
			}
			v := variable(t, ex, "value")
			if v.Xs == nil || len(v.P) != len(c.want) {
				t.Fatalf("exact: %d values (held one by one: %v), want %d", len(v.P), v.Xs != nil, len(c.want))
			}
			for i := range v.P {
				x := v.Rat(i)
				k := big.NewRat(x.N, x.D).RatString()
				if i > 0 && v.Rat(i-1).Cmp(x) >= 0 {
					t.Errorf("values out of order at %s", k)
				}
				if v.Exact == nil || v.Exact[i] != c.want[k].RatString() {
					t.Errorf("exact P(%s) = %v, want %s", k, v.Exact, c.want[k].RatString())
					break
				}
			}
			var mean float64
			for k, p := range c.want {
				x, _ := new(big.Rat).SetString(k)
				xf, _ := x.Float64()
				pf, _ := p.Float64()
				mean += xf * pf
			}
			if math.Abs(v.Stats.Mean-mean) > 1e-12 {
				t.Errorf("exact mean %v, want %v", v.Stats.Mean, mean)
			}
			// The simulator gives the same values, each within its
			// sampling error.
			const n = 200_000
			sr, err := sim.Run(context.Background(), m, m.DefaultConfig(), sim.Options{Trials: n, Seed: 3, Workers: 2})
			if err != nil {
				t.Fatalf("sim: %v", err)
			}
			sv := variable(t, sr, "value")
			if sv.Xs == nil {
				t.Fatalf("sim: the values are not held one by one")
			}
			got := map[string]float64{}
			for i, p := range sv.P {
				x := sv.Rat(i)
				got[big.NewRat(x.N, x.D).RatString()] = p
			}
			for k, p := range c.want {
				pf, _ := p.Float64()
				if sd := math.Sqrt(pf * (1 - pf) / n); math.Abs(got[k]-pf) > 5*sd+1e-9 {
					t.Errorf("sim P(%s) = %v, want %v ± %v", k, got[k], pf, 5*sd)
				}
			}
			for k := range got {
				if c.want[k] == nil {
					t.Errorf("sim gives %s, which no pair does", k)
				}
			}
			// Reports read the values one by one: the table, CSV, JSON
			// and chart, and a comparison of the two engines.
			var buf bytes.Buffer
			for _, f := range []string{"table", "csv", "json"} {
				buf.Reset()
				if err := reports.Write(&buf, ex, f); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
			if !strings.Contains(buf.String(), `"exact"`) {
				t.Errorf("json without exact fractions")
			}
			buf.Reset()
			if err := reports.WritePMF(&buf, sr, sv); err != nil {
				t.Fatalf("pmf chart: %v", err)
			}
			cmp := engine.Compare(ex, sr)
			d := cmp.Dist("value")
			if d == nil {
				t.Fatal("no comparison of value")
			}
			if vs := d.Values(cmp); len(vs) != len(c.want) {
				t.Errorf("the comparison lines up %d values, want %d", len(vs), len(c.want))
			}
		})
	}
}

// TestDivisionByZeroIsTheRulesFault: a denominator that can be 0 (d6 - 1)
// is refused as docs/language.md says, naming the rolls, by both engines.
func TestDivisionByZeroIsTheRulesFault(t *testing.T) {
	t.Parallel()
	r, err := FromExpr("d6 / (d6 - 1)")
	if err != nil {
		t.Fatal(err)
	}
	m := r.Mechanic()
	if _, err := exact.Run(m, m.DefaultConfig()); err == nil || !strings.Contains(err.Error(), "[d6 - 1]=0: division by zero") {
		t.Errorf("exact: %v", err)
	}
	if _, err := sim.Run(context.Background(), m, m.DefaultConfig(), sim.Options{Trials: 1000, Seed: 1, Workers: 1}); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("sim: %v", err)
	}
}
