package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cliJSON is the part of the CLI's --format json object the tests read.
type cliJSON struct {
	Mechanic      string                  `json:"mechanic"`
	Fingerprint   string                  `json:"fingerprint"`
	Params        map[string]any          `json:"params"`
	Distributions map[string][][2]float64 `json:"distributions"`
	Events        map[string]float64      `json:"events"`
}

// filled is a distribution as the page draws it: whole-number gaps filled
// with zeros.
func filled(pts [][2]float64) (xs, ps []float64) {
	if len(pts) == 0 {
		return nil, nil
	}
	lo, hi := pts[0][0], pts[len(pts)-1][0]
	m := map[float64]float64{}
	for _, q := range pts {
		m[q[0]] = q[1]
	}
	for x := lo; x <= hi; x++ {
		xs = append(xs, x)
		ps = append(ps, m[x])
	}
	return xs, ps
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkChart compares the page's main chart and its last result with the
// CLI's exact JSON for the same arguments, value for value.
func checkChart(t *testing.T, p *page, variable string, args ...string) cliJSON {
	t.Helper()
	var want cliJSON
	if err := json.Unmarshal(cli(t, append(append([]string{"exact"}, args...), "--format", "json")...), &want); err != nil {
		t.Fatal(err)
	}
	var got cliJSON
	p.eval(`window.oddsmith.lastResult`, &got)
	if got.Fingerprint != want.Fingerprint {
		t.Errorf("fingerprint: page %s, CLI %s", got.Fingerprint, want.Fingerprint)
	}
	for name, d := range want.Distributions {
		if fmt.Sprint(got.Distributions[name]) != fmt.Sprint(d) {
			t.Errorf("distribution %s: page %v, CLI %v", name, got.Distributions[name], d)
		}
	}
	for name, v := range want.Events {
		if got.Events[name] != v {
			t.Errorf("event %s: page %v, CLI %v", name, got.Events[name], v)
		}
	}
	var chart [][]float64
	p.eval(`window.oddsmith.chart('main')`, &chart)
	xs, ps := filled(want.Distributions[variable])
	if len(chart) < 2 || !sameFloats(chart[0], xs) || !sameFloats(chart[1], ps) {
		t.Errorf("chart data of %s:\n page %v\n CLI  %v %v", variable, chart, xs, ps)
	}
	return want
}

func TestWorkbench(t *testing.T) {
	bctx := browserCtx(t)
	base := startServer(t)
	dir := artifacts(t)
	t.Logf("workbench at %s, screenshots in %s", base, dir)

	dl := t.TempDir()
	allowDownloads(t, bctx, dl)
	p := openPage(t, bctx, base, dir)

	// 1. Browse: every mechanic is listed; the default view is drawn.
	var n int
	p.eval(`document.querySelectorAll('#mech-list .mech').length`, &n)
	listed := 0
	for _, line := range strings.Split(string(cli(t, "list")), "\n")[1:] {
		if strings.TrimSpace(line) != "" {
			listed++
		}
	}
	if n != listed {
		t.Errorf("the list shows %d mechanics, 'oddsmith list' %d", n, listed)
	}
	checkChart(t, p, "mos", "ag.skill_test")
	// the first load: the page, its assets and the first answers, under 300 KB
	var weight struct{ Bytes, Files int }
	p.eval(`(() => { const n = performance.getEntriesByType('navigation')[0]; const r = performance.getEntriesByType('resource');
		return {bytes: n.transferSize + r.reduce((a, e) => a + e.transferSize, 0), files: 1 + r.length} })()`, &weight)
	t.Logf("first load: %d bytes transferred in %d requests", weight.Bytes, weight.Files)
	if weight.Bytes <= 0 || weight.Bytes > 300*1024 {
		t.Errorf("the first load transferred %d bytes; the budget is 300 KB", weight.Bytes)
	}
	p.shot("01-load")

	// Search and pick a mechanic with the keyboard: '/' focuses the search.
	p.do(chromedp.KeyEvent("/"), chromedp.SendKeys(chromedp.CSS("#search"), "opposed test"))
	var ids []string
	p.eval(`[...document.querySelectorAll('#mech-list .mech')].map(b => b.dataset.id)`, &ids)
	if len(ids) == 0 || ids[0] != "ag.opposed" {
		t.Fatalf("searching 'opposed test' lists %v, want ag.opposed first", ids)
	}
	p.do(chromedp.KeyEvent(kb.Enter))
	p.wait(`window.oddsmith.lastDescribe && window.oddsmith.lastDescribe.id === 'ag.opposed' && window.oddsmith.lastResult.mechanic === 'ag.opposed'`)
	p.settle()
	checkChart(t, p, "mos", "ag.opposed")

	// 2. Explore: move the skill slider three steps with the arrow keys;
	// the chart becomes the CLI's distribution at skill=5.
	p.do(chromedp.Focus(chromedp.CSS(`input[type=range][data-param="skill"]`)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	p.wait(`window.oddsmith.lastResult.params.skill === 5`)
	p.settle()
	checkChart(t, p, "mos", "ag.opposed", "--set", "skill=5")
	var cmd string
	p.eval(`document.getElementById('cli-command').textContent`, &cmd)
	if !strings.Contains(cmd, "ag.opposed") || !strings.Contains(cmd, "skill=5") {
		t.Errorf("the CLI command shown is %q", cmd)
	}
	// the number box drives the same setting
	p.typeInto(`input[type=number][data-param="opp_skill"]`, "4")
	p.wait(`window.oddsmith.lastResult.params.opp_skill === 4`)
	p.settle()
	checkChart(t, p, "mos", "ag.opposed", "--set", "skill=5", "--set", "opp_skill=4")
	// P(≥ x): the chart shows the CLI's tail sums
	p.do(chromedp.Click(chromedp.CSS(`[data-view="ccdf"]`)))
	var chart [][]float64
	p.eval(`window.oddsmith.chart('main')`, &chart)
	if len(chart) < 2 || chart[1][0] < 0.999999 || chart[1][0] > 1.000001 {
		t.Errorf("P(≥ min) should be 1, the chart has %v", chart)
	}
	p.shot("02-explore-slider")
	p.do(chromedp.Click(chromedp.CSS(`[data-view="pmf"]`)))

	// 3. Simulate: overlay and agreement; then a long run, cancelled.
	p.do(chromedp.Click(chromedp.ID("sim-run")))
	p.wait(`window.oddsmith.simState === 'done'`)
	p.settle()
	var agreement string
	p.eval(`document.getElementById('agreement').textContent`, &agreement)
	if agreement == "" {
		t.Error("no agreement check shown after the simulation")
	}
	p.eval(`window.oddsmith.chart('main')`, &chart)
	if len(chart) != 3 {
		t.Errorf("the simulated series is not drawn over the exact one: %d series", len(chart)-1)
	}
	p.shot("03-simulate")
	p.eval(`(() => { const s = document.getElementById('sim-trials'); s.append(new Option('2 000 000 000', '2000000000')); s.value = '2000000000'; s.dispatchEvent(new Event('change')); return true })()`, nil)
	p.do(chromedp.Click(chromedp.ID("sim-run")))
	p.wait(`window.oddsmith.simState === 'running' && window.oddsmith.simProgress > 0`)
	p.shot("04-simulate-running")
	p.do(chromedp.Click(chromedp.ID("sim-cancel")))
	p.wait(`window.oddsmith.simState === 'cancelled'`)
	p.settle()
	p.noErrors()

	// 4. Write a rule: a syntax error is shown at its line and column.
	p.do(chromedp.Click(chromedp.ID("write-rule")))
	p.wait(`!document.getElementById('editor-card').hidden`)
	p.settle()
	bad := "4d6kh3 + "
	p.eval(`(() => { const ta = document.getElementById('rule-text'); ta.value = ''; ta.dispatchEvent(new Event('input')); return true })()`, nil)
	p.do(chromedp.SendKeys(chromedp.ID("rule-text"), bad))
	p.wait(`document.querySelector('#markers .marker') !== null`)
	p.settle()
	wantLine, wantCol, wantMsg := cliError(t, "exact", "--expr", bad)
	var marker struct {
		Line, Col   int
		Text        string
		Left, Char  float64
		GutterClass string
	}
	p.eval(`(() => { const m = document.querySelector('#markers .marker'); const code = document.querySelector('#editor .code');
		const probe = document.createElement('span'); probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font:13px var(--mono)'; probe.textContent = 'x'.repeat(100); code.append(probe);
		const cw = probe.getBoundingClientRect().width / 100; probe.remove();
		return {line: +m.dataset.line, col: +m.dataset.col, text: m.textContent, left: m.getBoundingClientRect().left - code.getBoundingClientRect().left, char: cw,
			gutterClass: document.querySelectorAll('#gutter div')[+m.dataset.line - 1].className} })()`, &marker)
	if marker.Line != wantLine || marker.Col != wantCol {
		t.Errorf("the error marker is at %d:%d, the CLI says line %d, column %d", marker.Line, marker.Col, wantLine, wantCol)
	}
	if !strings.Contains(marker.Text, wantMsg) {
		t.Errorf("the marker says %q, the CLI %q", marker.Text, wantMsg)
	}
	// the marker's arrow points at the column: 10 px of padding, then col-1 characters (the arrow sits 6 px into the box)
	if want := 10 + float64(wantCol-1)*marker.Char - 6; marker.Left < want-2 || marker.Left > want+2 {
		t.Errorf("the marker is drawn at x = %.1f px, want %.1f (column %d)", marker.Left, want, wantCol)
	}
	if marker.GutterClass != "bad" {
		t.Errorf("line %d is not marked in the gutter", wantLine)
	}
	p.shot("05-rule-error")
	// fix it: the chart is the CLI's for the fixed rule
	p.do(chromedp.SendKeys(chromedp.ID("rule-text"), "2"))
	p.wait(`document.querySelector('#markers .marker') === null && window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '4d6kh3 + 2'`)
	p.settle()
	checkChart(t, p, "value", "--expr", "4d6kh3 + 2")
	p.shot("06-rule-fixed")

	// A TOML rule file: an error on line 5 is marked on line 5.
	p.do(chromedp.Click(chromedp.CSS(`[data-example="toml"]`)))
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === 'house.exploding_six'`)
	p.settle()
	p.eval(`(() => { const ta = document.getElementById('rule-text'); ta.value = ta.value.replace('summary = "a d6', 'summary = a d6'); ta.dispatchEvent(new Event('input')); return true })()`, nil)
	p.wait(`document.querySelector('#markers .marker') !== null`)
	p.settle()
	var tomlAt [2]int
	p.eval(`(() => { const m = document.querySelector('#markers .marker'); return [+m.dataset.line, +m.dataset.col] })()`, &tomlAt)
	if tomlAt != [2]int{4, 11} { // summary = a d6…: the value that is not one
		t.Errorf("the TOML error is marked at %d:%d, want 4:11", tomlAt[0], tomlAt[1])
	}
	p.shot("07-rule-file-error")
	p.eval(`(() => { const ta = document.getElementById('rule-text'); ta.value = ta.value.replace('summary = a d6', 'summary = "a d6'); ta.dispatchEvent(new Event('input')); return true })()`, nil)
	p.wait(`document.querySelector('#markers .marker') === null && window.oddsmith.pending() === 0`)
	p.settle()
	// the rule downloads as <id>.toml, the text of the editor
	p.do(chromedp.Click(chromedp.ID("rule-download")))
	var text string
	p.eval(`document.getElementById('rule-text').value`, &text)
	if got := waitFile(t, filepath.Join(dl, "house.exploding_six.toml")); string(got) != text {
		t.Errorf("the rule downloaded is %q, the editor holds %q", got, text)
	}

	// 5. Compare: pin the book rule as A, change the pool.
	p.do(chromedp.Focus(chromedp.ID("search")), chromedp.KeyEvent(kb.Escape))
	p.do(chromedp.Click(chromedp.CSS(`[data-id="ag.skill_test"]`)))
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === 'ag.skill_test'`)
	p.settle()
	p.do(chromedp.KeyEvent("p"))
	p.do(chromedp.Focus(chromedp.CSS(`input[type=range][data-param="skill"]`)), chromedp.KeyEvent(kb.ArrowRight))
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="compare"]`)))
	p.wait(`window.oddsmith.lastCompare && window.oddsmith.lastCompare.result.b.params.skill === 3`)
	p.settle()
	var cmp struct {
		Result struct {
			Distributions []struct {
				Output string
				PMF    [][3]float64 `json:"pmf"`
			}
			Summary string
		}
	}
	p.eval(`window.oddsmith.lastCompare`, &cmp)
	var wantCmp struct {
		Distributions []struct {
			Output string
			PMF    [][3]float64 `json:"pmf"`
		}
		Summary string
	}
	if err := json.Unmarshal(cli(t, "compare", "ag.skill_test", "--", "--set", "skill=3", "--format", "json"), &wantCmp); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cmp.Result.Distributions) != fmt.Sprint(wantCmp.Distributions) || cmp.Result.Summary != wantCmp.Summary {
		t.Errorf("compare: page %+v, CLI %+v", cmp.Result, wantCmp)
	}
	p.eval(`window.oddsmith.chart('cmp')`, &chart)
	if len(chart) != 3 {
		t.Errorf("the compare chart draws %d series, want A and B", len(chart)-1)
	}
	p.shot("08-compare")

	// 6. Tune: sweep tn, find the tn that gives 60%.
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="tune"]`)))
	p.wait(`window.oddsmith.lastSweep !== null && window.oddsmith.lastSweep.result.varied[0].name === 'tn'`)
	p.settle()
	p.do(chromedp.Click(chromedp.CSS(`#solve-form button[type=submit]`)))
	p.wait(`window.oddsmith.lastSolve !== null`)
	p.settle()
	var answer string
	p.eval(`document.getElementById('solve-answer').textContent`, &answer)
	wantAnswer := string(cli(t, "solve", "ag.skill_test", "--set", "skill=3", "--vary", "tn=1..21", "--target", "event:success=0.6"))
	if strings.TrimSpace(strings.ReplaceAll(answer, "\n", " ")) != strings.TrimSpace(strings.ReplaceAll(wantAnswer, "\n", " ")) {
		t.Errorf("solve answer:\n page %q\n CLI  %q", answer, wantAnswer)
	}
	p.shot("09-tune-solve")
	p.do(chromedp.SetValue(chromedp.ID("tune-p2"), "skill"))
	p.eval(`document.getElementById('tune-p2').dispatchEvent(new Event('change'))`, nil)
	p.wait(`window.oddsmith.lastSweep.result.varied.length === 2`)
	p.settle()
	p.shot("10-tune-heatmap")
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="results"]`)))
	p.noErrors()

	// 7. Share: a process mechanic with settings, a view and the pin; the
	// link opened in a fresh tab gives the same view.
	p.do(chromedp.Click(chromedp.CSS(`#pin-info button:last-child`))) // unpin
	p.do(chromedp.Click(chromedp.CSS(`[data-id="grim.burning"]`)))
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === 'grim.burning'`)
	p.settle()
	p.do(chromedp.Click(chromedp.ID("pin")))
	p.typeInto(`input[type=number][data-param="turns"]`, "6")
	p.typeInto(`input[type=number][data-param="escape_percent"]`, "20")
	p.wait(`window.oddsmith.lastResult.params.turns === 6 && window.oddsmith.lastResult.params.escape_percent === 20`)
	p.do(chromedp.Click(chromedp.CSS(`[data-view="cdf"]`)))
	p.settle()
	var surv [][]float64
	p.eval(`window.oddsmith.chart('surv')`, &surv)
	if len(surv) != 2 || len(surv[0]) != 7 || surv[1][0] != 1 {
		t.Errorf("S(t) of grim.burning over 6 turns: %v", surv)
	}
	p.eval(`document.getElementById('process-card').scrollIntoView({block: 'end'})`, nil)
	p.shot("11-process")
	p.eval(`document.getElementById('main').scrollTop = 0`, nil)
	var link string
	p.eval(`window.oddsmith.url()`, &link)
	var before struct {
		FP    string
		Chart [][]float64
		State string
	}
	p.eval(`({fp: window.oddsmith.lastResult.fingerprint, chart: window.oddsmith.chart('main'), state: window.oddsmith.view()})`, &before)
	q := openPage(t, bctx, link, dir)
	q.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === 'grim.burning'`)
	q.settle()
	var after struct {
		FP    string
		Chart [][]float64
		State string
	}
	q.eval(`({fp: window.oddsmith.lastResult.fingerprint, chart: window.oddsmith.chart('main'), state: window.oddsmith.view()})`, &after)
	if before.FP != after.FP || fmt.Sprint(before.Chart) != fmt.Sprint(after.Chart) || fmt.Sprint(before.State) != fmt.Sprint(after.State) {
		t.Errorf("the shared link does not reproduce the view:\n before %+v\n after  %+v", before, after)
	}
	var pinned bool
	q.eval(`window.oddsmith.state.pin !== null && window.oddsmith.lastCompare !== null`, &pinned)
	if !pinned {
		t.Errorf("the shared link lost the pinned comparison: %s", after.State)
	}
	q.shot("12-shared-link")
	q.noErrors()

	// 8. Export: the CSV downloaded is the CLI's; the PNG is a PNG.
	p.do(chromedp.Click(chromedp.CSS(`.export[data-format="csv"]`)))
	csv := waitFile(t, filepath.Join(dl, "*.csv"))
	want := cli(t, "exact", "grim.burning", "--set", "turns=6", "--set", "escape_percent=20", "--format", "csv")
	if !bytes.Equal(csv, want) {
		t.Errorf("the CSV downloaded differs from the CLI's:\n page %q\n CLI  %q", head(csv), head(want))
	}
	p.do(chromedp.Click(chromedp.CSS(`.export[data-format="png"]`)))
	if png := waitFile(t, filepath.Join(dl, "*.png")); !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("the PNG downloaded is not a PNG: %q", head(png))
	}
	p.noErrors()
}

