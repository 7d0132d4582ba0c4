package pngtest

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckPicture checks a chart drawn in format: a PNG as Check does; an SVG
// that parses as XML with an <svg> root, a size and texts; a PDF with its
// header, one page and its end-of-file marker. With ODDSMITH_PLOT_DIR set,
// the chart is saved there too.
func CheckPicture(t testing.TB, name, format string, b []byte) {
	t.Helper()
	switch format {
	case "png":
		Check(t, name, b)
		return
	case "svg":
		root, texts, err := parseSVG(b)
		switch {
		case err != nil:
			t.Errorf("%s: not an SVG: %v", name, err)
		case root.Name.Local != "svg":
			t.Errorf("%s: the root element is <%s>, not <svg>", name, root.Name.Local)
		case attr(root, "width") == "" || attr(root, "height") == "" || attr(root, "viewBox") == "":
			t.Errorf("%s: the <svg> has no size (%v)", name, root.Attr)
		case len(texts) < 3:
			t.Errorf("%s: %d texts: no title, axes or caption", name, len(texts))
		}
	case "pdf":
		switch {
		case !bytes.HasPrefix(b, []byte("%PDF-1.")):
			t.Errorf("%s: no PDF header (%q)", name, b[:min(len(b), 16)])
		case !bytes.Contains(b[max(0, len(b)-64):], []byte("%%EOF")):
			t.Errorf("%s: the PDF has no end-of-file marker", name)
		case !bytes.Contains(b, []byte("/Type /Page")) || !bytes.Contains(b, []byte("/Count 1")):
			t.Errorf("%s: not a one-page PDF", name)
		}
	default:
		t.Fatalf("%s: unknown format %q", name, format)
	}
	if dir := os.Getenv("ODDSMITH_PLOT_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, name+"."+format), b, 0o644)
	}
}

// SVGTexts are the texts of an SVG's <text> elements, in order (nil if it
// does not parse).
func SVGTexts(b []byte) []string {
	_, texts, err := parseSVG(b)
	if err != nil {
		return nil
	}
	return texts
}

// parseSVG reads an SVG document: its root element and its texts.
func parseSVG(b []byte) (xml.StartElement, []string, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var root xml.StartElement
	var texts []string
	depth, inText := 0, false
	var cur strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if depth != 0 || root.Name.Local == "" {
				return root, nil, io.ErrUnexpectedEOF
			}
			return root, texts, nil
		}
		if err != nil {
			return root, nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = tk.Copy()
			}
			depth++
			if tk.Name.Local == "text" {
				inText = true
				cur.Reset()
			}
		case xml.EndElement:
			depth--
			if tk.Name.Local == "text" {
				inText = false
				texts = append(texts, cur.String())
			}
		case xml.CharData:
			if inText {
				cur.Write(tk)
			}
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
