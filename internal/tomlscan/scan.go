package tomlscan

import (
	"fmt"
	"strconv"
	"strings"
)

// The limits on a TOML document (a rule file or a plan). A document past
// any of them is refused before it is parsed.
const (
	// MaxDepth bounds how deep a value lies: the parts of its table's
	// header, of its dotted key and of the inline tables around it, plus
	// one for each array it is in ([chart.panel] x.y = [[1]] lies at 6).
	MaxDepth = 32
	// MaxEntries bounds the keys, table headers and array items of a
	// document, all together.
	MaxEntries = 10_000
	// MaxKeyBytes bounds one part of a key (between the dots), in bytes.
	MaxKeyBytes = 256
	// MaxWeight bounds the sum over every key and header of the square of
	// its depth: what a parser's work grows with. Ten thousand keys three
	// deep weigh 90 000; a key 32 deep weighs 1 024.
	MaxWeight = 200_000
)

// LimitError is a document past a limit: the line where it was crossed
// and what the limit is.
type LimitError struct {
	Line int
	Msg  string
}

func (e *LimitError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Doc is the shape of a document: the line of every key, table and table
// of an array.
type Doc struct {
	nodes []node
	kids  map[kid]int32
	// Entries and Weight are what the document counted against
	// MaxEntries and MaxWeight; Depth is its deepest value.
	Entries, Weight, Depth int
}

// node is a key, a table or an item of an array.
type node struct {
	line  int32
	items int32 // the items (for an array of tables, its tables) made so far
	aot   bool  // an array of tables ([[name]]): a header goes into its last table
}

// kid names a node under its parent: "." and a key, or "#" and an index.
type kid struct {
	parent int32
	name   string
}

// frame is an open inline table or array.
type frame struct {
	array bool
	node  int32 // the table, or the array
	depth int   // of the keys of the table (before their own parts), or of the array's items
	want  bool  // an array that waits for an item
}

type scanner struct {
	src   []byte
	i     int
	line  int
	doc   *Doc
	stack []frame
	table int32 // the table of the current header
	base  int   // its depth
}

// Scan reads the shape of src and checks it against the limits (a
// *LimitError past one). It reads every byte once and parses nothing: a
// document that is not TOML gets a shape of some sort, and the parser
// says what is wrong with it.
func Scan(src []byte) (*Doc, error) {
	s := &scanner{src: src, line: 1, doc: &Doc{nodes: []node{{line: 1}}, kids: map[kid]int32{}}}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.doc, nil
}

func (s *scanner) fail(format string, a ...any) error {
	return &LimitError{Line: s.line, Msg: fmt.Sprintf(format, a...)}
}

func (s *scanner) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

func (s *scanner) tooDeep() error {
	return s.fail("the TOML nests more than %d levels deep (table headers, dotted keys, inline tables and arrays together): flatten it", MaxDepth)
}

// count adds an entry at a depth (and, when weigh, its weight).
func (s *scanner) count(depth int, weigh bool) error {
	d := s.doc
	d.Entries++
	if d.Entries > MaxEntries {
		return s.fail("more than %d keys, tables and array items: a rule file or plan may hold at most %d", MaxEntries, MaxEntries)
	}
	d.Depth = max(d.Depth, depth)
	if depth > MaxDepth {
		return s.tooDeep()
	}
	if weigh {
		d.Weight += depth * depth
		if d.Weight > MaxWeight {
			return s.fail("the keys nest too deep for their number (each key weighs the square of its depth, at most %d in all): flatten the tables", MaxWeight)
		}
	}
	return nil
}

// child is the node name under parent, made at the current line if new.
func (s *scanner) child(parent int32, name string) int32 {
	k := kid{parent, name}
	if n, ok := s.doc.kids[k]; ok {
		return n
	}
	n := int32(len(s.doc.nodes))
	s.doc.nodes = append(s.doc.nodes, node{line: int32(s.line)})
	s.doc.kids[k] = n
	return n
}

// item makes the next item of an array (or the next table of an array of
// tables).
func (s *scanner) item(array int32) int32 {
	nd := &s.doc.nodes[array]
	i := nd.items
	nd.items++
	return s.child(array, "#"+strconv.Itoa(int(i)))
}

func (s *scanner) run() error {
	for s.i < len(s.src) {
		at := s.i
		var err error
		if len(s.stack) == 0 {
			err = s.statement()
		} else {
			err = s.value()
		}
		if err != nil {
			return err
		}
		if s.i == at {
			// A byte no rule above reads (not TOML where it stands).
			s.junk()
		}
	}
	return nil
}

// space skips blanks (and, when nl, newlines and comments).
func (s *scanner) space(nl bool) {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case nl && c == '\n':
			s.line++
			s.i++
		case nl && c == '#':
			s.comment()
		default:
			return
		}
	}
}

