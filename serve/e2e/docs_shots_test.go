package e2e

import (
	"net/url"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDocsScreenshots redraws the screenshots of docs/workbench.md:
//
//	ODDSMITH_DOCS_SHOTS=$PWD/docs go test ./serve/e2e -run DocsScreenshots
//
// It runs only when ODDSMITH_DOCS_SHOTS names the directory to write.
func TestDocsScreenshots(t *testing.T) {
	dir := os.Getenv("ODDSMITH_DOCS_SHOTS")
	if dir == "" {
		t.Skip("set ODDSMITH_DOCS_SHOTS=DIR to redraw the screenshots of docs/workbench.md")
	}
	bctx := browserCtx(t)
	base := startServer(t)

	// Explore: the skill test at skill 3, simulated over the exact bars.
	p := openPage(t, bctx, base+"#m=ag.skill_test&set.skill=3", dir)
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.params.skill === 3`)
	p.settle()
	p.do(chromedp.Click(chromedp.ID("sim-run")))
	p.wait(`window.oddsmith.simState === 'done'`)
	p.settle()
	p.eval(`(() => { const u = document.querySelector('#chart .u-over'); const r = u.getBoundingClientRect();
		u.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width * 0.62, clientY: r.top + r.height / 2, bubbles: true})); return true })()`, nil)
	p.shot("workbench")

	// A rule file with a mistake in an expression, marked where it is.
	q := openPage(t, bctx, base+"#rules="+url.QueryEscape(houseRule), dir)
	q.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.mechanic === 'house.exploding_six'`)
	q.settle()
	q.eval(`(() => { const ta = document.getElementById('rule-text'); ta.value = ta.value.replace('+ copies"', '+ copie"'); ta.dispatchEvent(new Event('input')); return true })()`, nil)
	q.wait(`document.querySelector('#markers .marker') !== null`)
	q.settle()
	q.shot("workbench-rule")

	// Compare the book rule (A) with the house rule (B).
	c := openPage(t, bctx, base+"#rules="+url.QueryEscape(houseRule)+"&tab=compare&pin="+url.QueryEscape(`{"mechanic":"ag.skill_test","set":{}}`), dir)
	c.wait(`window.oddsmith.lastCompare !== null`)
	c.settle()
	c.eval(`(() => { const m = document.getElementById('main'); m.scrollTop = document.querySelector('.work').offsetTop - 12; return true })()`, nil)
	c.shot("workbench-compare")

	// Tune: which TN gives 60% at skill 3?
	u := openPage(t, bctx, base+"#m=ag.skill_test&set.skill=3&tab=tune&vary=tn%3D1..14&metric=event%3Asuccess", dir)
	u.wait(`window.oddsmith.lastSweep !== null`)
	u.settle()
	u.do(chromedp.Click(chromedp.CSS(`#solve-form button[type=submit]`)))
	u.wait(`window.oddsmith.lastSolve !== null`)
	u.settle()
	u.shot("workbench-tune")
	// A Roll20 macro read as Roll20 reads it.
	r := openPage(t, bctx, base+"#expr="+url.QueryEscape("/roll 3d6>3")+"&dialect=roll20", dir)
	r.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '3d6cs>=3' && !document.getElementById('expr-reading').hidden`)
	r.settle()
	r.shot("workbench-dialect")
	for _, pg := range []*page{p, q, c, u, r} {
		pg.noErrors()
	}
}

// houseRule is the page's example rule file: the skill pool with a 6 that
// explodes once.
const houseRule = `# A house rule: the skill pool keeps its highest d6, and a 6 explodes once.
[[rule]]
id = "house.exploding_six"
summary = "a d6 pool keeps the highest, +1 per extra copy; a 6 explodes once"

[rule.params]
skill = { default = 2, min = 1, max = 12, doc = "dice in the pool" }
attribute = { default = 2, min = 0, max = 20 }
tn = { default = 5, min = 1, max = 30, doc = "target number" }

[rule.let]
pool = "(skill)d6!{1}"
copies = "skill - distinct(pool)"
roll = "highest(pool) + copies"

[rule.vars]
mos = "roll + attribute - tn"

[rule.events]
success = "mos >= 1"
crit = "copies > 0"
`
