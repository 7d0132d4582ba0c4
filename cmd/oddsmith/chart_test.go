package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/reports"
)

// chartCommands are a quick run of every command that draws a chart of -o
// FILE.png|svg|pdf.
var chartCommands = map[string][]string{
	"exact":   {"exact", "--expr", "4d6kh3"},
	"sim":     {"sim", "--expr", "3d6", "-n", "2000", "-q"},
	"sweep":   {"sweep", "ag.skill_test", "--vary", "tn=3..6", "-q"},
	"compare": {"compare", "--expr", "2d6", "--", "--expr", "d12", "-q"},
	"solve":   {"solve", "ag.skill_test", "--vary", "tn=1..10", "--target", "event:success=0.6", "-q"},
}

// TestChartFromEveryCommand: exact, sim, sweep, compare and solve each
// draw a chart into -o FILE in the format its extension names (or
// --format, for a file without one): a PNG that decodes, an SVG that
// parses with an <svg> root, a PDF with its header — never a table.
func TestChartFromEveryCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, args := range chartCommands {
		for _, format := range reports.PictureFormats {
			t.Run(name+"_"+format, func(t *testing.T) {
				t.Parallel()
				out := filepath.Join(dir, name+"."+format)
				code, _, errOut := runCLI(t.Context(), append(slices.Clone(args), "-o", out)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				pngtest.CheckPicture(t, "cli_"+name, format, b)
				if format != "pdf" {
					// The chart keeps the drawing rule, as its spec records.
					spec, err := reports.ReadPictureSpec(b)
					if err != nil || len(spec.Panels) == 0 {
						t.Errorf("no chart spec: %v", err)
					}
				}
				if format == "png" {
					chartcheck.Check(t, "cli_"+name, b)
				}
			})
		}
	}
	// --format names the picture of a file without an extension.
	out := filepath.Join(dir, "chart")
	if code, _, errOut := runCLI(t.Context(), "exact", "--expr", "3d6", "--format", "svg", "-o", out); code != 0 {
		t.Fatalf("--format svg: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(out)
	pngtest.CheckPicture(t, "cli_format_svg", "svg", b)
}

// TestChartKindsFromTheCommandLine: --plot draws every kind a result has,
// in exact and sim, and for a sweep's points, a comparison's sides and a
// solve's answer.
func TestChartKindsFromTheCommandLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := [][]string{
		{"exact", "ag.skill_test", "--plot", "pmf"}, {"exact", "ag.skill_test", "--plot", "cdf"},
		{"exact", "ag.skill_test", "--plot", "atleast"}, {"exact", "ag.skill_test", "--plot", "bands"},
		{"exact", "--expr", "d6!", "--plot", "tail"}, {"exact", "ag.suffocation", "--plot", "survival"},
		{"exact", "ag.skill_test", "--var", "total"},
		{"sim", "ag.suffocation", "-n", "2000", "-q"}, {"sim", "ag.skill_test", "-n", "2000", "-q", "--plot", "bands"},
		{"sim", "--expr", "d6!", "--expr", "d8!", "-n", "2000", "-q", "--plot", "tail"},
		{"sweep", "ag.suffocation", "--vary", "body=1..3", "--plot", "survival", "-q"},
		{"sweep", "--expr", "3d6 + b", "--vary", "b=0..2", "--plot", "pmf", "-q"},
		{"compare", "ag.skill_test", "--", "--set", "tn=6", "--plot", "bands", "-q"},
		{"compare", "ag.skill_test", "--", "--set", "tn=6", "--plot", "diff", "-q"},
		{"compare", "ag.skill_test", "--", "--set", "tn=6", "--plot", "atleast", "-q"},
		{"solve", "ag.skill_test", "--vary", "tn=1..10", "--target", "event:success=0.6", "--plot", "pmf", "-q"},
	}
	for i, args := range runs {
		out := filepath.Join(dir, strings.Join(args[:1], "")+"_"+string(rune('a'+i))+".png")
		code, _, errOut := runCLI(t.Context(), append(slices.Clone(args), "-o", out)...)
		if code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, errOut)
			continue
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		pngtest.Check(t, "cli_kind_"+strings.Join(args, "_"), b)
		chartcheck.Check(t, strings.Join(args, " "), b)
	}
}

