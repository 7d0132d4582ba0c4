package reports

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oddsmith/oddsmith/engine"
)

// No line of a table ends in spaces, and every column of a block starts at
// the same place on every line of it.
func TestTableNoTrailingSpaces(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			r := sample(kind)
			r.Process = &engine.ProcessResult{TimeUnit: "round", Horizon: 3, AbsorbingStates: []string{"dead", "stable"},
				Absorbed: []float64{0.25, 0.5}, Undecided: 0.25, Survival: []float64{1, 0.5, 0.25}}
			var buf bytes.Buffer
			if err := WriteTable(&buf, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for i, l := range strings.Split(out, "\n") {
				if strings.TrimRight(l, " \t") != l {
					t.Errorf("line %d ends in spaces: %q", i+1, l)
				}
			}
			// The distribution table: P(≤ x) and P(≥ x) in aligned columns.
			_, dist, _ := strings.Cut(out, "x = mos")
			lines := strings.Split(strings.TrimSpace("x = mos"+dist), "\n")
			col := func(l, field string) int { return utf8.RuneCountInString(l[:strings.Index(l, field)]) }
			head := lines[0]
			if !strings.Contains(head, "P(≤ x)") || !strings.Contains(head, "P(≥ x)") {
				t.Errorf("distribution header %q", head)
			}
			if c := col(lines[1], "0.2500  0.2500  1"); c != col(head, "P(= x)") {
				t.Errorf("columns not aligned:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// The CSV says what its columns are, in comment lines before the table.
func TestCSVColumnsExplained(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Warnings = []string{"two\nlines"}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"# columns: kind,name,x,probability,cdf,ccdf,count,ci_lo,ci_hi,exact\n",
		"# column cdf: pmf rows: P(X ≤ x)\n",
		"# column ccdf: pmf rows: P(X > x)",
		"# warning: two lines\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("CSV lacks %q:\n%s", want, out)
		}
	}
	cr := csv.NewReader(strings.NewReader(out))
	cr.Comment = '#'
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// ccdf is P(X > x): 0 at the largest value, 1 − cdf everywhere.
	var last []string
	for _, row := range rows[1:] {
		if row[0] == "pmf" {
			last = row
		}
	}
	if last[2] != "2" || last[4] != "1" || last[5] != "0" {
		t.Errorf("last pmf row %v: want x=2 cdf=1 ccdf=0", last)
	}
}
