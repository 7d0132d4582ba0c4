package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// fixture holds the test mechanics' hooks: test.gated waits in its
// builder until gate is closed, test.counted counts the trials it
// simulates, test.panic breaks in its builder (a bug, not a fault).
type fixture struct {
	gate  chan struct{}
	calls atomic.Int64
}

// registry is the built-in mechanics with the test ones.
func (f *fixture) registry(t *testing.T) *mechanics.Registry {
	t.Helper()
	d6 := func() *mechanics.Spec {
		rec := mechanics.NewRecord(mechanics.Int("roll", 1, 6, "the roll"))
		roll := rec.Slot("roll")
		return (&mechanics.Spec{Record: rec, Outcome: mechanics.Map{X: mechanics.D(6), F: func(v int) int { return roll.Set(rec.Start(), v) }}}).Report("roll")
	}
	gated := &mechanics.Mechanic{ID: "test.gated", Summary: "a d6 whose model waits for the test", Doc: "test",
		Build: func(mechanics.Config) (*mechanics.Spec, error) { <-f.gate; return d6(), nil }}
	broken := &mechanics.Mechanic{ID: "test.panic", Summary: "a builder with a bug", Doc: "test",
		Build: func(mechanics.Config) (*mechanics.Spec, error) { panic("broken on purpose") }}
	counted := &mechanics.Mechanic{ID: "test.counted", Summary: "a d6 from two long sums, counted", Doc: "test", MCOnly: true, MCReason: "a test",
		Build: func(mechanics.Config) (*mechanics.Spec, error) {
			rec := mechanics.NewRecord(mechanics.Int("roll", 1, 6, "the roll"))
			roll := rec.Slot("roll")
			long := mechanics.Repeat{X: mechanics.D(100), N: 300}
			return (&mechanics.Spec{Record: rec, Outcome: mechanics.Combine{X: long, Y: long, F: func(x, y int) int {
				f.calls.Add(1)
				return roll.Set(rec.Start(), (x+y)%6+1)
			}}}).Report("roll"), nil
		}}
	reg, err := systems.Default.Overlay([]*mechanics.Mechanic{gated, broken, counted})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// harness is a server running on a loopback port for one test.
type harness struct {
	t    *testing.T
	s    *Server
	base string // http://127.0.0.1:PORT
	fx   *fixture
}

// start runs a server with opt (the test mechanics laid over the
// built-ins) until the test ends.
func start(t *testing.T, opt Options) *harness {
	t.Helper()
	fx := &fixture{gate: make(chan struct{})}
	if opt.Builtins == nil {
		opt.Builtins = fx.registry(t)
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		select {
		case <-fx.gate:
		default:
			close(fx.gate)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve returned %v, want context.Canceled", err)
		}
	})
	return &harness{t: t, s: s, base: "http://" + ln.Addr().String(), fx: fx}
}

