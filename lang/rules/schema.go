package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/oddsmith/oddsmith/internal/suggest"
)

// A rule file's every key is checked against the shape of a rule before
// any of it is read: an unknown key anywhere (dotted, in a sub-table, in
// an inline table) and a value of the wrong type are refused with their
// line, never dropped.

// kinds are the types of TOML a key may take, as a set.
type kinds uint8

const (
	kString kinds = 1 << iota
	kInt
	kFloat
	kBool
	kArray
	kTable
	kDate
)

// shape is what a key of a rule takes: its types, and for a table its
// keys (fields, or names: any name, each of the same shape), for an array
// its items.
type shape struct {
	kinds  kinds
	fields map[string]*shape
	order  []string // the fields in the order the docs list them
	names  *shape
	items  *shape
	words  string // what it must be, in the docs' words
}

func table(words string, fields ...any) *shape {
	s := &shape{kinds: kTable, fields: map[string]*shape{}, words: words}
	for i := 0; i < len(fields); i += 2 {
		name := fields[i].(string)
		s.fields[name] = fields[i+1].(*shape)
		s.order = append(s.order, name)
	}
	return s
}

var ruleShape = func() *shape {
	str := &shape{kinds: kString, words: "a string in quotes"}
	num := &shape{kinds: kInt | kFloat, words: "a number"}
	boolean := &shape{kinds: kBool, words: "true or false"}
	def := table(`an expression in quotes or { expr = "…", doc = "…" }`, "expr", str, "doc", str)
	def.kinds |= kString
	band := table(`{ expr = "…", labels = ["…", …] }`, "expr", str, "doc", str,
		"labels", &shape{kinds: kArray, items: str, words: `an array of strings ["…", …]`})
	band.kinds |= kString // the reader asks for its labels
	param := table("a number or { default = …, min = …, max = … }", "default", num, "min", num, "max", num, "doc", str, "real", boolean)
	param.kinds |= kInt | kFloat
	bound := &shape{kinds: kInt | kString, words: "a whole number or an expression of the parameters in quotes"}
	defs := func(what string, d *shape) *shape {
		return &shape{kinds: kTable, names: d, words: "a table of " + what + " ([rule.…])"}
	}
	stateVar := table("{ start = …, min = …, max = … }", "start", bound, "min", bound, "max", bound)
	process := table("a table ([rule.process])",
		"state", &shape{kinds: kTable, names: stateVar, words: "{ name = { start = …, min = …, max = … }, … }"},
		"until", str, "horizon", bound, "unit", str)
	return table("a table ([[rule]])",
		"id", str, "summary", str, "doc", str, "dialect", str,
		"params", defs("parameters", param),
		"let", defs("bindings", def),
		"next", defs("next states", def),
		"vars", defs("variables", def),
		"events", defs("events", def),
		"bands", defs("bands", band),
		"process", process)
}()

// kindOf is the type of a decoded TOML value.
func kindOf(v any) kinds {
	switch v.(type) {
	case string:
		return kString
	case int64:
		return kInt
	case float64:
		return kFloat
	case bool:
		return kBool
	case []any, []map[string]any:
		return kArray
	case map[string]any:
		return kTable
	case time.Time:
		return kDate
	}
	return 0
}

// kindWords names a value's type in an error.
func kindWords(v any) string {
	switch kindOf(v) {
	case kString:
		return "a string"
	case kInt:
		return "a whole number"
	case kFloat:
		return "a float"
	case kBool:
		return "a boolean"
	case kArray:
		return "an array"
	case kTable:
		return "a table"
	case kDate:
		return "a date"
	}
	return "a value of another kind"
}

// shapeError is a key that does not fit the shape of a rule: the path of
// the key within the rule and the problem.
type shapeError struct {
	path []any
	msg  string
}

// check walks v (the value at path) against s; the first key that does
// not fit, in the order of the names, is the error.
func (s *shape) check(path []any, v any) *shapeError {
	k := kindOf(v)
	if s.kinds&k == 0 {
		return &shapeError{path, fmt.Sprintf("%s must be %s, not %s", dotted(path), s.words, kindWords(v))}
	}
	switch v := v.(type) {
	case map[string]any:
		for _, name := range slices.Sorted(maps.Keys(v)) {
			sub := s.names
			if s.fields != nil {
				sub = s.fields[name]
			}
			at := append(slices.Clip(path), name)
			if sub == nil {
				return &shapeError{at, unknownField(path, name, s.order)}
			}
			if err := sub.check(at, v[name]); err != nil {
				return err
			}
		}
	case []any:
		if s.items != nil {
			for i, x := range v {
				if err := s.items.check(append(slices.Clip(path), i), x); err != nil {
					err.msg = fmt.Sprintf("%s: item %d must be %s, not %s", dotted(path), i+1, s.items.words, kindWords(x))
					return err
				}
			}
		}
	}
	return nil
}

// unknownField words an unknown key of a table: the closest key it takes,
// or the keys it does.
func unknownField(path []any, name string, keys []string) string {
	msg := fmt.Sprintf("unknown key %q", name)
	if len(path) > 0 {
		msg = dotted(path) + ": " + msg
	}
	if s := suggest.Closest(name, keys); s != "" {
		return msg + fmt.Sprintf(" — did you mean %q?", s)
	}
	return msg + " (want " + strings.Join(keys, ", ") + ")"
}

// dotted writes a path within a rule: params.bonus.default, bands.b.labels.
func dotted(path []any) string {
	var parts []string
	for _, p := range path {
		switch p := p.(type) {
		case string:
			parts = append(parts, p)
		case int:
			parts[len(parts)-1] += fmt.Sprintf("[%d]", p)
		}
	}
	return strings.Join(parts, ".")
}
