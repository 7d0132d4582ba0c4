package reports

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Style is the look a plan asks for one series, over the package's
// choice (Okabe & Ito's colours in order, dashes only past eight series):
// a colour — "#0072B2" or one of Okabe & Ito's names (ColorNames) — and a
// dash, "solid", "dashed" or "dotted". Empty fields leave the package's
// choice. The chart's spec records what was asked (SeriesSpec.Asked), so
// that a check can see that it was drawn.
type Style struct {
	Color string
	Dash  string
}

// ColorNames are the names of Okabe & Ito's colours a Style takes, with
// their values: the palette every chart of the package draws from.
var ColorNames = []struct {
	Name string
	RGB  color.RGBA
}{
	{"blue", okabeIto[0]},
	{"vermillion", okabeIto[1]},
	{"bluish green", okabeIto[2]},
	{"reddish purple", okabeIto[3]},
	{"orange", okabeIto[4]},
	{"sky blue", okabeIto[5]},
	{"black", okabeIto[6]},
	{"yellow", okabeIto[7]},
}

// Dashes are the dash styles a Style takes.
var Dashes = []string{"solid", "dashed", "dotted"}

// dashPatterns draw the dash styles.
var dashPatterns = map[string][]vg.Length{
	"solid":  nil,
	"dashed": {vg.Points(7), vg.Points(4)},
	"dotted": {vg.Points(1.5), vg.Points(2.5)},
}

// normName folds a colour's name: "Sky_Blue", "sky-blue" and "skyblue"
// are "skyblue".
func normName(s string) string {
	return strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.ToLower(strings.TrimSpace(s)))
}

// ParseColor reads a colour as a Style gives it: "#rrggbb" or one of
// ColorNames ("vermilion" is taken too).
func ParseColor(s string) (color.RGBA, error) {
	if h, ok := strings.CutPrefix(strings.TrimSpace(s), "#"); ok {
		if len(h) == 6 {
			if v, err := strconv.ParseUint(h, 16, 32); err == nil {
				return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
			}
		}
		return color.RGBA{}, fmt.Errorf("color %q: give #rrggbb (six hex digits) or a name: %s", s, colorNameList())
	}
	n := normName(s)
	if n == "vermilion" {
		n = "vermillion"
	}
	for _, c := range ColorNames {
		if normName(c.Name) == n {
			return c.RGB, nil
		}
	}
	return color.RGBA{}, fmt.Errorf("color %q is neither #rrggbb nor a name of the palette: %s", s, colorNameList())
}

func colorNameList() string {
	var ns []string
	for _, c := range ColorNames {
		ns = append(ns, c.Name)
	}
	return strings.Join(ns, ", ")
}

// Validate checks a style's colour and dash.
func (s Style) Validate() error {
	if s.Color != "" {
		if _, err := ParseColor(s.Color); err != nil {
			return err
		}
	}
	if _, ok := dashPatterns[s.Dash]; s.Dash != "" && !ok {
		return fmt.Errorf("dash %q: want %s", s.Dash, strings.Join(Dashes, ", "))
	}
	return nil
}

// over lays the style over a look: its colour and dash where asked.
func (s Style) over(l look) look {
	if c, err := ParseColor(s.Color); s.Color != "" && err == nil {
		l.col = c
	}
	if d, ok := dashPatterns[s.Dash]; ok {
		l.dashes = d
	}
	l.asked = s.spec()
	return l
}

// spec records what was asked, for the chart's spec (nil when nothing).
func (s Style) spec() *StyleSpec {
	if s.Color == "" && s.Dash == "" {
		return nil
	}
	out := &StyleSpec{Dash: s.Dash}
	if c, err := ParseColor(s.Color); s.Color != "" && err == nil {
		out.Color = hexColor(c)
	}
	return out
}

// dashName names a dash pattern drawn ("" for a solid line).
func dashName(d []vg.Length) string {
	if d == nil {
		return ""
	}
	for n, p := range dashPatterns {
		if p != nil && len(p) == len(d) && p[0] == d[0] && p[1] == d[1] {
			return n
		}
	}
	return "pattern"
}
