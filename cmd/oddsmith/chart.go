package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// Charts from the command line: -o FILE.png|svg|pdf (or --format
// png|svg|pdf) on exact, sim, sweep, compare and solve, and --plot for
// what the chart draws.

// pictureList is "png, svg or pdf".
var pictureList = "png, svg or pdf"

// fileOutput is what -o FILE and --format ask of exact and sim: a table
// (text is its format) or a chart (picture is its format).
type fileOutput struct {
	text, picture string
}

// resolveFileOutput reads -o FILE and --format of exact and sim. The
// extension says the format unless --format does: .png, .svg, .pdf draw a
// chart; .csv, .json and .txt (or .md) write that table; a name without an
// extension the --format (table by default). A text format never goes into
// a picture file, nor a chart into a table's; another extension needs
// --format, and one of a picture format oddsmith does not draw (.jpg) is
// refused.
func resolveFileOutput(output, format string, formatGiven bool) (fileOutput, error) {
	picFormat := slices.Contains(reports.PictureFormats, format)
	if output == "" {
		if picFormat {
			return fileOutput{}, badInput("--format %s draws a chart: give -o FILE.%s (a chart is not written to stdout)", format, format)
		}
		return fileOutput{text: format}, nil
	}
	ext := strings.ToLower(filepath.Ext(output))
	if e, bad := reports.UndrawableExt(output); bad {
		return fileOutput{}, badInput("-o %s: oddsmith draws charts as %s, not %s", output, pictureList, e)
	}
	if pic := reports.PictureFormat(output); pic != "" {
		switch {
		case !formatGiven || format == pic:
			return fileOutput{picture: pic}, nil
		case picFormat:
			return fileOutput{}, badInput("-o %s is %s file but --format is %s: give one of them", output, aFile(pic), format)
		}
		return fileOutput{}, badInput("-o %s is a picture: --format %s writes a table, which never goes into a picture file (name the file .csv, .json or .txt, or leave out --format)", output, format)
	}
	text, known := reports.TextFormats[ext]
	switch {
	case picFormat && known:
		return fileOutput{}, badInput("--format %s draws a chart: -o %s is a table's file (name it .%s)", format, output, format)
	case picFormat:
		return fileOutput{picture: format}, nil
	case formatGiven || ext == "":
		return fileOutput{text: format}, nil
	case known:
		return fileOutput{text: text}, nil
	}
	return fileOutput{}, badInput("-o %s: cannot tell the format from %s: name the file .png, .svg or .pdf (a chart) or .csv, .json or .txt (a table), or give --format", output, ext)
}

// dirOutput is what -o and --format ask of sweep, compare and solve: a
// chart file (chart is its format, the path the file), or a directory
// whose charts are drawn in dirPicture (png unless --format says).
type dirOutput struct {
	chart, dirPicture string
}

// resolveDirOutput reads -o PATH and --format of sweep, compare and solve:
// a path ending in .png, .svg or .pdf is that one chart; one ending in a
// table's extension (.csv, .json, .txt) or in a picture format oddsmith
// does not draw is refused; anything else is the directory the command
// writes as before. --format png|svg|pdf draws the chart (or the
// directory's charts) in that format and needs -o.
func resolveDirOutput(output, format string) (dirOutput, error) {
	picFormat := slices.Contains(reports.PictureFormats, format)
	if output == "" {
		if picFormat {
			return dirOutput{}, badInput("--format %s draws a chart: give -o FILE.%s (or -o DIR for the CSV and the charts)", format, format)
		}
		return dirOutput{}, nil
	}
	if e, bad := reports.UndrawableExt(output); bad {
		return dirOutput{}, badInput("-o %s: oddsmith draws charts as %s, not %s", output, pictureList, e)
	}
	if pic := reports.PictureFormat(output); pic != "" {
		if picFormat && format != pic {
			return dirOutput{}, badInput("-o %s is %s file but --format is %s: give one of them", output, aFile(pic), format)
		}
		return dirOutput{chart: pic}, nil
	}
	if t, known := reports.TextFormats[strings.ToLower(filepath.Ext(output))]; known {
		return dirOutput{}, badInput("-o %s: -o names a directory (the CSV and the charts) or one chart (.png, .svg or .pdf); for the %s table use --format %s and redirect stdout", output, t, strings.Replace(t, "table", "text", 1))
	}
	pic := "png"
	if picFormat {
		pic = format
	}
	return dirOutput{dirPicture: pic}, nil
}

