package mechtest

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The helpers below let a system's tests read what its describe texts
// state back and compute with it.

// Mechanic is the declared mechanic id of reg.
func Mechanic(t testing.TB, reg *mechanics.Registry, id string) *mechanics.Mechanic {
	t.Helper()
	m, err := reg.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ParamDoc is the doc of parameter name of mechanic id.
func ParamDoc(t testing.TB, reg *mechanics.Registry, id, name string) string {
	t.Helper()
	for _, p := range Mechanic(t, reg, id).Params {
		if p.Name == name {
			return p.Doc
		}
	}
	t.Fatalf("%s has no parameter %s", id, name)
	return ""
}

// OptionDoc is the doc of the option of mechanic id whose full name ends
// in name.
func OptionDoc(t testing.TB, reg *mechanics.Registry, id, name string) string {
	t.Helper()
	for _, o := range Mechanic(t, reg, id).Options {
		if strings.HasSuffix(o.Name, "."+name) {
			return o.Doc
		}
	}
	t.Fatalf("%s has no option %s", id, name)
	return ""
}

// textFractions are the vulgar fractions the texts write.
var textFractions = map[string]float64{"½": 1. / 2, "⅓": 1. / 3, "¼": 1. / 4, "¾": 3. / 4, "⅙": 1. / 6}

// TextNumber reads a number as the texts write it: −2, +8, 7.5, ¾.
func TextNumber(t testing.TB, s string) float64 {
	t.Helper()
	if f, ok := textFractions[s]; ok {
		return f
	}
	f, err := strconv.ParseFloat(strings.NewReplacer("−", "-", "+", "").Replace(s), 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TextInt reads a whole number as the texts write it (−4, +2).
func TextInt(t testing.TB, s string) int {
	t.Helper()
	f := TextNumber(t, s)
	if f != math.Trunc(f) {
		t.Fatalf("%q is not a whole number", s)
	}
	return int(f)
}

// Matched is the groups of pattern's first match in text, read as numbers
// (TextNumber), or a fatal error naming what does not state it.
func Matched(t testing.TB, pattern, what, text string) []float64 {
	t.Helper()
	return matchedAs(t, pattern, what, text, TextNumber)
}

// MatchedInts is Matched for whole numbers.
func MatchedInts(t testing.TB, pattern, what, text string) []int {
	t.Helper()
	return matchedAs(t, pattern, what, text, TextInt)
}

// matchedAs is MatchedText with each group read by read.
func matchedAs[T any](t testing.TB, pattern, what, text string, read func(testing.TB, string) T) []T {
	t.Helper()
	var out []T
	for _, s := range MatchedText(t, pattern, what, text) {
		out = append(out, read(t, s))
	}
	return out
}

// MatchedText is the groups of pattern's first match in text, or a fatal
// error naming what does not state it.
func MatchedText(t testing.TB, pattern, what, text string) []string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s does not state %q: %s", what, pattern, text)
	}
	return m[1:]
}
