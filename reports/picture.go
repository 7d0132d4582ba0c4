package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PictureFormats are the formats a chart is drawn in: a PNG image, or an
// SVG or PDF drawing (vector: it scales without blurring, for a design
// document).
var PictureFormats = []string{"png", "svg", "pdf"}

// TextFormats are the file extensions that name a table, not a chart
// (-o FILE.csv is the CSV, and so on).
var TextFormats = map[string]string{".csv": "csv", ".json": "json", ".txt": "table", ".md": "table"}

// otherPictures are picture extensions oddsmith does not draw: refused
// rather than taken for a table or a directory.
var otherPictures = []string{".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".eps", ".ps", ".html", ".htm", ".ico", ".heic", ".avif"}

// PictureFormat is the picture format a file name's extension asks for
// ("chart.PNG" → "png"), or "" for another extension.
func PictureFormat(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	if f := strings.TrimPrefix(ext, "."); slices.Contains(PictureFormats, f) {
		return f
	}
	return ""
}

// UndrawableExt reports a file name whose extension names a picture format
// oddsmith does not draw (.jpg, .gif, …), with the extension.
func UndrawableExt(path string) (string, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	return ext, slices.Contains(otherPictures, ext)
}

// pictureWriter carries the format a chart writer draws in down to the
// canvas (newCanvas): every chart writer of this package (WritePMF,
// WriteLines, WriteSweepPlot, WriteChart …) takes an io.Writer, and one
// wrapped by DrawPicture is drawn in its format instead of PNG.
type pictureWriter struct {
	io.Writer
	format string
}

// DrawPicture draws a chart in format (png, svg or pdf) in memory: draw is
// any chart writer of this package, given a writer that selects the
// format. Nothing is returned but a complete picture: an error, or a
// picture whose first bytes are not those of the format (a writer that
// does not draw through this package's canvas), gives no bytes.
func DrawPicture(format string, draw func(io.Writer) error) ([]byte, error) {
	if !slices.Contains(PictureFormats, format) {
		return nil, fmt.Errorf("unknown picture format %q (want %s)", format, strings.Join(PictureFormats, ", "))
	}
	var buf bytes.Buffer
	if err := draw(&pictureWriter{Writer: &buf, format: format}); err != nil {
		return nil, err
	}
	if !IsPicture(buf.Bytes(), format) {
		return nil, fmt.Errorf("the chart was not drawn as %s", strings.ToUpper(format))
	}
	return buf.Bytes(), nil
}

// IsPicture reports whether data starts as a picture of the format does: a
// PNG signature, an SVG document, a PDF header.
func IsPicture(data []byte, format string) bool {
	switch format {
	case "png":
		return bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n"))
	case "svg":
		head := data[:min(len(data), 512)]
		return bytes.HasPrefix(bytes.TrimSpace(head), []byte("<")) && bytes.Contains(head, []byte("<svg"))
	case "pdf":
		return bytes.HasPrefix(data, []byte("%PDF-"))
	}
	return false
}

// pictureCanvas is a canvas to draw a figure on and the function that
// writes it out when it is drawn, with the chart's spec (ChartSpec): in a
// PNG's iTXt chunk, an SVG's <metadata>; a PDF does not carry it.
type pictureCanvas struct {
	vg.CanvasSizer
	finish func(spec *ChartSpec) error
}

// newCanvas makes the canvas of a figure width × height on a white
// background, in the format w asks for (PNG unless w comes from
// DrawPicture).
func newCanvas(w io.Writer, width, height vg.Length) pictureCanvas {
	format := "png"
	if pw, ok := w.(*pictureWriter); ok {
		format = pw.format
	}
	switch format {
	case "svg":
		c := vgsvg.NewWith(vgsvg.UseWH(width, height))
		whiteBackground(c, width, height)
		return pictureCanvas{c, func(spec *ChartSpec) error {
			var buf bytes.Buffer
			if _, err := c.WriteTo(&buf); err != nil {
				return err
			}
			svg, err := svgWithSpec(svgFonts.Replace(buf.String()), spec)
			if err != nil {
				return err
			}
			_, err = io.WriteString(w, svg)
			return err
		}}
	case "pdf":
		c := vgpdf.New(width, height)
		whiteBackground(c, width, height)
		return pictureCanvas{pdfText{c}, func(*ChartSpec) error { _, err := c.WriteTo(w); return err }}
	}
	img := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseBackgroundColor(color.White))
	return pictureCanvas{img, func(spec *ChartSpec) error { return writeCanvas(img, w, spec) }}
}