// TestSeveralSeries: several --expr (and ids) are one chart, each series
// labelled with its rule, and tables one after another without a chart.
func TestSeveralSeries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, cmd := range [][]string{{"exact"}, {"sim", "-n", "2000", "-q"}} {
		out := filepath.Join(dir, cmd[0]+".svg")
		args := append(slices.Clone(cmd), "--expr", "4d6kh3", "--expr", "3d6", "-o", out)
		if code, _, errOut := runCLI(t.Context(), args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		b, _ := os.ReadFile(out)
		texts := pngtest.SVGTexts(b)
		for _, want := range []string{"4d6kh3", "3d6"} {
			if !slices.Contains(texts, want) {
				t.Errorf("%s: no legend entry %q in %q", cmd[0], want, texts)
			}
		}
		if title := texts[0]; !strings.Contains(title, "4d6kh3 vs 3d6") {
			t.Errorf("%s: title %q does not name both", cmd[0], title)
		}
		if cmd[0] == "sim" && !strings.Contains(strings.Join(texts, "\n"), "95% intervals") {
			t.Errorf("sim: the chart does not say its error bars are 95%% intervals: %q", texts)
		}
		spec, err := reports.ReadPictureSpec(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, se := range spec.Panels[0].Series {
			if se.Simulated != (cmd[0] == "sim") || se.Intervals != (cmd[0] == "sim") {
				t.Errorf("%s: series %q simulated %v, with intervals %v", cmd[0], se.Name, se.Simulated, se.Intervals)
			}
		}
	}
	// Without a chart: the tables, one after another.
	code, out, errOut := runCLI(t.Context(), "exact", "--expr", "4d6kh3", "--expr", "3d6")
	if code != 0 || !strings.Contains(out, "rule:         4d6kh3") || !strings.Contains(out, "rule:         3d6") ||
		strings.Index(out, "4d6kh3") > strings.Index(out, "rule:         3d6") {
		t.Errorf("exit %d, stdout %q, stderr %q; want both tables, 4d6kh3 first", code, out, errOut)
	}
	// A setting goes to the series that declare it.
	out2 := filepath.Join(dir, "sets.png")
	if code, _, errOut := runCLI(t.Context(), "exact", "--expr", "d20 + b", "--expr", "3d6", "--set", "b=3", "-o", out2); code != 0 {
		t.Errorf("--set b=3 over d20 + b and 3d6: exit %d: %s", code, errOut)
	}
}

// TestChartRefusals: a picture file never gets a table, a table's file
// never a chart, an extension oddsmith cannot draw or tell is refused —
// each with one line and exit 2, writing nothing.
func TestChartRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		want string
		args []string
		file string
	}{
		{"oddsmith draws charts as png, svg or pdf, not .jpg", []string{"exact", "--expr", "3d6", "-o", at("x.jpg")}, "x.jpg"},
		{"cannot tell the format from .dat", []string{"exact", "--expr", "3d6", "-o", at("x.dat")}, "x.dat"},
		{"never goes into a picture file", []string{"exact", "--expr", "3d6", "-o", at("x.png"), "--format", "csv"}, "x.png"},
		{"never goes into a picture file", []string{"sim", "--expr", "3d6", "-o", at("s.svg"), "--format", "table"}, "s.svg"},
		{"is a PNG file but --format is svg", []string{"exact", "--expr", "3d6", "-o", at("x2.png"), "--format", "svg"}, "x2.png"},
		{"--format pdf draws a chart: -o", []string{"exact", "--expr", "3d6", "-o", at("x.csv"), "--format", "pdf"}, "x.csv"},
		{"--format png draws a chart: give -o", []string{"exact", "--expr", "3d6", "--format", "png"}, ""},
		{"--plot chooses what a chart draws", []string{"exact", "--expr", "3d6", "--plot", "cdf"}, ""},
		{`--plot "violin" is not one of`, []string{"exact", "--expr", "3d6", "--plot", "violin", "-o", at("v.png")}, "v.png"},
		{"is not a process", []string{"exact", "--expr", "3d6", "--plot", "survival", "-o", at("p.png")}, "p.png"},
		{"takes one at a time", []string{"exact", "--expr", "3d6", "--expr", "2d6", "--format", "json"}, ""},
		{"a shard writes counts", []string{"sim", "--expr", "3d6", "--shard", "0/2", "-o", at("sh.png")}, "sh.png"},
		{"not .gif", []string{"sweep", "ag.skill_test", "--vary", "tn=3..5", "-o", at("s.gif")}, "s.gif"},
		{"-o names a directory (the CSV and the charts) or one chart", []string{"sweep", "ag.skill_test", "--vary", "tn=3..5", "-o", at("s.csv")}, "s.csv"},
		{"at most 12; this sweep has 14 points", []string{"sweep", "ag.skill_test", "--vary", "tn=1..14", "--plot", "pmf", "-o", at("f.png")}, "f.png"},
		{"--plot pmf draws a chart", []string{"sweep", "ag.skill_test", "--vary", "tn=1..4", "--plot", "pmf"}, ""},
		{"not .jpeg", []string{"compare", "--expr", "2d6", "--", "--expr", "d12", "-o", at("c.jpeg")}, "c.jpeg"},
		{"--cdf and --plot diff", []string{"compare", "--expr", "2d6", "--", "--expr", "d12", "--cdf", "--plot", "diff", "-o", at("c.png")}, "c.png"},
		{"--format svg draws a chart", []string{"solve", "ag.skill_test", "--vary", "tn=1..10", "--target", "event:success=0.6", "--format", "svg"}, ""},
		{"is a PDF file but --format is png", []string{"solve", "ag.skill_test", "--vary", "tn=1..10", "--target", "event:success=0.6", "--format", "png", "-o", at("s.pdf")}, "s.pdf"},
	}
	for _, c := range cases {
		mustRefuse(t, c.want, c.args...)
		if c.file != "" {
			if _, err := os.Stat(at(c.file)); err == nil {
				t.Errorf("%q wrote %s", c.args, c.file)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("refusals left %v", ents)
	}
}

// TestChartFailureKeepsTheFile: a chart that cannot be drawn leaves the
// file that was there as it was.
func TestChartFailureKeepsTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "keep.png")
	os.WriteFile(out, []byte("before"), 0o644)
	mustRefuse(t, "has no band", "exact", "--expr", "3d6", "--plot", "bands", "-o", out)
	if b, _ := os.ReadFile(out); string(b) != "before" {
		t.Errorf("the failed chart changed the file: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %v", ents)
	}
}

