package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The editor's dialect selector: Roll20's 3d6>3 is read as Roll20 reads
// it (the dice of at least 3 counted), the page says oddsmith's form of
// it, draws the CLI's distribution of 'oddsmith exact --expr 3d6>3
// --dialect roll20', and keeps the dialect in the URL; in oddsmith's own
// dialect the same text is the total against 3, with Roll20's reading
// warned about under the editor.
func TestWorkbenchDialect(t *testing.T) {
	bctx := browserCtx(t)
	base := startServer(t)
	dir := artifacts(t)
	p := openPage(t, bctx, base, dir)

	p.do(chromedp.Click(chromedp.ID("write-rule")))
	p.wait(`!document.getElementById('editor-card').hidden && !document.getElementById('dialect-pick').hidden`)
	p.settle()
	// the selector has a label, and the tools' names
	var sel struct {
		Label   string
		Options []string
	}
	p.eval(`(() => { const s = document.getElementById('dialect-select');
		return {label: s.labels[0].textContent.replace(/\s+/g, ' ').trim(), options: [...s.options].map(o => o.value + '=' + o.text)} })()`, &sel)
	if !strings.HasPrefix(sel.Label, "Read as") || strings.Join(sel.Options, ",") != "oddsmith=oddsmith,roll20=Roll20,foundry=Foundry,dice-roller=rpg-dice-roller" {
		t.Errorf("the dialect selector: %+v", sel)
	}

	// Pick Roll20, type 3d6>3.
	p.do(chromedp.SetValue(chromedp.ID("dialect-select"), "roll20"))
	p.eval(`document.getElementById('dialect-select').dispatchEvent(new Event('change', {bubbles: true}))`, nil)
	p.eval(`(() => { const ta = document.getElementById('rule-text'); ta.value = ''; ta.dispatchEvent(new Event('input')); return true })()`, nil)
	p.do(chromedp.SendKeys(chromedp.ID("rule-text"), "3d6>3"))
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '3d6cs>=3' && !document.getElementById('expr-reading').hidden`)
	p.settle()
	var reading string
	p.eval(`document.getElementById('expr-reading').textContent`, &reading)
	if reading != "read as Roll20: 3d6cs>=3" {
		t.Errorf("under the editor: %q, want %q", reading, "read as Roll20: 3d6cs>=3")
	}
	want := checkChart(t, p, "value", "--expr", "3d6>3", "--dialect", "roll20")
	var stats struct{ Mean, Min, Max float64 }
	p.eval(`window.oddsmith.lastResult.stats.value`, &stats)
	if xs, _ := filled(want.Distributions["value"]); stats.Mean != 2 || stats.Min != 0 || stats.Max != 3 || len(xs) != 4 {
		t.Errorf("Roll20's 3d6>3: mean %v over %v..%v (%v), want the successes 0..3 with mean 2", stats.Mean, stats.Min, stats.Max, xs)
	}
	var cmd, view string
	p.eval(`document.getElementById('cli-command').textContent`, &cmd)
	p.eval(`window.oddsmith.view()`, &view)
	if cmd != "oddsmith exact --expr '3d6>3' --dialect roll20" {
		t.Errorf("the command shown: %q", cmd)
	}
	if !strings.Contains(view, "dialect=roll20") || !strings.Contains(view, "expr=3d6%3E3") {
		t.Errorf("the URL holds %q", view)
	}
	var warned int
	p.eval(`document.querySelectorAll('#expr-warnings li').length`, &warned)
	if warned != 0 {
		t.Errorf("%d warnings in Roll20's dialect", warned)
	}
	// nothing of the selector and the reading clipped or outside the card
	checkUnclipped(t, p)
	p.shot("dialect-roll20")

	// The link opens the same view.
	var url string
	p.eval(`window.oddsmith.url()`, &url)
	q := openPage(t, bctx, url, dir)
	q.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '3d6cs>=3'`)
	q.settle()
	var chosen string
	q.eval(`document.getElementById('dialect-select').value`, &chosen)
	if chosen != "roll20" {
		t.Errorf("the link opens the dialect %q", chosen)
	}

	// In oddsmith's own dialect: the total against 3, and Roll20's reading
	// warned about at the >.
	p.do(chromedp.SetValue(chromedp.ID("dialect-select"), "oddsmith"))
	p.eval(`document.getElementById('dialect-select').dispatchEvent(new Event('change', {bubbles: true}))`, nil)
	p.wait(`window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '3d6>3' && document.querySelectorAll('#expr-warnings li').length === 1`)
	p.settle()
	var warning string
	var readingHidden bool
	p.eval(`document.querySelector('#expr-warnings li').textContent`, &warning)
	p.eval(`document.getElementById('expr-reading').hidden`, &readingHidden)
	if !strings.HasPrefix(warning, "1:4") || !strings.Contains(warning, "3d6>3: here the total compared with 3") || !strings.Contains(warning, "Roll20") {
		t.Errorf("the warning: %q", warning)
	}
	if !readingHidden {
		t.Error("the 'read as' line is shown in oddsmith's own dialect")
	}
	p.eval(`window.oddsmith.view()`, &view)
	if strings.Contains(view, "dialect=") {
		t.Errorf("the URL holds %q in oddsmith's dialect", view)
	}
	checkUnclipped(t, p)
	p.shot("dialect-oddsmith-warning")

	// Narrow: the editor's head wraps, nothing clipped.
	p.do(chromedp.EmulateViewport(760, 900), chromedp.Reload())
	p.wait(`window.oddsmith && window.oddsmith.lastResult && window.oddsmith.lastResult.rule === '3d6>3' && document.querySelectorAll('#expr-warnings li').length === 1`)
	p.settle()
	checkUnclipped(t, p)
	p.shot("dialect-narrow")

	// Offline: everything the page loaded came from the server itself.
	var foreign []string
	p.eval(`performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))`, &foreign)
	if len(foreign) > 0 {
		t.Errorf("the page loaded from elsewhere: %v", foreign)
	}
	p.noErrors()
	q.noErrors()
}

// checkUnclipped fails when the dialect selector, the reading or a
// warning overflows its box or leaves the editor's card.
func checkUnclipped(t *testing.T, p *page) {
	t.Helper()
	var bad []string
	p.eval(`(() => {
		const card = document.getElementById('editor-card').getBoundingClientRect();
		const out = [];
		for (const e of [document.getElementById('dialect-pick'), document.getElementById('dialect-select'), document.getElementById('expr-reading'), ...document.querySelectorAll('#expr-warnings li')]) {
			if (e.hidden || e.offsetParent === null) continue;
			const r = e.getBoundingClientRect();
			if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline') out.push(e.id || e.tagName + ': overflows (' + e.scrollWidth + ' > ' + e.clientWidth + ')');
			if (r.left < card.left - 0.5 || r.right > card.right + 0.5 || r.top < card.top - 0.5 || r.bottom > card.bottom + 0.5) out.push((e.id || e.tagName) + ': outside the card');
			if (r.width === 0 || r.height === 0) out.push((e.id || e.tagName) + ': not drawn');
		}
		return out })()`, &bad)
	for _, b := range bad {
		t.Errorf("clipped: %s", b)
	}
}