// svgFonts names fallbacks for the fonts of an SVG's texts: the layout
// was measured in Liberation Serif, which a reader may not have; Times New
// Roman has its metrics.
var svgFonts = strings.NewReplacer("font-family:Liberation Serif;", "font-family:'Liberation Serif','Times New Roman',Times,serif;")

// svgSpecID is the id of the <metadata> element that holds an SVG's
// ChartSpec (as JSON).
const svgSpecID = SpecKeyword

// svgWithSpec puts a chart's spec in an SVG, in a <metadata> element first
// in the drawing.
func svgWithSpec(svg string, spec *ChartSpec) (string, error) {
	if spec == nil {
		return svg, nil
	}
	js, err := json.Marshal(spec)
	if err != nil {
		return "", err
	}
	open := strings.Index(svg, "<svg")
	end := strings.Index(svg[max(open, 0):], ">")
	if open < 0 || end < 0 {
		return "", fmt.Errorf("not an SVG")
	}
	at := open + end + 1
	meta := fmt.Sprintf("\n<metadata id=%q>%s</metadata>", svgSpecID, html.EscapeString(string(js)))
	return svg[:at] + meta + svg[at:], nil
}

// ReadPictureSpec reads the ChartSpec a PNG or an SVG of this package
// carries (ReadChartSpec for a PNG).
func ReadPictureSpec(b []byte) (*ChartSpec, error) {
	if IsPicture(b, "png") {
		return ReadChartSpec(b)
	}
	if !IsPicture(b, "svg") {
		return nil, fmt.Errorf("not a PNG or an SVG")
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("the SVG carries no chart spec: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "metadata" {
			var text string
			if err := dec.DecodeElement(&text, &se); err != nil {
				return nil, err
			}
			var spec ChartSpec
			if err := json.Unmarshal([]byte(text), &spec); err != nil {
				return nil, err
			}
			return &spec, nil
		}
	}
}

// whiteBackground fills a vector canvas white, as the PNG's background is
// (a transparent drawing reads badly on a dark page).
func whiteBackground(c vg.Canvas, width, height vg.Length) {
	c.SetColor(color.White)
	c.Fill(vg.Rectangle{Max: vg.Point{X: width, Y: height}}.Path())
}

// pdfText writes a PDF's texts in the code page its fonts are embedded
// with (Windows-1252): gofpdf takes the bytes of a string as they are, so
// UTF-8 would print as "Ã¢â‚¬â€œ". Characters the code page lacks are
// spelled in ASCII (≥ as >=, − as -).
type pdfText struct{ *vgpdf.Canvas }

func (c pdfText) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, cp1252(s))
}

// cp1252High are the characters of Windows-1252 at 0x80…0x9F (where
// Latin-1 has control codes).
var cp1252High = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89,
	'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95,
	'–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// asciiFor spells characters Windows-1252 lacks, as the charts use them.
var asciiFor = map[rune]string{
	'≥': ">=", '≤': "<=", '−': "-", '≠': "!=", '≈': "~", 'Δ': "D", 'δ': "d", '→': "->", '←': "<-",
	'∞': "inf", '√': "sqrt", '⅓': "1/3", '⅔': "2/3", '⅛': "1/8", '✓': "v", '✗': "x", '′': "'", '″': "\"",
}

// cp1252 encodes s in Windows-1252, spelling what it lacks in ASCII (or
// "?").
func cp1252(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x80 || (r >= 0xA0 && r <= 0xFF):
			b = append(b, byte(r))
		case cp1252High[r] != 0:
			b = append(b, cp1252High[r])
		case asciiFor[r] != "":
			b = append(b, asciiFor[r]...)
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}
