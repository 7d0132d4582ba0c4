package pngtest

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Check decodes a plot and requires at least 400×300 pixels and more than a
// handful of colours. With ODDSMITH_PLOT_DIR set, the plot is also saved
// there for a person to look at.
func Check(t testing.TB, name string, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", name, err)
	}
	bd := img.Bounds()
	if bd.Dx() < 400 || bd.Dy() < 300 {
		t.Errorf("%s: %v is too small", name, bd)
	}
	colours := map[[4]uint32]bool{}
	for y := bd.Min.Y; y < bd.Max.Y; y += 3 {
		for x := bd.Min.X; x < bd.Max.X; x += 3 {
			r, g, b, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colours) < 5 {
		t.Errorf("%s: looks blank (%d colours)", name, len(colours))
	}
	if dir := os.Getenv("ODDSMITH_PLOT_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644)
	}
}
