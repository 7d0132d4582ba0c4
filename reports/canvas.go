package reports

import (
	"io"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

func vgimgCanvas() *vgimg.Canvas {
	return vgimg.New(plotW, plotH+vg.Inch)
}

func writeCanvas(c *vgimg.Canvas, w io.Writer) error {
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}