// writePicture draws a chart in memory in format and writes it to path
// atomically: a chart that fails to draw writes nothing.
func writePicture(path, format string, draw func(io.Writer) error) error {
	data, err := reports.DrawPicture(format, draw)
	if err != nil {
		return err
	}
	return reports.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// pictureBuffer draws a chart in memory in format, for a writer of
// several files (reports.AtomicWriteAll).
func pictureBuffer(format string, draw func(io.Writer) error) (func(io.Writer) error, error) {
	data, err := reports.DrawPicture(format, draw)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { _, err := w.Write(data); return err }, nil
}

// plotFlag adds --plot (what a chart of results draws).
func plotFlag(fs *flagSet) *string {
	return fs.String("plot", "", "what the chart of -o FILE.png|svg|pdf draws: `KIND` = "+strings.Join(reports.ChartKinds, ", ")+
		" (default: a process's survival, else the first variable's pmf, else the first band)")
}

// checkChartKind checks --plot against kinds.
func checkChartKind(kind string, kinds []string) error {
	if kind != "" && !slices.Contains(kinds, kind) {
		return badInput("--plot %q is not one of %s", kind, strings.Join(kinds, ", "))
	}
	return nil
}

// series is one mechanic of exact or sim at its settings, and the label
// its chart and table go by.
type series struct {
	label string
	m     *mechanics.Mechanic
	c     mechanics.Config
}

// resolveSeries is what exact and sim compute: each mechanic id given, then
// each --expr, in order, each at the --set settings it declares. With one
// series every setting must be its own (as ever); with several, a setting
// goes to the series that declare it, and one that none declares is
// refused.
func resolveSeries(fs *flagSet, exprs, sets []string) ([]series, error) {
	for _, e := range exprs {
		if strings.TrimSpace(e) == "" {
			return nil, badInput("--expr is empty: give a dice expression")
		}
	}
	if fs.NArg()+len(exprs) <= 1 {
		src := ""
		if len(exprs) == 1 {
			src = exprs[0]
		}
		m, err := lookupOrExpr(fs, src)
		if err != nil {
			return nil, err
		}
		c, err := m.Configure(sets)
		if err != nil {
			return nil, err
		}
		return []series{{label: cmp.Or(strings.TrimSpace(src), m.ID), m: m, c: c}}, nil
	}
	var ss []series
	for _, id := range fs.Args() {
		m, err := fs.reg.Lookup(id)
		if err != nil {
			return nil, err
		}
		ss = append(ss, series{label: m.ID, m: m})
	}
	for _, e := range exprs {
		r, err := rules.FromExpr(e)
		if err != nil {
			// Say which of the expressions it is.
			if mechanics.IsInput(err) {
				return nil, badInput("--expr %q: %s", e, strings.TrimPrefix(err.Error(), "--expr: "))
			}
			return nil, fmt.Errorf("--expr %q: %w", e, err)
		}
		ss = append(ss, series{label: strings.TrimSpace(e), m: r.Mechanic()})
	}
	if len(ss) > reports.ChartSeriesMax {
		return nil, badInput("at most %d mechanics and expressions at once, got %d", reports.ChartSeriesMax, len(ss))
	}
	used := make([]bool, len(sets))
	for i := range ss {
		s := &ss[i]
		s.c = s.m.DefaultConfig()
		for k, kv := range sets {
			name, _, _ := strings.Cut(kv, "=")
			if !declares(s.m, strings.TrimSpace(name)) {
				continue
			}
			used[k] = true
			if err := s.m.Set(s.c, kv); err != nil {
				return nil, fmt.Errorf("%s: %w", s.label, err)
			}
		}
		if _, err := s.m.Model(s.c); err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
	}
	for k, kv := range sets {
		if !used[k] {
			// Not one series' setting: the first says why (and what it
			// may have meant).
			if err := ss[0].m.Set(ss[0].m.DefaultConfig(), kv); err != nil {
				return nil, fmt.Errorf("no mechanic or expression here takes %s: %w", kv, err)
			}
		}
	}
	return ss, nil
}

// declares reports whether m has a parameter or an option that --set name
// sets (as Mechanic.Set resolves names).
func declares(m *mechanics.Mechanic, name string) bool {
	bare := strings.TrimPrefix(name, m.ID+".")
	for _, p := range m.Params {
		if p.Name == bare {
			return true
		}
	}
	for _, o := range m.Options {
		if name == o.Name || name == "opt."+o.Short() || name == m.ID+".opt."+o.Short() || (o.IsChoice() && name == o.Short()) {
			return true
		}
	}
	return false
}

// resultChart is the chart of results exact and sim draw.
func resultChart(kind, output string, ss []series, rs []*engine.Result) *reports.ResultChart {
	c := &reports.ResultChart{Kind: kind, Output: output}
	for i, s := range ss {
		c.Series = append(c.Series, reports.ResultSeries{Label: s.label, Result: rs[i]})
	}
	return c
}

// aFile is "a PNG", "an SVG", "a PDF".
func aFile(format string) string {
	if format == "svg" {
		return "an SVG"
	}
	return "a " + strings.ToUpper(format)
}
