package notation

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// The scanner works on demand: the parser keeps an offset into the source
// and asks for the token there (peek, next), or, inside a dice term, where
// spaces are not allowed and the words are not ordinary tokens, reads the
// bytes directly (at, off).

type tokKind uint8

const (
	tEOF   tokKind = iota
	tNum           // digits, with an optional fraction
	tIdent         // a word that is not a die
	tDie           // "d" beginning a die (d6, d%, dF, d{, d()
	tOp            // punctuation
	tBad           // a character that begins no token
)

type token struct {
	kind     tokKind
	text     string
	off, end int
}

func (t token) is(text string) bool {
	return (t.kind == tOp || t.kind == tIdent) && t.text == text
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var keywords = []string{"and", "or", "not", "if", "then", "else"}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if s == k {
			return true
		}
	}
	return false
}

// IsName reports whether s is written as a name in the notation: an
// identifier that is not a keyword and does not begin like a die (d6, dF).
// A compiler can use it to check the names a rule file binds.
func IsName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isWord(s[i]) {
			return false
		}
	}
	return !isKeyword(s) && !dieStart(s, 0)
}

// dieStart reports a "d" at off that begins a die where a term begins.
func dieStart(src string, off int) bool {
	if off+1 >= len(src) || src[off] != 'd' {
		return false
	}
	c := src[off+1]
	return isDigit(c) || c == '%' || c == '{' || c == '(' || c == 'F'
}

// twoCharOps are the punctuation tokens of two characters.
var twoCharOps = []string{"//", "==", "!=", "<=", ">=", ".."}

const oneCharOps = "+-*/%<>=!(){},:#.^"

// scanToken reads the token that begins at off (no spaces skipped).
func scanToken(src string, off int) token {
	if off >= len(src) {
		return token{tEOF, "", off, off}
	}
	c := src[off]
	switch {
	case isDigit(c):
		end := scanNumber(src, off)
		return token{tNum, src[off:end], off, end}
	case dieStart(src, off):
		return token{tDie, "d", off, off + 1}
	case isLetter(c):
		end := off + 1
		for end < len(src) && isWord(src[end]) {
			end++
		}
		return token{tIdent, src[off:end], off, end}
	}
	for _, op := range twoCharOps {
		if strings.HasPrefix(src[off:], op) {
			return token{tOp, op, off, off + 2}
		}
	}
	if strings.IndexByte(oneCharOps, c) >= 0 {
		return token{tOp, src[off : off+1], off, off + 1}
	}
	_, size := utf8.DecodeRuneInString(src[off:])
	return token{tBad, src[off : off+size], off, off + size}
}

// scanNumber returns the end of the number at off: digits, then "." and
// digits if a digit follows the point (1..3 is 1, "..", 3).
func scanNumber(src string, off int) int {
	end := off
	for end < len(src) && isDigit(src[end]) {
		end++
	}
	if end+1 < len(src) && src[end] == '.' && isDigit(src[end+1]) {
		end += 2
		for end < len(src) && isDigit(src[end]) {
			end++
		}
	}
	return end
}

// maxFracDigits bounds the digits after a decimal point (trailing zeros
// aside), so that the denominator fits int64.
const maxFracDigits = 18

// numberValue is the exact value of a number's text, or a message saying
// why it has none.
func numberValue(text string) (expr.Rat, string) {
	ip, fp, _ := strings.Cut(text, ".")
	fp = strings.TrimRight(fp, "0")
	if len(fp) > maxFracDigits {
		return expr.Rat{}, fmt.Sprintf("the number %s has more than %d digits after the point", clip(text), maxFracDigits)
	}
	n, err := strconv.ParseInt(ip+fp, 10, 64)
	if err != nil {
		return expr.Rat{}, fmt.Sprintf("the number %s is too large (the limit is %d)", clip(text), int64(math.MaxInt64))
	}
	d := int64(1)
	for range len(fp) {
		d *= 10
	}
	return expr.Frac(n, d), ""
}

// clip shortens long text quoted in messages.
func clip(s string) string {
	const n = 24
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// describe is how a message names a token: "x", end of input.
func describe(src string, t token) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tDie, tIdent:
		end := t.off
		for end < len(src) && isWord(src[end]) {
			end++
		}
		if end == t.off {
			end = t.end
		}
		return strconv.Quote(clip(src[t.off:end]))
	}
	return strconv.Quote(clip(t.text))
}

// describeAt names what is at off inside a dice term, where a space
// matters.
func describeAt(src string, off int) string {
	if off < len(src) && isSpace(src[off]) {
		return "a space"
	}
	return describe(src, scanToken(src, off))
}

// positions maps byte offsets to lines and columns.
type positions struct {
	src        string
	lineStarts []int // offsets where lines begin
	ascii      int   // offset of the first non-ASCII byte, or len(src)
}

func newPositions(src string) positions {
	p := positions{src: src, lineStarts: []int{0}, ascii: len(src)}
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			p.lineStarts = append(p.lineStarts, i+1)
		case src[i] >= utf8.RuneSelf && p.ascii == len(src):
			p.ascii = i
		}
	}
	return p
}

// at is the line and column of the byte at off, and how many bytes
// finding them read: the line is found by a binary search (counted as
// one), and the column by subtraction, unless non-ASCII text comes before
// off, when the runes from the line's start are counted.
func (p positions) at(off int) (Pos, int) {
	off = min(max(off, 0), len(p.src))
	line := sort.SearchInts(p.lineStarts, off+1) - 1
	start := p.lineStarts[line]
	col, read := off-start+1, 1
	if off > p.ascii {
		col = utf8.RuneCountInString(p.src[start:off]) + 1
		read += off - start
	}
	return Pos{Line: line + 1, Col: col, Off: off}, read
}