// post sends a JSON body and returns the status and the body read.
func (h *harness) post(path, body string) (int, []byte) {
	h.t.Helper()
	resp, err := http.Post(h.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// postJSON posts and decodes a 200 answer.
func (h *harness) postJSON(path, body string) map[string]any {
	h.t.Helper()
	code, b := h.post(path, body)
	if code != http.StatusOK {
		h.t.Fatalf("POST %s %s: %d %s", path, body, code, b)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		h.t.Fatalf("POST %s: %v in %s", path, err, b)
	}
	return out
}

// errorOf decodes {"error": …} and checks that it is one line.
func errorOf(t *testing.T, b []byte) string {
	t.Helper()
	var e struct{ Error string }
	if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
		t.Fatalf("not an error answer: %s", b)
	}
	if strings.Count(string(b), "\n") != 1 || strings.Contains(e.Error, "\n") {
		t.Errorf("the error answer is not one line: %q", b)
	}
	return e.Error
}

// Every endpoint answers its happy path with what the contract says.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	resp, err := http.Get(h.base + "/api/mechanics")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Systems []struct {
			ID, Name, Doc string
		}
		Mechanics []struct {
			ID, System, Summary string
			SimOnly             bool `json:"sim_only"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(list.Systems) < 5 || list.Systems[0].ID != "ag" || list.Systems[0].Name == "" || len(list.Mechanics) < 90 {
		t.Errorf("mechanics list: %d systems (%+v), %d mechanics", len(list.Systems), list.Systems, len(list.Mechanics))
	}
	simOnly := 0
	for _, m := range list.Mechanics {
		if m.SimOnly {
			simOnly++
		}
		if m.ID == "ag.skill_test" && (m.System != "ag" || m.Summary == "") {
			t.Errorf("ag.skill_test listed as %+v", m)
		}
	}
	if simOnly < 2 {
		t.Errorf("%d simulator-only mechanics listed", simOnly)
	}

	d := h.postJSON("/api/describe", `{"mechanic": "ag.skill_test", "set": {"skill": 3}}`)
	if d["id"] != "ag.skill_test" || d["engines"] != "exact and simulator" || !strings.Contains(d["text"].(string), "PARAMETER") ||
		d["command"] != "oddsmith describe ag.skill_test --set skill=3" {
		t.Errorf("describe: %v", d)
	}
	params := d["params"].([]any)
	if p := params[0].(map[string]any); p["name"] != "skill" || p["min"] != 0.0 || p["value"] != 3.0 || p["real"] != false {
		t.Errorf("describe's first parameter: %v", p)
	}
	if o := d["options"].([]any)[0].(map[string]any); o["short"] == "" || len(o["values"].([]any)) < 2 || o["default"] != o["values"].([]any)[0] {
		t.Errorf("describe's first option: %v", o)
	}
	if o := d["outputs"].([]any)[0].(map[string]any); o["kind"] != "distribution" || o["primary"] != true {
		t.Errorf("describe's first output: %v", o)
	}

	if c := h.postJSON("/api/check", `{"expr": "4d6kh3"}`); c["ok"] != true || fmt.Sprint(c["mechanics"]) != "[expr]" {
		t.Errorf("check of a good expression: %v", c)
	}
	rule := `[[rule]]\nid = \"house.check\"\nsummary = \"d20 + bonus\"\n[rule.params]\nbonus = { default = 3, min = -10, max = 20 }\n[rule.events]\nsuccess = \"d20 + bonus >= 12\"\n`
	if c := h.postJSON("/api/check", `{"rules": "`+rule+`"}`); c["ok"] != true || fmt.Sprint(c["mechanics"]) != "[house.check]" {
		t.Errorf("check of a good rule: %v", c)
	}
	c := h.postJSON("/api/check", `{"rules": "[[rule]]\nid = \"house.x\"\nsummary = \"s\"\n[rule.vars]\nv = \"d6 + zz\"\n"}`)
	if errs := c["errors"].([]any); c["ok"] != false || len(errs) != 1 || fmt.Sprint(errs[0]) != `map[col:11 line:5 message:rules.toml:5: rule house.x, vars.v: line 1, column 6: unknown name "zz"]` {
		t.Errorf("check of a bad rule: %v", c)
	}

	r := h.postJSON("/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": 3, "opt.tie": "success"}}`)
	res := r["result"].(map[string]any)
	if r["command"] != "oddsmith exact ag.skill_test --set skill=3 --set opt.tie=success" || r["agreement"] != nil ||
		res["engine"] != "exact" || r["fingerprint"] != res["fingerprint"] || res["params"].(map[string]any)["skill"] != 3.0 {
		t.Errorf("run: %v", r)
	}
	r = h.postJSON("/api/run", `{"rules": "`+rule+`", "set": {"bonus": 5}}`)
	if r["command"] != "oddsmith exact --rules house.check.toml house.check --set bonus=5" || r["result"].(map[string]any)["rule"] != "house.check.toml" {
		t.Errorf("run of a rule text: %v", r)
	}
	r = h.postJSON("/api/run", `{"expr": "d20 + bonus >= tn", "set": {"bonus": 2, "tn": 11}}`)
	if r["command"] != "oddsmith exact --expr 'd20 + bonus >= tn' --set bonus=2 --set tn=11" || r["result"].(map[string]any)["exact"].(map[string]any)["events"].(map[string]any)["success"] != "3/5" {
		t.Errorf("run of an expression: %.300v", r)
	}

	cmp := h.postJSON("/api/compare", `{"a": {"mechanic": "ag.skill_test", "set": {"skill": 3}}, "b": {"set": {"tn": 6}}}`)
	if cmp["command"] != "oddsmith compare ag.skill_test --set skill=3 -- --set tn=6" || cmp["result"].(map[string]any)["b"] == nil {
		t.Errorf("compare: %v", cmp)
	}
	sw := h.postJSON("/api/sweep", `{"mechanic": "ag.skill_test", "vary": ["tn=1..14"], "metric": ["event:success"]}`)
	if sw["command"] != "oddsmith sweep ag.skill_test --vary tn=1..14 --metric event:success" || len(sw["result"].(map[string]any)["points"].([]any)) != 14 {
		t.Errorf("sweep: %v", sw)
	}
	sv := h.postJSON("/api/solve", `{"mechanic": "ag.skill_test", "set": {"skill": 3}, "vary": ["tn=1..14"], "target": ["event:success=0.6"]}`)
	if sv["command"] != "oddsmith solve ag.skill_test --set skill=3 --vary tn=1..14 --target event:success=0.6" ||
		!strings.Contains(sv["text"].(string), "tn=7 gives event:success") || sv["result"] == nil {
		t.Errorf("solve: %v", sv)
	}

	for _, c := range []struct{ query, ctype, file, magic string }{
		{"format=csv", "text/csv; charset=utf-8", "ag_skill_test.csv", "# oddsmith"},
		{"format=json", "application/json", "ag_skill_test.json", `{"mechanic":"ag.skill_test"`},
		{"format=png", "image/png", "ag_skill_test_pmf.png", "\x89PNG"},
		{"format=png&plot=cdf", "image/png", "ag_skill_test_cdf.png", "\x89PNG"},
		{"format=png&plot=bands", "image/png", "ag_skill_test_bands.png", "\x89PNG"},
		{"format=png&plot=tail&var=total", "image/png", "ag_skill_test_tail.png", "\x89PNG"},
	} {
		resp, err := http.Post(h.base+"/api/export?"+c.query, "application/json", strings.NewReader(`{"mechanic": "ag.skill_test"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype || resp.Header.Get("Content-Disposition") != `attachment; filename="`+c.file+`"` ||
			!bytes.HasPrefix(b, []byte(c.magic)) {
			t.Errorf("export %s: %d %v %.80q", c.query, resp.StatusCode, resp.Header, b)
		}
	}
	resp, err = http.Post(h.base+"/api/export?format=png&plot=survival", "application/json", strings.NewReader(`{"mechanic": "gm.suffocation"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("export of a process's survival: %d %.200s", resp.StatusCode, b)
	}

	for _, path := range []string{"/", "/assets/index.html"} {
		req, _ := http.NewRequest("GET", h.base+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("ETag") == "" ||
			resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
		}
		req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
		if resp, err := http.DefaultTransport.RoundTrip(req); err != nil || resp.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s again with its ETag: %v %v", path, resp, err)
		}
	}
	for _, path := range []string{"/assets/nothing.js", "/assets/../serve.go", "/api/nothing", "/favicon.ico"} {
		if resp, err := http.Get(h.base + path); err != nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %v %v", path, resp, err)
		}
	}
}

// readLines reads a stream of JSON lines.
func readLines(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// A simulation answers JSON lines: progress while it runs, then the result
// with its command and the cross-check against the exact engine, the one
// the tests use, on the trials simulated.
func TestSimulationStream(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	resp, err := http.Post(h.base+"/api/run", "application/json", strings.NewReader(`{"mechanic": "ag.skill_test", "engine": "sim", "trials": 200000, "seed": 7}`))
	if err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" || len(lines) == 0 {
		t.Fatalf("%d %v %v", resp.StatusCode, resp.Header, lines)
	}
	last := lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		if p, ok := l["progress"].(float64); !ok || p < 0 || p >= 1 {
			t.Errorf("not a progress line: %v", l)
		}
	}
	res := last["result"].(map[string]any)
	ag := last["agreement"].(map[string]any)
	if last["command"] != "oddsmith sim ag.skill_test -n 200000 -s 7" || res["engine"] != "sim" || res["trials"] != 200000.0 || res["seed"] != 7.0 {
		t.Errorf("result line: %v", last)
	}
	if ag["exact_available"] != true || ag["ok"] != true || ag["p"].(float64) <= 1e-6 || ag["df"].(float64) < 1 || !strings.Contains(ag["text"].(string), "agree") {
		t.Errorf("agreement: %v", ag)
	}

	// A simulator-only mechanic has nothing to check against, and says so.
	resp, err = http.Post(h.base+"/api/run", "application/json", strings.NewReader(`{"mechanic": "d20w.initiative.crowd", "engine": "sim", "trials": 20000}`))
	if err != nil {
		t.Fatal(err)
	}
	lines = readLines(t, resp.Body)
	resp.Body.Close()
	ag = lines[len(lines)-1]["agreement"].(map[string]any)
	if ag["exact_available"] != false || ag["chi2"] != nil || !strings.Contains(ag["text"].(string), "no exact model") {
		t.Errorf("agreement of a simulator-only mechanic: %v", ag)
	}
	// The exact engine refuses it.
	code, b := h.post("/api/run", `{"mechanic": "d20w.initiative.crowd"}`)
	if code != 400 || !strings.Contains(errorOf(t, b), "has no exact model") {
		t.Errorf("exact run of a simulator-only mechanic: %d %s", code, b)
	}
}

// Bad input answers 400 with the command line's one-line message.
func TestBadInput(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	cases := []struct{ path, body, want string }{
		{"/api/run", `{"mechanic": "ag.nothing"}`, `unknown mechanic "ag.nothing" (run 'oddsmith list')`},
		{"/api/run", `{}`, "missing mechanic id (run 'oddsmith list')"},
		{"/api/run", `{"mechanic": "ag.skill_test", "expr": "d6"}`, `give a mechanic id or --expr, not both (got "ag.skill_test")`},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": 99}}`, "ag.skill_test: parameter skill=99 out of range [0, 40]"},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skil": 3}}`, `ag.skill_test: unknown parameter or option "skil" (did you mean skill? run 'oddsmith describe ag.skill_test')`},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"opt.tie": "maybe"}}`, `ag.skill_test: option ag.core.opt.tie="maybe" is not one of band, cost_accepted, success, failure`},
		{"/api/run", `{"expr": "3d6 + "}`, "--expr: line 1, column 7: expected an expression, found end of input"},
		{"/api/run", `{"mechanic": "ag.skill_test", "engine": "guess"}`, `unknown engine "guess" (want exact or sim)`},
		{"/api/run", `{"mechanic": "ag.skill_test", "engine": "sim", "trials": 0}`, "--trials must be between 1 and 1125899906842624, got 0"},
		{"/api/sweep", `{"mechanic": "ag.skill_test"}`, "sweep needs one or two --vary name=a..b[:step] (or name=v1,v2,…), got 0"},
		{"/api/solve", `{"mechanic": "ag.skill_test", "vary": ["tn=1..14"], "target": ["event:nothing=0.5"]}`, `ag.skill_test has no event "nothing"`},
		{"/api/compare", `{"a": {"mechanic": "ag.skill_test"}}`, `compare needs two configurations: "a" and "b"`},
		{"/api/compare", `{"a": {"mechanic": "ag.skill_test"}, "b": {"set": {"tn": 0}}}`, "B: ag.skill_test: parameter tn=0 out of range [1, 60]"},
		{"/api/export?format=gif", `{"mechanic": "ag.skill_test"}`, `unknown export format "gif" (want csv, json or png)`},
		{"/api/export?format=png&plot=pie", `{"mechanic": "ag.skill_test"}`, `unknown plot "pie"`},
		{"/api/run", `{`, "malformed JSON request: unexpected EOF"},
		{"/api/run", `{"mechanic": "ag.skill_test"} {}`, "malformed JSON request: more than one JSON value"},
		{"/api/run", `{"mechanic": "ag.skill_test", "colour": "red"}`, `malformed JSON request: json: unknown field "colour"`},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": [3]}}`, `"set": skill must be a number or a word`},
		{"/api/run", `[1, 2]`, "malformed JSON request"},
		{"/api/check", `{}`, `check takes "expr"`},
		{"/api/run", `{"rules": "[[rule]]\nid = \"house.a\"\nsummary = \"s\"\n[rule.vars]\nv = \"d6\"\n[[rule]]\nid = \"house.b\"\nsummary = \"s\"\n[rule.vars]\nv = \"d8\"\n"}`,
			`the rule text defines 2 rules (house.a, house.b): name one in "rule"`},
		{"/api/run", `{"rules": "[[rule]]\nid = \"ag.skill_test\"\nsummary = \"s\"\n[rule.vars]\nv = \"d6\"\n"}`, "rule ag.skill_test: the id is taken"},
	}
	for _, c := range cases {
		code, b := h.post(c.path, c.body)
		if code != http.StatusBadRequest {
			t.Errorf("POST %s %s: %d %s, want 400", c.path, c.body, code, b)
			continue
		}
		if got := errorOf(t, b); !strings.Contains(got, c.want) {
			t.Errorf("POST %s %s: error %q, want %q", c.path, c.body, got, c.want)
		}
	}
	// A method an endpoint does not take, and the answer is still JSON.
	resp, err := http.Get(h.base + "/api/run")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(errorOf(t, b), "takes POST") {
		t.Errorf("GET /api/run: %d %s", resp.StatusCode, b)
	}
}

