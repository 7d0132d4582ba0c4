package reports

import (
	"bytes"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	ptext "gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// A figure is a plot and what belongs outside its data area, laid out on
// one canvas from the top down: the plot (title, axes, data), a colour bar,
// a legend and a caption across the whole width. Nothing of it is drawn over
// the data, and every text is wrapped to the width it is drawn in.
type figure struct {
	plot *plot.Plot
	// legend entries, in reading order; beside puts them in one column to
	// the right of the plot (for stacked bars, whose order they repeat),
	// otherwise they go in rows under the plot.
	legend []legendEntry
	beside bool
	// colorBar, when set, is drawn under the plot.
	colorBar *plot.Plot
	caption  string
	// padLeft is room left of the plot for what reaches past its left
	// edge (the first of slanted tick labels).
	padLeft vg.Length
	// spec records what the plot draws (its legend is added by write).
	spec PanelSpec
}

type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
	// mass, for a category of bars, is its largest share.
	mass *float64
}

// legendSpecs records legend entries.
func legendSpecs(entries []legendEntry) []LegendSpec {
	var out []LegendSpec
	for _, e := range entries {
		out = append(out, LegendSpec{Name: e.name, Mass: e.mass})
	}
	return out
}

// Layout sizes.
const (
	figMargin   = 10 * vg.Millimeter / 3 // ≈ 3.3 mm around the texts
	thumbW      = vg.Length(34)
	colorBarH   = 0.75 * vg.Inch
	legendFontS = vg.Length(11)
	captionFont = vg.Length(10)
)

func textStyle(size vg.Length) ptext.Style {
	return ptext.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, size),
		Handler: plot.DefaultTextHandler,
	}
}

// wrapText breaks each line of s at spaces so that no line is wider than
// width in the style. Runs of two or more spaces separate items (such as
// "label: id" pairs), which are kept whole where they fit on a line.
func wrapText(s string, sty ptext.Style, width vg.Length) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		var items []string
		for _, it := range strings.Split(line, "  ") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		cur := ""
		flush := func() {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
		}
		for _, it := range items {
			sep := "   "
			if cur == "" {
				sep = ""
			}
			if sty.Width(cur+sep+it) <= width {
				cur += sep + it
				continue
			}
			flush()
			if sty.Width(it) <= width {
				cur = it
				continue
			}
			// An item too long for a line breaks between words.
			for _, w := range strings.Fields(it) {
				if cur != "" && sty.Width(cur+" "+w) > width {
					flush()
				}
				if cur != "" {
					cur += " "
				}
				cur += w
			}
		}
		flush()
	}
	return out
}

// lineHeight is the distance between the baselines of two text lines.
func lineHeight(sty ptext.Style) vg.Length {
	e := sty.FontExtents()
	return (e.Ascent + e.Descent) * 1.15
}

// legendEntryH is the height of one legend entry in the style.
func legendEntryH(sty ptext.Style) vg.Length { return lineHeight(sty) * 1.1 }

// centredLines draws lines of text one under the other, centred on x, the
// first with its top at y.
func centredLines(dc draw.Canvas, sty ptext.Style, lines []string, x, y vg.Length) {
	sty.XAlign = draw.XCenter
	for _, l := range lines {
		y -= lineHeight(sty)
		dc.FillText(sty, vg.Point{X: x, Y: y + sty.FontExtents().Descent}, l)
	}
}

// legendLayout places the legend entries: the width of one column and the
// number of columns that fit across width.
func (f *figure) legendLayout(sty ptext.Style, width vg.Length) (colW vg.Length, cols int) {
	for _, e := range f.legend {
		colW = max(colW, thumbW+sty.Width(" "+e.name)+vg.Length(14))
	}
	if f.beside {
		return colW, 1
	}
	cols = max(1, min(len(f.legend), int(width/colW)))
	return colW, cols
}