// comment skips to the end of the line (not past it).
func (s *scanner) comment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.i++
	}
}

// statement reads one line's start at the top level: a header, a key
// and its value, a comment or nothing.
func (s *scanner) statement() error {
	s.space(true)
	if s.i >= len(s.src) {
		return nil
	}
	if s.src[s.i] == '[' {
		return s.header()
	}
	return s.keyValue(s.table, s.base)
}

// header reads [a.b] or [[a.b]].
func (s *scanner) header() error {
	s.i++
	aot := s.peek(0) == '['
	if aot {
		s.i++
	}
	parts, err := s.key(false)
	if err != nil {
		return err
	}
	if err := s.count(len(parts), true); err != nil {
		return err
	}
	n := int32(0)
	for j, p := range parts {
		n = s.child(n, "."+p)
		nd := &s.doc.nodes[n]
		if j == len(parts)-1 && aot {
			nd.aot = true
			n = s.item(n)
		} else if nd.aot && nd.items > 0 {
			n = s.child(n, "#"+strconv.Itoa(int(nd.items-1)))
		}
	}
	s.table, s.base = n, len(parts)
	// The rest of the line: "]", "]]", a comment.
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		if s.src[s.i] == '#' {
			s.comment()
			break
		}
		s.i++
	}
	return nil
}

// keyValue reads key = value under the table t, whose keys lie at depth.
func (s *scanner) keyValue(t int32, depth int) error {
	parts, err := s.key(true)
	if err != nil {
		return err
	}
	depth += len(parts)
	if err := s.count(depth, true); err != nil {
		return err
	}
	n := t
	for _, p := range parts {
		n = s.child(n, "."+p)
	}
	if s.peek(0) == '=' {
		s.i++
	}
	s.space(false)
	return s.startValue(n, depth)
}

// startValue reads the start of the value of node n at depth: an inline
// table or an array opens a frame; a string or a scalar is read whole.
func (s *scanner) startValue(n int32, depth int) error {
	if s.i >= len(s.src) {
		return nil
	}
	switch s.src[s.i] {
	case '{':
		s.i++
		s.stack = append(s.stack, frame{node: n, depth: depth})
		return s.inlineKey()
	case '[':
		s.i++
		if depth+1 > MaxDepth {
			s.doc.Depth = max(s.doc.Depth, depth+1)
			return s.tooDeep()
		}
		s.stack = append(s.stack, frame{array: true, node: n, depth: depth + 1, want: true})
		return nil
	case '"', '\'':
		s.str(true)
	default:
		s.scalar()
	}
	return nil
}

// inlineKey reads what follows "{" or "," in an inline table: a key and
// its value, or the end of the table.
func (s *scanner) inlineKey() error {
	s.space(true)
	if s.i >= len(s.src) {
		return nil
	}
	if s.src[s.i] == '}' {
		s.i++
		s.stack = s.stack[:len(s.stack)-1]
		return nil
	}
	f := s.stack[len(s.stack)-1]
	return s.keyValue(f.node, f.depth)
}

// value reads on inside the innermost open frame.
func (s *scanner) value() error {
	s.space(true)
	if s.i >= len(s.src) {
		return nil
	}
	top := &s.stack[len(s.stack)-1]
	switch c := s.src[s.i]; {
	case c == ']' || c == '}':
		s.i++
		s.stack = s.stack[:len(s.stack)-1]
		return nil
	case c == ',':
		s.i++
		if top.array {
			top.want = true
			return nil
		}
		return s.inlineKey()
	case top.array:
		if !top.want {
			// Not TOML (two items without a comma): read on.
			s.junk()
			return nil
		}
		top.want = false
		depth, arr := top.depth, top.node
		if err := s.count(depth, false); err != nil {
			return err
		}
		if c == '{' || c == '[' {
			return s.startValue(s.item(arr), depth)
		}
		s.doc.nodes[arr].items++
		return s.startValue(0, depth)
	default:
		// After a value in an inline table, before its "," or "}".
		s.junk()
		return nil
	}
}

// junk skips one byte that is not TOML where it stands (a string whole).
func (s *scanner) junk() {
	switch s.src[s.i] {
	case '"', '\'':
		s.str(true)
	case '\n':
		s.line++
		s.i++
	default:
		s.i++
	}
}

// scalar skips a number, a date, a boolean… (what is not one is the
// parser's to refuse).
func (s *scanner) scalar() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\r', '\n', ',', ']', '}', '#':
			return
		}
		s.i++
	}
}