// waitFile waits for one complete file matching the glob pattern (a
// download) and returns its bytes.
func waitFile(t *testing.T, pattern string) []byte {
	t.Helper()
	for i := 0; i < 400; i++ {
		if m, _ := filepath.Glob(pattern); len(m) == 1 {
			if b, err := os.ReadFile(m[0]); err == nil && len(b) > 0 {
				return b
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing downloaded as %s", filepath.Base(pattern))
	return nil
}

func head(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

var cliErr = regexp.MustCompile(`line (\d+), column (\d+): (.*)`)

// cliError runs a command that must fail and returns the line, column and
// message of its error.
func cliError(t *testing.T, args ...string) (int, int, string) {
	t.Helper()
	out, err := execCombined(oddsmith(t), args...)
	if err == nil {
		t.Fatalf("oddsmith %v succeeded; want an error", args)
	}
	g := cliErr.FindStringSubmatch(out)
	if g == nil {
		t.Fatalf("no line and column in %q", out)
	}
	l, _ := strconv.Atoi(g[1])
	c, _ := strconv.Atoi(g[2])
	return l, c, strings.TrimSpace(g[3])
}

// TestEveryMechanic opens every mechanic of the list by its link and checks
// that each draws its results (the simulator-only ones by simulation) with
// no error on the page or in the console.
func TestEveryMechanic(t *testing.T) {
	bctx := browserCtx(t)
	base := startServer(t)
	p := openPage(t, bctx, base, artifacts(t))
	var ids []string
	p.eval(`window.oddsmith.mechanics.map(m => m.id)`, &ids)
	if len(ids) < 95 {
		t.Fatalf("%d mechanics listed", len(ids))
	}
	for _, id := range ids {
		p.eval(`(() => { location.hash = 'm=' + `+strconv.Quote(id)+`; return true })()`, nil)
		p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === ` + strconv.Quote(id) + ` && window.oddsmith.pending() === 0 || window.oddsmith.lastError`)
		var st struct {
			Error string
			Chart [][]float64
			Dists int
		}
		p.eval(`({error: window.oddsmith.lastError || '', chart: window.oddsmith.chart('main'), dists: Object.keys(window.oddsmith.lastResult.distributions || {}).length})`, &st)
		if st.Error != "" {
			t.Errorf("%s: %s", id, st.Error)
		} else if st.Dists > 0 && (len(st.Chart) < 2 || len(st.Chart[0]) == 0) {
			t.Errorf("%s: nothing drawn", id)
		}
		p.noErrors()
	}
}
