package benchmarks

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/lang/rules"
)

// fuzzCorpus is every string of the notation's and the one-liners' fuzz
// corpora (testdata/fuzz of lang/notation and lang/rules).
func fuzzCorpus(b *testing.B) []string {
	var out []string
	for _, dir := range []string{"../lang/notation/testdata/fuzz/FuzzParse", "../lang/rules/testdata/fuzz/FuzzExpr", "../lang/rules/testdata/fuzz/FuzzOracle"} {
		files, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(filepath.Join(dir, f.Name()))
			if err != nil {
				b.Fatal(err)
			}
			for _, line := range strings.Split(string(src), "\n") {
				if s, ok := strings.CutPrefix(line, "string("); ok {
					if v, err := strconv.Unquote(strings.TrimSuffix(s, ")")); err == nil {
						out = append(out, v)
					}
				}
			}
		}
	}
	if len(out) < 50 {
		b.Fatalf("only %d corpus entries", len(out))
	}
	return out
}

// BenchmarkParseCorpus: the parser, and the parser with the compiler
// (rules.FromExpr and the model at the defaults), over the fuzz corpora,
// in oddsmith's dialect and in each other tool's; goal: the constructs of
// issue 26 make none of them slower than before (compare with the
// commit before them, on one machine, in one run).
//
//	go test ./benchmarks -run '^$' -bench ParseCorpus
func BenchmarkParseCorpus(b *testing.B) {
	corpus := fuzzCorpus(b)
	for _, d := range notation.Dialects() {
		dialect, _ := notation.DialectNamed(d)
		b.Run("parse/dialect="+d, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range corpus {
					_, _ = notation.ParseIn(s, dialect)
				}
			}
		})
	}
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				r, err := rules.FromExpr(s)
				if err != nil {
					continue
				}
				m := r.Mechanic()
				if c, err := m.Configure(nil); err == nil {
					_, _ = m.Model(c)
				}
			}
		}
	})
}