// A request whose Host is not the server's (DNS rebinding) is refused, and
// so is a POST from another origin or a cross-site fetch; the server's own
// origin, under either of its names, is served.
func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(h.base, "http://"))
	do := func(method, path, host, origin, site string) (int, []byte) {
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"mechanic": "ag.skill_test"}`)
		}
		req, _ := http.NewRequest(method, h.base+path, body)
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s %s answers with CORS headers", method, path)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	own := "127.0.0.1:" + port
	cases := []struct {
		method, path, host, origin, site string
		want                             int
	}{
		{"GET", "/", "evil.example:" + port, "", "", 403},
		{"GET", "/api/mechanics", "evil.example", "", "", 403},
		{"POST", "/api/run", "evil.example:" + port, "http://evil.example:" + port, "", 403},
		{"GET", "/", "127.0.0.1:1", "", "", 403},
		{"POST", "/api/run", own, "http://evil.example", "", 403},
		{"POST", "/api/run", own, "null", "", 403},
		{"POST", "/api/run", own, "http://localhost:" + port, "", 403}, // another origin than the page's
		{"POST", "/api/run", own, "", "cross-site", 403},
		{"POST", "/api/run", own, "http://" + own, "same-origin", 200},
		{"POST", "/api/run", "localhost:" + port, "http://localhost:" + port, "", 200},
		{"POST", "/api/run", "LOCALHOST:" + port, "", "", 200},
		{"POST", "/api/run", own, "", "", 200}, // curl
		{"GET", "/api/mechanics", "[::1]:" + port, "", "", 200},
		{"GET", "/", own, "http://evil.example", "", 200}, // a read: the browser keeps the answer from the other origin
	}
	for _, c := range cases {
		code, b := do(c.method, c.path, c.host, c.origin, c.site)
		if code != c.want {
			t.Errorf("%s %s Host %q Origin %q Sec-Fetch-Site %q: %d %s, want %d", c.method, c.path, c.host, c.origin, c.site, code, b, c.want)
		}
		if code == 403 && !strings.HasPrefix(errorOf(t, b), "forbidden: ") {
			t.Errorf("refusal %s", b)
		}
	}
}

// Bodies over the limits are refused with 413: the request, and rule text
// within a request that fits.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	huge := `{"expr": "` + strings.Repeat("1+", MaxBody) + `1"}`
	code, b := h.post("/api/run", huge)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(errorOf(t, b), "over 1048576 bytes") {
		t.Errorf("a body over the limit: %d %s", code, b)
	}
	text := strings.Repeat("# a comment line of a rule file\n", MaxRuleText/32+1)
	body, _ := json.Marshal(map[string]any{"rules": text})
	code, b = h.post("/api/check", string(body))
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(errorOf(t, b), "the rule text is") {
		t.Errorf("rule text over the limit: %d %s", code, b)
	}
	// An expression within the limits but with a model too large for the
	// memory budget is bad input, not a crash.
	hm := start(t, Options{MemoryBytes: 1 << 20})
	code, b = hm.post("/api/run", `{"expr": "1000d1000"}`)
	if code != http.StatusBadRequest || !strings.Contains(errorOf(t, b), "the memory budget is 1 MiB") {
		t.Errorf("a model over the memory budget: %d %.300s", code, b)
	}
}

// A client that sends its request slowly is cut off by the server's
// timeouts: one that never finishes its headers, and one that never
// finishes its body. Nothing is timed: the test waits for the server to
// act (the deadline on the test's side only keeps a broken server from
// hanging the test).
func TestSlowClients(t *testing.T) {
	t.Parallel()
	h := start(t, Options{ReadHeaderTimeout: 100 * time.Millisecond, ReadTimeout: 200 * time.Millisecond})
	addr := strings.TrimPrefix(h.base, "http://")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(time.Minute))
		return c
	}
	// Headers that never end.
	c := dial()
	fmt.Fprintf(c, "GET /api/mechanics HTTP/1.1\r\nHost: %s\r\nX-Slow: 1", addr)
	got, err := io.ReadAll(c)
	c.Close()
	if err != nil {
		t.Errorf("slow headers: the server did not close the connection: %v", err)
	} else if len(got) > 0 && !bytes.HasPrefix(got, []byte("HTTP/1.1 408")) {
		t.Errorf("slow headers answered %q", got)
	}
	// A body that never ends.
	c = dial()
	fmt.Fprintf(c, "POST /api/run HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"mechanic\": ", addr)
	got, err = io.ReadAll(c)
	c.Close()
	if err != nil {
		t.Errorf("slow body: the server did not close the connection: %v", err)
	} else if len(got) > 0 && !bytes.HasPrefix(got, []byte("HTTP/1.1 408")) {
		t.Errorf("slow body answered %q", got)
	}
	// And the server goes on.
	if resp, err := http.Get(h.base + "/api/mechanics"); err != nil || resp.StatusCode != 200 {
		t.Errorf("after slow clients: %v %v", resp, err)
	}
}

// With every slot and the queue taken, more requests are answered 503
// busy at once; none hangs, the ones admitted finish when the work can go
// on, and the server keeps serving.
func TestBusy(t *testing.T) {
	t.Parallel()
	h := start(t, Options{Heavy: 1, Queue: 1})
	started, queued := make(chan struct{}, 16), make(chan struct{}, 16)
	h.s.hooks.started = func() { started <- struct{}{} }
	h.s.hooks.queued = func() { queued <- struct{}{} }
	type answer struct {
		code int
		body []byte
	}
	admitted := make(chan answer, 2)
	go func() { c, b := h.post("/api/run", `{"mechanic": "test.gated"}`); admitted <- answer{c, b} }()
	<-started // the first holds the slot, waiting in its model's builder
	go func() { c, b := h.post("/api/describe", `{"mechanic": "test.gated"}`); admitted <- answer{c, b} }()
	<-queued // the second waits for it
	const more = 20
	var wg sync.WaitGroup
	var busy, other atomic.Int64
	for range more {
		wg.Go(func() {
			code, b := h.post("/api/run", `{"mechanic": "ag.skill_test"}`)
			if code == http.StatusServiceUnavailable && strings.HasPrefix(errorOf(t, b), "busy: ") {
				busy.Add(1)
			} else {
				other.Add(1)
				t.Errorf("with the slot and the queue taken: %d %s", code, b)
			}
		})
	}
	wg.Wait()
	if busy.Load() != more {
		t.Errorf("%d of %d answered busy", busy.Load(), more)
	}
	// GET requests compute nothing: they are served meanwhile.
	if resp, err := http.Get(h.base + "/api/mechanics"); err != nil || resp.StatusCode != 200 {
		t.Errorf("GET while busy: %v %v", resp, err)
	}
	close(h.fx.gate)
	for range 2 {
		if a := <-admitted; a.code != 200 {
			t.Errorf("an admitted request: %d %s", a.code, a.body)
		}
	}
	if code, b := h.post("/api/run", `{"mechanic": "ag.skill_test"}`); code != 200 {
		t.Errorf("after the rush: %d %s", code, b)
	}
}

// A simulation stops when its client goes away: the simulator's workers
// stop (its progress reports its end only after every worker has
// returned), far short of the trials asked, and the slot is free again.
func TestSimulationCancelledWithClient(t *testing.T) {
	t.Parallel()
	h := start(t, Options{Heavy: 1, Queue: -1})
	stopped, finished := make(chan struct{}), make(chan error, 1)
	var once sync.Once
	h.s.hooks.progress = func(done, total int64) {
		if done == total {
			once.Do(func() { close(stopped) })
		}
	}
	h.s.hooks.finished = func(err error) { finished <- err }
	const trials = int64(1) << 44
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", h.base+"/api/run", strings.NewReader(fmt.Sprintf(`{"mechanic": "test.counted", "engine": "sim", "trials": %d}`, trials)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"progress":`) {
		t.Fatalf("first line %q (%v)", sc.Text(), sc.Err())
	}
	cancel()
	resp.Body.Close()
	<-stopped
	calls := h.fx.calls.Load()
	if err := <-finished; !errors.Is(err, context.Canceled) {
		t.Errorf("the computation ended with %v, want context.Canceled", err)
	}
	if calls == 0 || calls >= trials/1000 {
		t.Errorf("%d trials simulated of %d: the work did not run, or did not stop", calls, trials)
	}
	if again := h.fx.calls.Load(); again != calls {
		t.Errorf("trials went on after the simulator reported its end: %d, then %d", calls, again)
	}
	// The slot is free: the next request runs.
	if code, b := h.post("/api/run", `{"mechanic": "ag.skill_test"}`); code != 200 {
		t.Errorf("after the cancelled simulation: %d %s", code, b)
	}
}

