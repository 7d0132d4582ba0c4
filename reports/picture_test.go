package reports

import "testing"

// TestPDFText: a PDF's texts are written in its fonts' code page, so that
// "—" is a dash and not "â€”"; what the code page lacks is spelled in
// ASCII.
func TestPDFText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"3d6 — P(x ≥ 5)":    "3d6 \x97 P(x >= 5)",
		"é · ½ × …":         "\xe9 \xb7 \xbd \xd7 \x85",
		"Δ = B − A, x ≤ 2":  "D = B - A, x <= 2",
		"plain ascii 1e-06": "plain ascii 1e-06",
		"日":                 "?",
	} {
		if got := cp1252(in); got != want {
			t.Errorf("cp1252(%q) = %q; want %q", in, got, want)
		}
	}
}
