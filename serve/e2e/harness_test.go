package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser: Debian's chromium, or the one ODDSMITH_CHROMIUM names.
func chromiumPath() string {
	if p := os.Getenv("ODDSMITH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needBrowser skips the test, saying so plainly, where no Chromium is
// installed (unless ODDSMITH_E2E_REQUIRE=1, as .ci/run sets once it has
// installed one: then a missing browser fails).
func needBrowser(t *testing.T) string {
	t.Helper()
	p := chromiumPath()
	if p == "" {
		if os.Getenv("ODDSMITH_E2E_REQUIRE") == "1" {
			t.Fatal("ODDSMITH_E2E_REQUIRE=1 but no Chromium found (install Debian's chromium, or set ODDSMITH_CHROMIUM)")
		}
		t.Skip("SKIPPED: the browser end-to-end tests need Chromium (apt-get install chromium, or set ODDSMITH_CHROMIUM); they did not run")
	}
	return p
}

var (
	buildOnce sync.Once
	binPath   string
	binErr    error
	binDir    string
)

// oddsmith builds the command once for the package's tests.
func oddsmith(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "oddsmith-e2e-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "oddsmith")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/oddsmith/oddsmith/cmd/oddsmith")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// cli runs the oddsmith command and returns its standard output.
func cli(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(oddsmith(t), args...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("oddsmith %s: %v %s", strings.Join(args, " "), err, msg)
	}
	return out
}

var urlLine = regexp.MustCompile(`oddsmith workbench: (http://\S+)`)

// startServer runs 'oddsmith serve --addr 127.0.0.1:0' and returns the URL
// it prints; the server stops with the test.
func startServer(t *testing.T) string {
	t.Helper()
	bin := oddsmith(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if g := urlLine.FindStringSubmatch(sc.Text()); g != nil {
				found <- g[1]
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if ok {
			return u
		}
	case <-time.After(30 * time.Second):
	}
	t.Fatalf("oddsmith serve printed no URL; stderr: %s", stderr.String())
	return ""
}

// A page is one browser tab on the workbench, with everything it logged.
type page struct {
	t      *testing.T
	ctx    context.Context
	dir    string // screenshots
	mu     sync.Mutex
	errors []string
}

// browserCtx starts Chromium with the flags of the brief and a fresh
// profile; pages are tabs of it.
func browserCtx(t *testing.T) context.Context {
	t.Helper()
	exe := needBrowser(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 960),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	// start the browser (its first tab stays blank)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	return bctx
}

// artifacts is where screenshots go: $ODDSMITH_E2E_ARTIFACTS, or a
// temporary directory of the test.
func artifacts(t *testing.T) string {
	if d := os.Getenv("ODDSMITH_E2E_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// openPage opens a new tab at url and collects its console errors,
// uncaught exceptions and error log entries.
func openPage(t *testing.T, bctx context.Context, url, dir string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx, dir: dir}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	logs := chromedp.Events(ctx, log.EntryAdded)
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				p.addError("console." + string(ev.Type) + ": " + strings.Join(parts, " "))
			}
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.addError(fmt.Sprintf("uncaught exception at %s:%d:%d: %s", d.URL, d.LineNumber, d.ColumnNumber, msg))
		}
	}()
	go func() {
		for ev, err := range logs {
			if err != nil {
				return
			}
			if ev.Entry.Level == log.EntryLevelError {
				p.addError("log (" + string(ev.Entry.Source) + "): " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	}()
	p.do(chromedp.Navigate(url))
	p.settle()
	return p
}

func (p *page) addError(s string) {
	p.mu.Lock()
	p.errors = append(p.errors, s)
	p.mu.Unlock()
}

// noErrors fails the test on any console error so far.
func (p *page) noErrors() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errors {
		p.t.Errorf("browser console: %s", e)
	}
	p.errors = nil
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression and decodes its JSON value into v.
func (p *page) eval(js string, v any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte]("JSON.stringify("+js+")"))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.t.Fatalf("evaluate %s: %v (%s)", js, err, raw)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(s), v); err != nil {
			p.t.Fatalf("evaluate %s: %v (%s)", js, err, s)
		}
	}
}

// wait polls a JavaScript condition until it is true.
func (p *page) wait(cond string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	var err error
	for try := 0; try < 3; try++ {
		_, err = chromedp.Run(ctx, chromedp.Poll[chromedp.Void]("(() => { try { return !!("+cond+") } catch (e) { return false } })()", chromedp.WithPollingInterval(25*time.Millisecond)))
		// a navigation can replace the page's context under a running poll: poll again
		if err == nil || !strings.Contains(err.Error(), "Cannot find context") {
			break
		}
	}
	if err != nil {
		var state string
		p.evalQuiet(`({pending: window.oddsmith && window.oddsmith.pending(), error: window.oddsmith && window.oddsmith.lastError, url: location.href, describe: window.oddsmith && window.oddsmith.lastDescribe && window.oddsmith.lastDescribe.id, result: window.oddsmith && window.oddsmith.lastResult && [window.oddsmith.lastResult.mechanic, window.oddsmith.lastResult.params], sim: window.oddsmith && window.oddsmith.simState})`, &state)
		p.t.Fatalf("waiting for %s: %v (page: %s)", cond, err, state)
	}
}

func (p *page) evalQuiet(js string, s *string) {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte]("JSON.stringify("+js+")"))
	if err == nil {
		_ = json.Unmarshal(raw, s)
	}
}

// settle waits until the page has no debounce pending and no request in
// flight, and has rendered something.
func (p *page) settle() {
	p.t.Helper()
	p.wait(`window.oddsmith && window.oddsmith.pending() === 0 && (window.oddsmith.renders > 0 || window.oddsmith.editorErrors.length > 0 || window.oddsmith.lastError)`)
}

// shot saves a screenshot of the viewport as NAME.png.
func (p *page) shot(name string) {
	p.t.Helper()
	// let the toast fade and the last frame paint (charts draw on the next animation frame)
	p.wait(`getComputedStyle(document.getElementById('toast')).opacity === '0'`)
	p.wait(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	f := filepath.Join(p.dir, name+".png")
	if err := os.WriteFile(f, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", f)
}

// allowDownloads makes the browser save downloads in dir.
func allowDownloads(t *testing.T, bctx context.Context, dir string) {
	t.Helper()
	_, err := chromedp.CallBrowser(bctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: new(true),
	})
	if err != nil {
		t.Fatalf("download behaviour: %v", err)
	}
}

func execCombined(bin string, args ...string) (string, error) {
	out, err := exec.Command(bin, args...).CombinedOutput()
	return string(out), err
}

// typeInto empties the field that the CSS selector names and types text
// into it, key by key.
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	p.eval(`(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); e.value = ''; e.focus(); return true })()`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}