// A computation past the time limit answers 400 with the limit and the
// command to run it elsewhere.
func TestTimeLimit(t *testing.T) {
	t.Parallel()
	h := start(t, Options{TimeLimit: 20 * time.Millisecond})
	code, b := h.post("/api/run", `{"mechanic": "test.gated"}`) // its builder waits until the test ends
	if msg := errorOf(t, b); code != 400 || !strings.Contains(msg, "time limit of 20ms") || !strings.Contains(msg, "oddsmith exact test.gated") {
		t.Errorf("past the time limit: %d %s", code, b)
	}
}

// A panic in a handler (a bug) answers 500 with one line, and the server
// keeps serving.
func TestPanicIsInternalError(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})
	for _, path := range []string{"/api/run", "/api/describe"} {
		code, b := h.post(path, `{"mechanic": "test.panic"}`)
		if code != http.StatusInternalServerError || errorOf(t, b) != "internal error: broken on purpose" {
			t.Errorf("POST %s of a broken mechanic: %d %s", path, code, b)
		}
	}
	if code, b := h.post("/api/run", `{"mechanic": "ag.skill_test"}`); code != 200 {
		t.Errorf("after the panics: %d %s", code, b)
	}
}

// The rule files given to the server are listed as the system "rules"
// and run with their file in the command; a file that does not compile
// stops New.
func TestRuleFiles(t *testing.T) {
	t.Parallel()
	h := start(t, Options{RuleFiles: []string{"../examples/rules/ag_skill.toml"}})
	resp, err := http.Get(h.base + "/api/mechanics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(`{"id":"rules","name":"Your rules"`)) || !bytes.Contains(b, []byte(`"system":"rules"`)) {
		t.Errorf("mechanics list with a rule file: %s", b)
	}
	var list struct{ Mechanics []struct{ ID, System string } }
	json.Unmarshal(b, &list)
	id := ""
	for _, m := range list.Mechanics {
		if m.System == "rules" {
			id = m.ID
		}
	}
	r := h.postJSON("/api/run", `{"mechanic": "`+id+`"}`)
	if r["command"] != "oddsmith exact --rules ../examples/rules/ag_skill.toml "+id {
		t.Errorf("run of a rule of a file: %v", r["command"])
	}
	if _, err := New(Options{RuleFiles: []string{"testdata/none.toml"}}); err == nil || !mechanics.IsInput(err) {
		t.Errorf("a missing rule file: %v", err)
	}
}

