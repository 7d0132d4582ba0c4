package reports

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, text, line string }{
		{"plain text, any script: café ∞ ≥ 日本", "plain text, any script: café ∞ ≥ 日本", "plain text, any script: café ∞ ≥ 日本"},
		{"a\nb\tc", "a\nb\tc", `a\nb\tc`},
		{"nul\x00 esc\x1b[2J bell\a cr\r del\x7f", `nul\x00 esc\x1b[2J bell\x07 cr\r del\x7f`, `nul\x00 esc\x1b[2J bell\x07 cr\r del\x7f`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`, `\x1b]0;title\x07`},
		{"c1 \u009b2J \u0085", `c1 \u009b2J \u0085`, `c1 \u009b2J \u0085`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200f", `bidi \u202eevil\u202c \u2066x\u2069 \u200f`, `bidi \u202eevil\u202c \u2066x\u2069 \u200f`},
		{"sep \u2028 \u2029", `sep \u2028 \u2029`, `sep \u2028 \u2029`},
		{"bad \xff\xfe utf-8 \xe2\x80", `bad \xff\xfe utf-8 \xe2\x80`, `bad \xff\xfe utf-8 \xe2\x80`},
		{"a real \ufffd stays", "a real \ufffd stays", "a real \ufffd stays"},
		{"", "", ""},
	} {
		if got := Printable(c.in); got != c.text {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := PrintableLine(c.in); got != c.line {
			t.Errorf("PrintableLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
	// Whatever goes in, nothing a terminal acts on comes out, and the
	// result is unchanged by a second pass.
	var all strings.Builder
	for b := range 256 {
		all.WriteByte(byte(b))
	}
	for r := rune(0x80); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	out := PrintableLine(all.String())
	for _, r := range out {
		if r < 0x20 || r == 0x7f || unsafeRune(r) || r == utf8.RuneError {
			t.Fatalf("%U left in the output", r)
		}
	}
	if again := PrintableLine(out); again != out {
		t.Error("a second pass changed the text")
	}
}
