package study

import (
	"encoding"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// A plan's every key is checked against the plan structs (their toml
// tags, as PlanKeys reads them) before the plan is decoded into them: an
// unknown key anywhere — dotted, in a sub-table, inside set or vary — and
// a value of the wrong type are refused with their line and in the docs'
// words, never dropped or left to the TOML decoder's words (Go's type
// names).

// planShapeError is a key of a plan that does not fit: its path (keys and
// array indexes) and what is wrong.
type planShapeError struct {
	path []any
	msg  string
}

// checkShape walks a plan decoded as plain TOML values against the Plan
// struct; the first key that does not fit, in the order of the names
// within each table, is the error.
func checkShape(m map[string]any) *planShapeError {
	return tomlShape(nil, m, reflect.TypeFor[Plan]())
}

var (
	unmarshalerType     = reflect.TypeFor[toml.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// shapeOf checks the value v at path against the type t of its field.
func tomlShape(path []any, v any, t reflect.Type) *planShapeError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return nil // read (and refused) where it is used
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		// It reads (and refuses) what it takes itself: here, with the line.
		if err := reflect.New(t).Interface().(toml.Unmarshaler).UnmarshalTOML(v); err != nil {
			return &planShapeError{path, err.Error()}
		}
		return nil
	}
	bad := func(want string) *planShapeError {
		return &planShapeError{path, fmt.Sprintf("%s must be %s, not %s", keyPath(path), want, valueWords(v))}
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		if _, ok := v.(string); !ok {
			return bad("a string in quotes")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := v.(string); !ok {
			return bad("a string in quotes")
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if _, ok := v.(int64); !ok {
			return bad("a whole number")
		}
	case reflect.Float64, reflect.Float32:
		switch v.(type) {
		case int64, float64:
		default:
			return bad("a number")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return bad("true or false")
		}
	case reflect.Slice:
		rule := len(path) == 1 && path[0] == "rule"
		items, ok := arrayItems(v)
		if !ok && rule {
			return bad("an array of tables ([[rule]])")
		}
		if !ok {
			return bad(arrayWords(t))
		}
		if rule {
			// The keys of [[rule]] tables are package rules'.
			for _, x := range items {
				if _, ok := x.(map[string]any); !ok {
					return bad("an array of tables ([[rule]])")
				}
			}
			return nil
		}
		scalar := tableType(t.Elem()) == nil && t.Elem().Kind() != reflect.Slice
		for i, x := range items {
			err := tomlShape(append(slices.Clip(path), i), x, t.Elem())
			if err != nil && scalar {
				err.msg = fmt.Sprintf("%s: item %d %s", keyPath(path), i+1, strings.TrimPrefix(err.msg, keyPath(path)+" "))
			}
			if err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return bad("a table ({ name = value, … })")
		}
		// set, vary, diff, xset: names of parameters and options, each a
		// number, a quoted word or (vary) an array of them, never a table.
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if _, ok := m[k].(map[string]any); ok {
				at := append(slices.Clip(path), k)
				return &planShapeError{at, fmt.Sprintf("%s must be a number or a quoted value, not a table", keyPath(at))}
			}
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return bad("a table")
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if f.IsExported() && name != "" && name != "-" {
				fields[name] = f.Type
			}
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			at := append(slices.Clip(path), k)
			ft, ok := fields[k]
			if !ok {
				return &planShapeError{at, unknownKey(plainKey(at))}
			}
			if err := tomlShape(at, m[k], ft); err != nil {
				return err
			}
		}
	}
	return nil
}

// arrayItems are the items of an array value (an inline array or an
// array of tables).
func arrayItems(v any) ([]any, bool) {
	switch v := v.(type) {
	case []any:
		return v, true
	case []map[string]any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = x
		}
		return out, true
	}
	return nil, false
}

// arrayWords is what an array field takes, in words.
func arrayWords(t reflect.Type) string {
	e := t.Elem()
	for e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	switch e.Kind() {
	case reflect.String:
		return `an array of strings ["…", …]`
	case reflect.Int, reflect.Int64:
		return "an array of whole numbers [1, 2, …]"
	case reflect.Float64:
		return "an array of numbers [1, 2.5, …]"
	case reflect.Struct:
		return "an array of tables"
	}
	return "an array"
}

// plainKey is a path without its array indexes, as TOML metadata writes a
// key (analysis.set.skill).
func plainKey(path []any) toml.Key {
	var k toml.Key
	for _, p := range path {
		if s, ok := p.(string); ok {
			k = append(k, s)
		}
	}
	return k
}

// keyPath writes a path for an error: analysis.trials.
func keyPath(path []any) string { return plainKey(path).String() }

// tomlText writes a value of a plan in an error: a scalar as TOML writes
// it (true, 3, "x"), anything else by its kind (an array, a table, a
// date) — never as Go prints it (map[a:1], []interface {}).
func tomlText(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) > 40 {
			return fmt.Sprintf("%q…", v[:40])
		}
		return fmt.Sprintf("%q", v)
	case int64:
		return fmt.Sprint(v)
	case float64:
		return fmt.Sprint(v)
	case bool:
		return fmt.Sprint(v)
	}
	return valueWords(v)
}

// valueWords names a value of a plan in an error: a scalar as TOML writes
// it (quoted strings are cut short), anything else by its kind — never a
// Go type.
func valueWords(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) > 40 {
			return fmt.Sprintf("a string (%q…)", v[:40])
		}
		return fmt.Sprintf("a string (%q)", v)
	case int64:
		return fmt.Sprintf("a whole number (%d)", v)
	case float64:
		return fmt.Sprintf("a float (%g)", v)
	case bool:
		return fmt.Sprintf("a boolean (%t)", v)
	case time.Time:
		return "a date"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a value of another kind"
}
