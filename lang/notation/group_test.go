package notation

import "testing"

// TestGroups: grouped rolls parse, print in canonical form and read back
// the same (issue 26).
func TestGroups(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"{4d6, 3d8}kh1":                        "{4d6, 3d8}kh1",
		"{4d6,3d8}k":                           "{4d6, 3d8}kh",
		"{4d6+3d8}k4":                          "{4d6 + 3d8}kh4",
		"{3d20+5, 2d20}cs>=21":                 "{3d20 + 5, 2d20}cs>=21",
		"{4d6+2d8, 3d20+3, 5d10+1}cs>=40cf<10": "{4d6 + 2d8, 3d20 + 3, 5d10 + 1}cs>=40cf<10",
		"{2d6, 2d6, 2d6}d1":                    "{2d6, 2d6, 2d6}dl1",
		"{2d6, d12}dh(a)kl":                    "{2d6, d12}dh(a)kl",
		"{4d6, 3d8}kh1 + 2":                    "{4d6, 3d8}kh1 + 2",
		"({2d6, d12}kh1) >= 7":                 "{2d6, d12}kh1 >= 7",
		"{2d6}":                                "{2d6}",
		"{ d6[fire] , d{1,2}!{2} }cs=2":        "{d6[fire], d{1, 2}!{2}}cs2",
		"-{d6, {d4, d8}kl}kh":                  "-{d6, {d4, d8}kl}kh",
		"{if d6 > 3 then 1 else 2, 3}":         "{if d6 > 3 then 1 else 2, 3}",
		"{3d20 + 5}>21":                        "{3d20 + 5} > 21",
		"max({d6, d6}, 2)":                     "max({d6, d6}, 2)",
	} {
		e, err := Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := String(e); got != want {
			t.Errorf("%s prints %q, want %q", src, got, want)
		}
		back, err := Parse(String(e))
		if err != nil || String(back) != String(e) {
			t.Errorf("%s: %q does not read back (%v)", src, String(e), err)
		}
	}
}

// TestGroupErrors: what a group cannot be is refused in one line naming it.
func TestGroupErrors(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"{}":           `line 1, column 2: a group {…} needs at least one expression ({4d6, 3d8}kh1)`,
		"{4d6 2}":      `line 1, column 6: expected "," or "}" in the group at line 1, column 1, found "2"`,
		"{4d6, 3d8":    `line 1, column 10: expected "," or "}" in the group at line 1, column 1, found end of input`,
		"{4d6}r1":      `line 1, column 6: unknown modifier "r1" after the group {4d6} — a group takes kh, kl, k, dh, dl, d (keep or drop whole sums), cs and cf (count the sums that meet a condition: cs>=21)`,
		"{4d6}!":       `line 1, column 6: unknown modifier "!" after the group {4d6} — a group takes kh, kl, k, dh, dl, d (keep or drop whole sums), cs and cf (count the sums that meet a condition: cs>=21)`,
		"{4d6, d8}cs":  `line 1, column 10: cs after a group needs a condition on the sums, such as cs>=21 (a group has no highest or lowest face)`,
		"{4d6, d8}df1": `line 1, column 10: unknown modifier "df1" after the group {4d6, d8} — a group takes kh, kl, k, dh, dl, d (keep or drop whole sums), cs and cf (count the sums that meet a condition: cs>=21)`,
	} {
		_, err := Parse(src)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", src, err, want)
		}
	}
}
