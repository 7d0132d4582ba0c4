package study

import (
	"reflect"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/oddsmith/oddsmith/internal/suggest"
)

// PlanKeys maps each table of a plan — its dotted path: "" for the top
// level, "analysis", "overlay.series", "chart.panel.series", "compare.a" —
// to the keys the parser accepts there, in the order the structs declare
// them. It is read from the plan structs' toml tags, so it is what the
// parser accepts: docs/plans.md is tested against it, and an unknown key
// is answered with the closest of them. The keys of [[rule]] tables are
// package rules' (docs/language.md); the keys of set, vary, diff and xset
// are a mechanic's parameters and options.
var PlanKeys = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	var walk func(path string, t reflect.Type)
	walk = func(path string, t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if !f.IsExported() || name == "-" || name == "" {
				continue
			}
			out[path] = append(out[path], name)
			if path == "" && name == "rule" {
				continue // package rules' tables
			}
			if sub := tableType(f.Type); sub != nil {
				walk(strings.TrimPrefix(path+"."+name, "."), sub)
			}
		}
	}
	walk("", reflect.TypeFor[Plan]())
	return out
})

// tableType is the struct a field's value is a table of (through
// pointers and arrays), nil for a value that is not one or decodes itself.
func tableType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	unmarshaler := reflect.TypeFor[toml.Unmarshaler]()
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return nil
	}
	return t
}

// unknownKey words the error of an unknown key (its path in the plan,
// as toml.Key gives it): the key, and the closest one its table accepts,
// or else the keys it does.
func unknownKey(key toml.Key) string {
	msg := `unknown key "` + key.String() + `"`
	path := strings.Join(key[:len(key)-1], ".")
	keys, ok := PlanKeys()[path]
	if !ok {
		return msg + " (docs/plans.md lists every plan key)"
	}
	if s := suggest.Closest(key[len(key)-1], keys); s != "" {
		return msg + ` — did you mean "` + s + `"? (docs/plans.md lists every plan key)`
	}
	where := "the top level"
	if path != "" {
		where = path
	}
	return msg + ": " + where + " takes " + strings.Join(keys, ", ") + " (docs/plans.md)"
}
