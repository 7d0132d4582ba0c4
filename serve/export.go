package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// ExportPlots are the charts POST /api/export?format=png draws, each by the
// reports function a report bundle draws it with: the primary (or the
// named) variable's PMF, its "at least" curve P(X ≥ x) (also called cdf:
// the cumulative chart the reports draw), its tail on a log scale, the
// first (or the named) band as a stacked bar, a process's survival S(t).
var ExportPlots = []string{"pmf", "cdf", "atleast", "tail", "bands", "survival"}

// export answers POST /api/export?format=csv|json|png[&plot=…][&var=NAME]:
// the file, as 'oddsmith exact|sim --format csv|json -o FILE' writes it,
// or a chart drawn by the same reports code as the command line's.
func (s *Server) export(w *response, r *http.Request) {
	q := r.URL.Query()
	format, plot, name := q.Get("format"), q.Get("plot"), q.Get("var")
	if !slices.Contains([]string{"csv", "json", "png"}, format) {
		fail(w, r.Context(), mechanics.Invalid("unknown export format %q (want csv, json or png)", format))
		return
	}
	if plot == "" {
		plot = "pmf"
	}
	if format == "png" && !slices.Contains(ExportPlots, plot) {
		fail(w, r.Context(), mechanics.Invalid("unknown plot %q (want %s)", plot, strings.Join(ExportPlots, ", ")))
		return
	}
	_, t, eng, eargs, ok := s.runnable(w, r)
	if !ok {
		return
	}
	stem := strings.ReplaceAll(t.m.ID, ".", "_")
	file := stem + "." + format
	if format == "png" {
		file = stem + "_" + plot + ".png"
	}
	words := append(append([]string{string(eng.Kind)}, t.args...), eargs...)
	cmd := command(words...)
	var body bytes.Buffer
	err := s.compute(r, cmd, func(ctx context.Context) error {
		res, err := eng.Run(ctx, t.m, t.c)
		if err != nil {
			return err
		}
		if format != "png" {
			return reports.Write(&body, res, format)
		}
		return drawExport(&body, res, plot, name, stem)
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", map[string]string{"csv": "text/csv; charset=utf-8", "json": "application/json", "png": "image/png"}[format])
	h.Set("Content-Disposition", `attachment; filename="`+file+`"`)
	h.Set("Content-Length", strconv.Itoa(body.Len()))
	if format != "png" {
		h.Set("X-Oddsmith-Command", command(append(words, "--format", format, "-o", file)...))
	}
	w.WriteHeader(http.StatusOK)
	w.Write(body.Bytes())
}

// drawExport draws one chart of a result.
func drawExport(w io.Writer, r *engine.Result, plot, name, stem string) error {
	switch plot {
	case "bands":
		if len(r.Bands) == 0 {
			return mechanics.Invalid("%s has no band to draw (its outputs: %s)", r.Mechanic, outputNames(r))
		}
		band := r.Bands[0].Name
		if name != "" {
			band = name
			if !slices.ContainsFunc(r.Bands, func(b engine.BandResult) bool { return b.Name == name }) {
				return mechanics.Invalid("%s has no band %q (its outputs: %s)", r.Mechanic, name, outputNames(r))
			}
		}
		return reports.WriteBands(w, fmt.Sprintf("%s — %s", r.Mechanic, band), "", []string{stem}, []*engine.Result{r}, band)
	case "survival":
		if r.Process == nil {
			return mechanics.Invalid("%s is not a process: it has no survival curve", r.Mechanic)
		}
		return reports.WriteSurvival(w, r)
	}
	var v *engine.VarResult
	for i := range r.Vars {
		if (name == "" || r.Vars[i].Name == name) && len(r.Vars[i].P) > 0 {
			v = &r.Vars[i]
			break
		}
	}
	if v == nil {
		if name != "" {
			return mechanics.Invalid("%s has no distribution %q to draw (its outputs: %s)", r.Mechanic, name, outputNames(r))
		}
		return mechanics.Invalid("%s has no distribution to draw (its outputs: %s); export it as csv or json", r.Mechanic, outputNames(r))
	}
	switch plot {
	case "cdf", "atleast":
		return reports.WriteAtLeast(w, r, v)
	case "tail":
		return reports.WriteTail(w, r, v)
	}
	return reports.WritePMF(w, r, v)
}

// outputNames lists a result's outputs.
func outputNames(r *engine.Result) string {
	var ns []string
	for _, v := range r.Vars {
		ns = append(ns, v.Name)
	}
	for _, e := range r.Events {
		ns = append(ns, "event "+e.Name)
	}
	for _, b := range r.Bands {
		ns = append(ns, "band "+b.Name)
	}
	return strings.Join(ns, ", ")
}
