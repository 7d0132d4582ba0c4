package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// TestProcessTableListsStatesWithMass: `exact grim.burning` (no escape at
// escape_percent=0) lists "down" and one row for the twenty escaped states
// of probability 0, within the horizon and without one, where it listed
// twenty rows of 0.0000; the CSV keeps every state.
func TestProcessTableListsStatesWithMass(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(context.Background(), "exact", "grim.burning")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "status=escaped") {
		t.Errorf("the table lists states of probability 0:\n%s", out)
	}
	for _, want := range []string{`(?m)^down +0\.6369$`, `(?m)^P\(down\), unlimited horizon +1$`, `(?m)^escaped +0$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the table lacks %s:\n%s", want, out)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^\(20 more states\) +0 each; see --format csv$`).FindAllString(out, -1)); n != 2 {
		t.Errorf("%d rows for the 20 states left out, want 2:\n%s", n, out)
	}
	_, out, _ = runCLI(context.Background(), "exact", "grim.burning", "--format", "csv")
	if n := strings.Count(out, "\nprocess,absorbed_unbounded,status=escaped damage="); n != 20 {
		t.Errorf("the CSV has %d escaped states without a horizon, want all 20", n)
	}
}

// TestCertainValueHasNoTail: at 320 ft gm.fall's injuries are 7 for
// certain. Its outcome masses add up to 1 − 2.1e−15, which the CSV
// printed as a ccdf of 2.109423747e−15 and the JSON as a probability of
// 0.9999999999999978; now they are exactly 0 and 1, and the table prints 1
// and 0 for what is certain and impossible.
func TestCertainValueHasNoTail(t *testing.T) {
	t.Parallel()
	args := []string{"exact", "gm.fall", "--set", "height=320"}
	_, out, _ := runCLI(context.Background(), append(args, "--format", "csv")...)
	for _, want := range []string{"\npmf,injuries,7,1,1,0,", "\npmf,seconds_aloft,7,1,1,0,", "\npmf,damage,42,3.572245085e-06,1,0,"} {
		if !strings.Contains(out, want) {
			t.Errorf("the CSV lacks %q", want)
		}
	}
	_, out, _ = runCLI(context.Background(), append(args, "--format", "json")...)
	if !strings.Contains(out, `"injuries":[[7,1]]`) {
		t.Errorf("the JSON does not give injuries 7 with probability 1:\n%s", out)
	}
	_, out, _ = runCLI(context.Background(), args...)
	for _, want := range []string{`(?m)^evaded +0$`, `(?m)^7 +<0\.0001 +<0\.0001 +1$`, `(?m)^42 +<0\.0001 +1 +<0\.0001$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the table lacks %s:\n%s", want, out)
		}
	}
	// A process that cannot end at once survives its first step for
	// certain, and its only way out is taken for certain.
	_, out, _ = runCLI(context.Background(), "exact", "ag.magic.dispel", "--format", "json")
	var j struct {
		Process struct {
			Survival          []float64 `json:"survival"`
			AbsorbedUnbounded []float64 `json:"absorbed_unbounded"`
		} `json:"process"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Process.Survival[0] != 1 || len(j.Process.AbsorbedUnbounded) != 1 || j.Process.AbsorbedUnbounded[0] != 1 {
		t.Errorf("ag.magic.dispel: S(0) = %v, absorbed without a horizon %v; want exactly 1 and [1]", j.Process.Survival[0], j.Process.AbsorbedUnbounded)
	}
}

// TestTailsAtDefaults: for every mechanic the exact engine computes, at
// its defaults, the CSV's ccdf P(X > x) of every variable is summed from
// the top: exactly 0 at its largest value when nothing is undefined or
// left out, never 0 while a larger value has mass, and a variable with
// one value has it with probability 1 and cdf 1.
func TestTailsAtDefaults(t *testing.T) {
	t.Parallel()
	for _, m := range systems.Default.All() {
		if m.MCOnly {
			continue
		}
		t.Run(m.ID, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(context.Background(), "exact", m.ID, "--format", "csv")
			if code != 0 {
				t.Skipf("exit %d: %s", code, errOut) // refusals are other tests' business
			}
			if strings.Contains(out, "\n# truncated_mass:") {
				return // the mass left out counts above every value
			}
			cr := csv.NewReader(strings.NewReader(out))
			cr.Comment = '#'
			rows, err := cr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			pmf := map[string][][]string{}
			undefined := map[string]bool{}
			for _, r := range rows[1:] {
				switch r[0] {
				case "pmf":
					pmf[r[1]] = append(pmf[r[1]], r)
				case "undefined":
					undefined[r[1]] = true
				}
			}
			for v, rs := range pmf {
				for i, r := range rs {
					ccdf, _ := strconv.ParseFloat(r[5], 64)
					last := i == len(rs)-1
					if last && !undefined[v] && ccdf != 0 {
						t.Errorf("%s: P(X > %s) = %s at its largest value, want 0", v, r[2], r[5])
					}
					if !last && ccdf == 0 {
						t.Errorf("%s: P(X > %s) = 0 below its largest value %s", v, r[2], rs[len(rs)-1][2])
					}
				}
				if len(rs) == 1 && !undefined[v] && (rs[0][3] != "1" || rs[0][4] != "1") {
					t.Errorf("%s is %s for certain: P %s, cdf %s; want 1 and 1", v, rs[0][2], rs[0][3], rs[0][4])
				}
			}
		})
	}
}
