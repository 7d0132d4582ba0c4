package notation

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// tree prints the shape of a tree as an S-expression, by type switch, so
// that the tests read the nodes the compiler will see rather than the
// printer's text. Numbers print as exact rationals (1/2).
func tree(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "_"
	case *Num:
		return e.Value.String()
	case *Name:
		return e.Name
	case *Dice:
		var parts []string
		parts = append(parts, "dice", tree(e.Count))
		switch e.Kind {
		case Sided:
			parts = append(parts, tree(e.Sides))
		case Percent:
			parts = append(parts, "%")
		case Fudge:
			parts = append(parts, "F")
		case Custom:
			var fs []string
			for _, f := range e.Faces {
				fs = append(fs, tree(f))
			}
			parts = append(parts, "{"+strings.Join(fs, " ")+"}")
		}
		for _, m := range e.Mods {
			parts = append(parts, treeMod(m))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *Neg:
		return "(neg " + tree(e.X) + ")"
	case *Binary:
		return fmt.Sprintf("(%s %s %s)", e.Op, tree(e.X), tree(e.Y))
	case *Compare:
		return fmt.Sprintf("(%s %s %s)", e.Op, tree(e.X), tree(e.Y))
	case *Filter:
		return fmt.Sprintf("(filter %s %s %s)", tree(e.Pool), e.Op, tree(e.Value))
	case *Logic:
		return fmt.Sprintf("(%s %s %s)", e.Op, tree(e.X), tree(e.Y))
	case *Not:
		return "(not " + tree(e.X) + ")"
	case *If:
		return fmt.Sprintf("(if %s %s %s)", tree(e.Cond), tree(e.Then), tree(e.Else))
	case *Call:
		parts := []string{"call", e.Name}
		for _, a := range e.Args {
			parts = append(parts, tree(a))
		}
		return "(" + strings.Join(parts, " ") + ")"
	case *Lookup:
		parts := []string{"lookup", tree(e.X)}
		for _, c := range e.Cases {
			lo, hi := "", ""
			if c.Lo != nil {
				lo = fmt.Sprint(*c.Lo)
			}
			if c.Hi != nil {
				hi = fmt.Sprint(*c.Hi)
			}
			parts = append(parts, fmt.Sprintf("[%s..%s %s]", lo, hi, tree(c.Value)))
		}
		if e.Default != nil {
			parts = append(parts, "[_ "+tree(e.Default)+"]")
		}
		return "(" + strings.Join(parts, " ") + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

func treeCond(c *Cond) string {
	if c == nil {
		return ""
	}
	return " " + c.Op.String() + tree(c.Value)
}

func treeMod(m Mod) string {
	switch m := m.(type) {
	case *Keep:
		return fmt.Sprintf("(keep %s %s)", m.End, tree(m.Count))
	case *Drop:
		return fmt.Sprintf("(drop %s %s)", m.End, tree(m.Count))
	case *Explode:
		name := "explode"
		if m.Compound {
			name = "compound"
		}
		if m.Each {
			name = "explode-each"
		}
		if m.Penetrate {
			name += "-penetrate"
		}
		if m.Total != nil {
			return fmt.Sprintf("(%s%s limit %s in all %s)", name, treeCond(m.Cond), tree(m.Limit), tree(m.Total))
		}
		return fmt.Sprintf("(%s%s limit %s)", name, treeCond(m.Cond), tree(m.Limit))
	case *Reroll:
		name := "reroll"
		if m.Once {
			name = "reroll-once"
		}
		return "(" + name + treeCond(m.Cond) + ")"
	case *CountSuccess:
		return "(success" + treeCond(m.Cond) + ")"
	case *CountFail:
		return "(fail" + treeCond(m.Cond) + ")"
	case *FaceBound:
		name := "min"
		if m.Max {
			name = "max"
		}
		return "(" + name + " " + tree(m.Value) + ")"
	case *Unique:
		name := "unique"
		if m.Once {
			name = "unique-once"
		}
		return "(" + name + treeCond(m.Cond) + ")"
	case *Matches:
		return fmt.Sprintf("(matches %s%s)", tree(m.Size), treeCond(m.Cond))
	}
	return fmt.Sprintf("<%T>", m)
}

// clearPos zeroes every Pos in a tree, so that trees can be compared
// "modulo positions" with reflect.DeepEqual, every field included.
func clearPos(e Expr) Expr {
	if e != nil {
		clearValue(reflect.ValueOf(e))
	}
	return e
}

var posType = reflect.TypeFor[Pos]()

func clearValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearValue(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == posType {
			if v.CanSet() {
				v.Set(reflect.Zero(posType))
			}
			return
		}
		for i := range v.NumField() {
			clearValue(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			clearValue(v.Index(i))
		}
	}
}

// roundTrip checks Parse → String → Parse → String on src, which must
// parse: the second tree equals the first, positions aside, and the text is
// stable. It returns the canonical text.
func roundTrip(t testing.TB, src string) string {
	t.Helper()
	e, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	s1 := String(e)
	e2, err := Parse(s1)
	if err != nil {
		t.Fatalf("%q prints as %q, which does not parse: %v", src, s1, err)
	}
	if s2 := String(e2); s2 != s1 {
		t.Fatalf("%q: printing is not stable: %q then %q", src, s1, s2)
	}
	if !reflect.DeepEqual(clearPos(e), clearPos(e2)) {
		t.Fatalf("%q prints as %q, which parses to another tree:\n%s\n%s", src, s1, tree(e), tree(e2))
	}
	return s1
}