// TestTableExtensions: -o FILE.csv and .json write those tables, .txt and a
// name without an extension the text table, as the extension says unless
// --format does.
func TestTableExtensions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, want := range map[string]string{"t.csv": "# oddsmith:", "t.json": "{", "t.txt": "oddsmith:     ", "t": "oddsmith:     "} {
		out := filepath.Join(dir, name)
		if code, _, errOut := runCLI(t.Context(), "exact", "--expr", "3d6", "-o", out); code != 0 {
			t.Fatalf("-o %s: exit %d: %s", name, code, errOut)
		}
		if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), want) {
			t.Errorf("-o %s wrote %.40q; want it to start with %q", name, b, want)
		}
	}
	out := filepath.Join(dir, "explicit.dat")
	if code, _, errOut := runCLI(t.Context(), "exact", "--expr", "3d6", "--format", "csv", "-o", out); code != 0 {
		t.Fatalf("--format csv -o explicit.dat: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "# oddsmith:") {
		t.Errorf("--format csv -o explicit.dat wrote %.40q", b)
	}
}

// TestMergeDrawsTheChart: merging a simulation's shards into FILE.png
// draws the merged result's chart, as sim -o FILE.png would.
func TestMergeDrawsTheChart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var shards []string
	for i := range 2 {
		f := filepath.Join(dir, "s"+string(rune('0'+i))+".shard")
		if code, _, errOut := runCLI(t.Context(), "sim", "--expr", "3d6", "-n", "4000", "-q", "--shard", string(rune('0'+i))+"/2", "-o", f); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		shards = append(shards, f)
	}
	for _, format := range reports.PictureFormats {
		out := filepath.Join(dir, "merged."+format)
		if code, _, errOut := runCLI(t.Context(), append([]string{"merge", "-q", "-o", out}, shards...)...); code != 0 {
			t.Fatalf("merge -o %s: exit %d: %s", out, code, errOut)
		}
		b, _ := os.ReadFile(out)
		pngtest.CheckPicture(t, "cli_merged", format, b)
	}
}