// The addresses: loopback ones need no flag, and the URL printed for an
// address of every interface is a loopback one.
func TestAddresses(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{"127.0.0.1:0": true, "localhost:8080": true, "[::1]:0": true, "0.0.0.0:80": false, ":8080": false, "192.168.1.2:0": false, "nonsense": false} {
		if IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) = %v", addr, !want)
		}
	}
	if u := URL(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}); u != "http://127.0.0.1:8080/" {
		t.Errorf("URL of 0.0.0.0:8080 = %s", u)
	}
	if u := URL(&net.TCPAddr{IP: net.IPv6loopback, Port: 9}); u != "http://[::1]:9/" {
		t.Errorf("URL of [::1]:9 = %s", u)
	}
	if got := command("exact", "--expr", "d20 + it's", "--set", "a=1"); got != `oddsmith exact --expr 'd20 + it'\''s' --set a=1` {
		t.Errorf("command = %s", got)
	}
}

// The page and every asset, as sent to a browser that takes gzip, come to
// less than 300 KB: the first load of the workbench.
func TestFirstLoadUnder300KB(t *testing.T) {
	t.Parallel()
	a, err := loadAssets()
	if err != nil {
		t.Fatal(err)
	}
	if a.files["index.html"] == nil {
		t.Fatal("no web/index.html embedded")
	}
	total := 0
	for name, f := range a.files {
		n := len(f.body)
		if f.gz != nil {
			n = len(f.gz)
		}
		total += n
		t.Logf("%s: %d bytes sent (%d raw)", name, n, len(f.body))
	}
	if total >= 300_000 {
		t.Errorf("the page and its assets are %d bytes sent, over 300 KB", total)
	}
}
