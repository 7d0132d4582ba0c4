package notation

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, fails only with a one-line *SyntaxError
// at a place inside the text, and everything it accepts round-trips:
// Parse → String → Parse gives the same tree (positions aside) and the same
// text. The seed corpus is every example and bad input of the tests, plus
// the files in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, c := range examples {
		f.Add(c.src)
	}
	for _, c := range badInputs {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): %T is not a *SyntaxError", src, err)
			}
			if e != nil {
				t.Fatalf("Parse(%q): a tree with an error", src)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Parse(%q): the message %q is not one line", src, err)
			}
			p := se.Pos
			if p.Line < 1 || p.Col < 1 || p.Off < 0 || p.Off > len(src) || p.Col > p.Off+1 ||
				p.Line != strings.Count(src[:p.Off], "\n")+1 {
				t.Fatalf("Parse(%q): error at %+v", src, p)
			}
			return
		}
		roundTrip(t, src)
		Names(e)
		Walk(e, func(x Expr) bool {
			if p := x.Pos(); p.Line < 1 || p.Col < 1 || p.Off >= len(src) {
				t.Fatalf("Parse(%q): %T at %+v", src, x, p)
			}
			return true
		})
	})
}

// FuzzParseIn: in every dialect ParseIn never panics, fails only with a
// one-line *SyntaxError inside the text, and what it accepts prints as
// oddsmith text that Parse reads back to the same text.
func FuzzParseIn(f *testing.F) {
	for _, c := range examples {
		f.Add(c.src, uint8(Roll20))
	}
	for _, s := range []string{"3d6>3f1", "5d10x>=8cs>=8", "4d6kh3dl1", "/roll [[2d6[fire]]] words", "1d20rr<3", "6d6cf<=3", "3d6sd", "6d6m3"} {
		for d := range uint8(len(dialectNames)) {
			f.Add(s, d)
		}
	}
	f.Fuzz(func(t *testing.T, src string, d uint8) {
		dialect := Dialect(d % uint8(len(dialectNames)))
		e, err := ParseIn(src, dialect)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseIn(%q, %s): %v", src, dialect, err)
			}
			if p := se.Pos; p.Line < 1 || p.Col < 1 || p.Off < 0 || p.Off > len(src) {
				t.Fatalf("ParseIn(%q, %s): error at %+v", src, dialect, p)
			}
			return
		}
		text := String(e)
		back, err := Parse(text)
		if err != nil || String(back) != text {
			t.Fatalf("ParseIn(%q, %s) prints %q, which reads back as %v (%v)", src, dialect, text, back, err)
		}
	})
}
