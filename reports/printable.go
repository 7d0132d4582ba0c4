package reports

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text that reaches a terminal — list, describe, the text tables, error
// messages — may come from a rule file or a plan (a summary, a doc, a band
// label, a unit) and so may hold anything TOML strings can: NUL, ESC and
// whole escape sequences (OSC titles, cursor moves, screen clears), C1
// controls, right-to-left overrides that make text read backwards. Every
// such character is written as a visible escape instead.

// Printable returns s with every character a terminal would act on
// instead of showing written as a visible escape: C0 controls but tab and
// newline (ESC as \x1b), DEL, C1 controls (\u009b), the bidirectional
// embeddings, overrides and isolates (\u202e), line and paragraph
// separators, and bytes that are not UTF-8 (\xff). Other text, any
// script, is left as it is.
func Printable(s string) string { return printable(s, false) }

// PrintableLine is Printable for text that must stay on one line (a cell
// of a table, an error message): tab and newline are escaped too (\t,
// \n).
func PrintableLine(s string) string { return printable(s, true) }

func printable(s string, line bool) string {
	if isPrintable(s, line) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && line:
			b.WriteString(`\n`)
		case r == '\t' && line:
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPrintable reports whether s needs no escape (the common case, checked
// without allocating).
func isPrintable(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
			if line {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case c >= 0x80:
			// Decode the rest from here (rare: non-ASCII text).
			for _, r := range s[i:] {
				if r == utf8.RuneError || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || unsafeRune(r) || line && (r == '\n' || r == '\t') {
					return false
				}
			}
			return true
		}
	}
	return true
}

// unsafeRune reports a character beyond ASCII that changes how a terminal
// shows what follows it: a C1 control, a bidirectional control, a line
// or paragraph separator.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 (CSI is 0x9b)
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // Arabic letter mark, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}
