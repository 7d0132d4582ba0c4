package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
)

// MaxAxisPoints bounds one axis of a grid, and MaxGridPoints a whole grid,
// so that a typo in a range is refused before anything is allocated.
const (
	MaxAxisPoints = 10_000
	MaxGridPoints = 100_000
)

// ParseRange parses "a..b" or "a..b:step" into the list of values. The
// bounds and the step must be finite, the step positive, and the range at
// most MaxAxisPoints long. Errors are bad input.
func ParseRange(s string) ([]float64, error) {
	body, st, hasStep := s, "", false
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		body, st, hasStep = s[:i], s[i+1:], true
	}
	a, b, found := strings.Cut(body, "..")
	if !found || strings.HasPrefix(b, ".") {
		return nil, mechanics.Invalid("range %q is not a..b or a..b:step", s)
	}
	finite := func(what, x string) (float64, error) {
		v, err := mechanics.ParseNumber(strings.TrimSpace(x))
		switch {
		case err != nil:
			return 0, mechanics.Invalid("range %q: %s %q is not a finite number", s, what, x)
		case math.Abs(v) > 1e15 || (v != 0 && math.Abs(v) < 1e-9):
			return 0, mechanics.Invalid("range %q: %s %q is out of range (use values between 1e-9 and 1e15 in size)", s, what, x)
		}
		return v, nil
	}
	lo, err := finite("start", a)
	if err != nil {
		return nil, err
	}
	hi, err := finite("end", b)
	if err != nil {
		return nil, err
	}
	step := 1.0
	if hasStep {
		if step, err = finite("step", st); err != nil {
			return nil, err
		}
		if step <= 0 {
			return nil, mechanics.Invalid("range %q: step must be positive", s)
		}
	}
	if hi < lo {
		return nil, mechanics.Invalid("range %q: end below start", s)
	}
	n := (hi-lo)/step + 1e-9
	if n >= MaxAxisPoints {
		return nil, mechanics.Invalid("range %q has more than %d points", s, MaxAxisPoints)
	}
	out := make([]float64, int(n)+1)
	for i := range out {
		// Decimal steps land on the decimals a person typed (0.1·3 = 0.3).
		v := lo + float64(i)*step
		if r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64); err == nil {
			v = r
		}
		out[i] = v
	}
	return out, nil
}

// Axis is one varied parameter or option of a grid.
type Axis struct {
	Name   string
	Values []float64
	// Labels are the values of an axis of words (an option, a named
	// choice): its Values are then the positions 0, 1, … of the labels.
	Labels []string
}

// Categorical reports an axis of words rather than numbers.
func (a Axis) Categorical() bool { return a.Labels != nil }

// Text is the value at a grid coordinate as the axis's setting takes it:
// the label of a categorical axis, the number otherwise.
func (a Axis) Text(x float64) string {
	if a.Labels != nil {
		if i := int(x); float64(i) == x && i >= 0 && i < len(a.Labels) {
			return a.Labels[i]
		}
	}
	return mechanics.FormatNum(x)
}

// ParseAxis parses "name=a..b[:step]" or a list "name=v1,v2,…" of numbers
// or of words (the values of an option or a named choice).
func ParseAxis(s string) (Axis, error) {
	name, rng, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, mechanics.Invalid("--vary %q is not name=a..b[:step] or name=v1,v2,…", s)
	}
	if strings.Contains(rng, "..") {
		vals, err := ParseRange(rng)
		if err != nil {
			return Axis{}, err
		}
		return Axis{Name: name, Values: vals}, nil
	}
	return parseList(name, rng)
}

// parseList parses the values of a listed axis: all numbers, or else all
// words. A value listed twice is refused, as is an empty one.
func parseList(name, list string) (Axis, error) {
	items := strings.Split(list, ",")
	if len(items) > MaxAxisPoints {
		return Axis{}, mechanics.Invalid("--vary %s lists more than %d values", name, MaxAxisPoints)
	}
	a := Axis{Name: name}
	seen := map[string]bool{}
	numeric := true
	for i, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			return Axis{}, mechanics.Invalid("--vary %s=%s: value %d is empty (list values as %s=a,b,c or give a range a..b)", name, list, i+1, name)
		}
		if seen[it] {
			return Axis{}, mechanics.Invalid("--vary %s=%s lists %q twice", name, list, it)
		}
		seen[it] = true
		items[i] = it
		if _, err := mechanics.ParseNumber(it); err != nil {
			numeric = false
		}
	}
	for i, it := range items {
		if numeric {
			v, _ := mechanics.ParseNumber(it)
			a.Values = append(a.Values, v)
			continue
		}
		a.Labels = append(a.Labels, it)
		a.Values = append(a.Values, float64(i))
	}
	if numeric {
		for i := range a.Values {
			for j := range i {
				if a.Values[i] == a.Values[j] {
					return Axis{}, mechanics.Invalid("--vary %s=%s lists %s twice", name, list, mechanics.FormatNum(a.Values[i]))
				}
			}
		}
	}
	return a, nil
}

// Grid lists the points of one or two axes (x varies fastest). It refuses
// grids over MaxGridPoints before building them.
func Grid(axes []Axis) ([][]float64, error) {
	n := 1
	for _, a := range axes {
		n *= len(a.Values)
		if n > MaxGridPoints {
			return nil, mechanics.Invalid("the grid has more than %d points; narrow a range or raise its step", MaxGridPoints)
		}
	}
	var g [][]float64
	switch len(axes) {
	case 1:
		for _, x := range axes[0].Values {
			g = append(g, []float64{x})
		}
	case 2:
		for _, y := range axes[1].Values {
			for _, x := range axes[0].Values {
				g = append(g, []float64{x, y})
			}
		}
	default:
		return nil, mechanics.Invalid("vary one or two parameters, got %d", len(axes))
	}
	return g, nil
}

// Configs validates every point of a grid against the mechanic before
// anything runs and returns one configuration per point.
func Configs(m *mechanics.Mechanic, base mechanics.Config, axes []Axis, grid [][]float64) ([]mechanics.Config, error) {
	out := make([]mechanics.Config, len(grid))
	for i, pt := range grid {
		c := base.Clone()
		for j, a := range axes {
			if err := m.Set(c, a.Name+"="+a.Text(pt[j])); err != nil {
				return nil, err
			}
		}
		out[i] = c
	}
	return out, nil
}

func names(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, a := range axes {
		out[i] = a.Name
	}
	return out
}

func values(axes []Axis) [][]float64 {
	out := make([][]float64, len(axes))
	for i, a := range axes {
		out[i] = a.Values
	}
	return out
}

// describePoint prints a grid point as "skill=3 tn=5".
func describePoint(axes []Axis, pt []float64) string {
	var parts []string
	for i, a := range axes {
		parts = append(parts, fmt.Sprintf("%s=%s", a.Name, a.Text(pt[i])))
	}
	return strings.Join(parts, " ")
}