// str skips a string at s.i (multi-line when allowed and it opens with
// three quotes) and returns its raw text between the quotes.
func (s *scanner) str(multi bool) string {
	q := s.src[s.i]
	if multi && s.peek(1) == q && s.peek(2) == q {
		s.i += 3
		from := s.i
		for s.i < len(s.src) {
			c := s.src[s.i]
			switch {
			case c == '\n':
				s.line++
			case c == '\\' && q == '"':
				if s.peek(1) == '\n' {
					s.line++
				}
				s.i += 2
				continue
			case c == q && s.peek(1) == q && s.peek(2) == q:
				to := s.i
				s.i += 3
				// Up to two more quotes belong to the string.
				for k := 0; k < 2 && s.peek(0) == q; k++ {
					s.i++
					to++
				}
				return string(s.src[from:to])
			}
			s.i++
		}
		return string(s.src[from:])
	}
	s.i++
	from := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			return string(s.src[from:s.i]) // not TOML: the parser says so
		case c == '\\' && q == '"':
			if s.peek(1) == '\n' {
				s.i++
				continue
			}
			s.i += 2
			continue
		case c == q:
			s.i++
			return string(s.src[from : s.i-1])
		}
		s.i++
	}
	return string(s.src[from:])
}

// key reads a key (a.b."c d") up to its "=" (or a header's "]") and
// returns its parts, each checked against MaxKeyBytes.
func (s *scanner) key(inline bool) ([]string, error) {
	var parts []string
	for {
		s.space(inline)
		if s.i >= len(s.src) {
			return parts, nil
		}
		from := s.i
		var part string
		switch c := s.src[s.i]; {
		case c == '"':
			raw := s.str(false)
			part = raw
			if strings.ContainsRune(raw, '\\') {
				if u, err := strconv.Unquote(`"` + raw + `"`); err == nil {
					part = u
				}
			}
		case c == '\'':
			part = s.str(false)
		default:
			for s.i < len(s.src) && bare(s.src[s.i]) {
				s.i++
			}
			part = string(s.src[from:s.i])
		}
		if s.i-from > MaxKeyBytes+2 || len(part) > MaxKeyBytes {
			return nil, s.fail("a key of %d bytes: keys may be at most %d bytes between their dots", len(part), MaxKeyBytes)
		}
		parts = append(parts, part)
		if len(parts) > MaxDepth {
			// Refused by count; no need to read on.
			return parts, nil
		}
		s.space(inline)
		if s.peek(0) != '.' {
			if s.i == from && s.i < len(s.src) && s.src[s.i] != '=' && s.src[s.i] != ']' && s.src[s.i] != '\n' {
				s.i++ // not TOML: move on
			}
			return parts, nil
		}
		s.i++
	}
}

// bare reports a byte of a bare key (and any byte of a UTF-8 sequence,
// which a parser may refuse).
func bare(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

// Line is the line where the key at path is first written — its header,
// its own line, the "{" of a table inside an array — or, when it is not
// written, where its nearest ancestor is; 0 when none is. The parts of
// path are keys (string) and array indexes (int).
func (d *Doc) Line(path ...any) int {
	n, line := int32(0), 0
	for _, p := range path {
		var name string
		switch p := p.(type) {
		case string:
			name = "." + p
		case int:
			name = "#" + strconv.Itoa(p)
		default:
			return line
		}
		k, ok := d.kids[kid{n, name}]
		if !ok {
			return line
		}
		n, line = k, int(d.nodes[k].line)
	}
	return line
}

// KeyLine is Line for a key as a TOML parser's metadata gives it, without
// array indexes: its first place in any table of an array (or, when no
// table holds all of it, where the longest part of it is written).
func (d *Doc) KeyLine(key []string) int {
	line, deepest := 0, -1
	var walk func(n int32, at int) bool
	walk = func(n int32, at int) bool {
		if at > deepest {
			line, deepest = int(d.nodes[n].line), at
		}
		if at == len(key) {
			line = int(d.nodes[n].line)
			return true
		}
		if k, ok := d.kids[kid{n, "." + key[at]}]; ok && walk(k, at+1) {
			return true
		}
		for i := range d.nodes[n].items {
			if k, ok := d.kids[kid{n, "#" + strconv.Itoa(int(i))}]; ok && walk(k, at) {
				return true
			}
		}
		return false
	}
	walk(0, 0)
	if deepest <= 0 {
		return 0
	}
	return line
}

// Tables is the number of tables written as [[key]] headers for the
// array of tables at key, read as a header reads it (through the last
// table of each array of tables on the way); 0 when key is not one (an
// array written inline, a table, nothing).
func (d *Doc) Tables(key ...string) int {
	n := int32(0)
	for j, k := range key {
		c, ok := d.kids[kid{n, "." + k}]
		if !ok {
			return 0
		}
		n = c
		if nd := d.nodes[n]; j < len(key)-1 && nd.aot && nd.items > 0 {
			n = d.kids[kid{n, "#" + strconv.Itoa(int(nd.items-1))}]
		}
	}
	if !d.nodes[n].aot {
		return 0
	}
	return int(d.nodes[n].items)
}
