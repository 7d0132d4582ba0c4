// Package pngtest checks plots structurally: they decode, have a sensible
// size and are not blank. Plots are never byte-compared (fonts and
// rasterisation differ across machines). It is internal test support.
package pngtest
