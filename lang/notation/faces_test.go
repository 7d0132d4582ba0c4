package notation

import (
	"strings"
	"testing"
)

// TestFaceRuns: d{a..b} lists the faces a…b; runs are checked.
func TestFaceRuns(t *testing.T) {
	t.Parallel()
	x, err := Parse("d{1..3, 5, -2..-1}")
	if err != nil {
		t.Fatal(err)
	}
	if got := String(x); got != "d{1, 2, 3, 5, -2, -1}" {
		t.Errorf("printed %q", got)
	}
	for src, want := range map[string]string{
		"d{3..1}":               "a run of faces goes up",
		"d{1..200000}":          "at most 100000 faces",
		"d{1..2.5}":             "needs whole numbers",
		"d{1..}":                "expected the last face of a run",
		"d{1..60000, 1..60000}": "at most 100000 faces",
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v; want %q", src, err, want)
			}
		})
	}
}