// write draws the figure as a PNG: plotW wide, plotH for the plot and as
// much below it as the legend, colour bar and caption need.
func (f *figure) write(w io.Writer) error {
	legSty := textStyle(legendFontS)
	capSty := textStyle(captionFont)
	if f.beside && vg.Length(len(f.legend))*lineHeight(legSty)*1.1 > plotH*0.8 {
		// Too many entries for a column beside the plot: rows under it.
		f.beside = false
	}
	inner := plotW - 2*figMargin
	caption := wrapText(f.caption, capSty, inner)
	capH := vg.Length(0)
	if len(caption) > 0 {
		capH = lineHeight(capSty)*vg.Length(len(caption)) + figMargin
	}
	colW, cols := f.legendLayout(legSty, inner)
	rows := 0
	if len(f.legend) > 0 && !f.beside {
		rows = (len(f.legend) + cols - 1) / cols
	}
	entryH := legendEntryH(legSty)
	legH := vg.Length(rows) * entryH
	if rows > 0 {
		legH += figMargin
	}
	cbH := vg.Length(0)
	if f.colorBar != nil {
		cbH = colorBarH
	}
	height := plotH + cbH + legH + capH
	img := newCanvas(w, plotW, height)
	dc := draw.New(img)

	// The plot, at the top; a legend beside it takes its column off the
	// plot's width.
	pc := dc
	pc.Min.Y = height - plotH
	if f.beside && len(f.legend) > 0 {
		pc.Max.X -= colW + figMargin
	}
	pc = draw.Crop(pc, figMargin/2+f.padLeft, -figMargin/2, 0, -figMargin/2)
	f.plot.Draw(pc)
	if f.beside && len(f.legend) > 0 {
		// One column, centred on the data area's height, right of the plot.
		da := f.plot.DataCanvas(pc)
		n := vg.Length(len(f.legend))
		top := (da.Min.Y+da.Max.Y)/2 + n*entryH/2
		x := pc.Max.X + figMargin/2
		for i, e := range f.legend {
			drawEntry(dc, legSty, e, x, top-vg.Length(i+1)*entryH, entryH)
		}
	}
	y := height - plotH
	if f.colorBar != nil {
		cb := dc
		cb.Max.Y, cb.Min.Y = y, y-cbH
		// Line the bar up with the plot's data area.
		da := f.plot.DataCanvas(pc)
		cb.Min.X, cb.Max.X = da.Min.X, da.Max.X
		f.colorBar.Draw(cb)
		y -= cbH
	}
	if rows > 0 {
		// Rows of entries, centred across the width.
		x0 := (plotW - vg.Length(cols)*colW) / 2
		y -= figMargin / 2
		for i, e := range f.legend {
			r, c := i/cols, i%cols
			drawEntry(dc, legSty, e, x0+vg.Length(c)*colW, y-vg.Length(r+1)*entryH, entryH)
		}
		y -= legH - figMargin/2
	}
	capSty.XAlign = draw.XCenter
	for i, line := range caption {
		base := y - figMargin/2 - vg.Length(i+1)*lineHeight(capSty) + capSty.FontExtents().Descent
		dc.FillText(capSty, vg.Point{X: plotW / 2, Y: base}, line)
	}
	f.spec.Legend = legendSpecs(f.legend)
	if f.spec.Title == "" {
		f.spec.Title = f.plot.Title.Text
	}
	if f.plot.Y.Scale != nil {
		if _, ok := f.plot.Y.Scale.(plot.LogScale); ok {
			f.spec.LogY = true
		}
	}
	f.spec.YMin = f.plot.Y.Min
	return img.finish(&ChartSpec{Title: f.plot.Title.Text, Caption: f.caption, Panels: []PanelSpec{f.spec}})
}

// drawEntry draws one legend entry with its bottom-left corner at (x, y):
// the thumbnails in a box thumbW wide, then the name.
func drawEntry(dc draw.Canvas, sty ptext.Style, e legendEntry, x, y, h vg.Length) {
	pad := h * 0.15
	icon := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: x, Y: y + pad}, Max: vg.Point{X: x + thumbW, Y: y + h - pad}}}
	for _, t := range e.thumbs {
		t.Thumbnail(&icon)
	}
	ext := sty.FontExtents()
	base := y + (h-(ext.Ascent+ext.Descent))/2 + ext.Descent
	dc.FillText(sty, vg.Point{X: x + thumbW + sty.Width(" "), Y: base}, e.name)
}

// writeCanvas writes the canvas as a PNG carrying the chart's spec.
func writeCanvas(c *vgimg.Canvas, w io.Writer, spec *ChartSpec) error {
	// Fast deflate: plots are flat colour, so the files stay small, and
	// encoding was 40% of a bundle's time at the default level.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	var buf bytes.Buffer
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return err
	}
	b, err := WithChartSpec(buf.Bytes(), spec)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// swatch is a legend thumbnail: a filled box.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	w := c.Max.X - c.Min.X
	h := c.Max.Y - c.Min.Y
	side := vg.Length(math.Min(float64(w), float64(h)))
	r := vg.Rectangle{Min: vg.Point{X: c.Min.X + (w-side)/2, Y: c.Min.Y}, Max: vg.Point{X: c.Min.X + (w+side)/2, Y: c.Min.Y + side}}
	c.SetColor(s.c)
	c.Fill(r.Path())
}
