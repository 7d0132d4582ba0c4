package e2e

// A MOCK of the workbench API, for developing the page before the real
// server (package serve) is merged: it answers the contract of
// docs/workbench-api.md by running the oddsmith binary. It is used only
// when the binary has no 'serve' command.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

type mockConfig struct {
	Mechanic string         `json:"mechanic"`
	Expr     *string        `json:"expr"`
	Rules    *string        `json:"rules"`
	Rule     string         `json:"rule"`
	Set      map[string]any `json:"set"`
	Engine   string         `json:"engine"`
	Trials   int            `json:"trials"`
	Seed     int            `json:"seed"`
	Vary     []string       `json:"vary"`
	Metric   []string       `json:"metric"`
	Target   []string       `json:"target"`
	A        *mockConfig    `json:"a"`
	B        *mockConfig    `json:"b"`
}

type mock struct {
	bin, dir, web string
	n             int
}

func startMock(t *testing.T, bin, web string) string {
	m := &mock{bin: bin, dir: t.TempDir(), web: web}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: m}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

func (m *mock) args(c *mockConfig) []string {
	var a []string
	switch {
	case c.Expr != nil:
		a = append(a, "--expr", *c.Expr)
	case c.Rules != nil:
		m.n++
		f := filepath.Join(m.dir, fmt.Sprintf("rule%d.toml", m.n))
		_ = os.WriteFile(f, []byte(*c.Rules), 0o644)
		a = append(a, "--rules", f)
		if c.Rule != "" {
			a = append(a, c.Rule)
		}
	default:
		a = append(a, c.Mechanic)
	}
	for k, v := range c.Set {
		a = append(a, "--set", fmt.Sprintf("%s=%v", k, v))
	}
	return a
}

func (m *mock) cli(ctx context.Context, args ...string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, m.bin, args...).Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return out, fmt.Errorf("%s", strings.TrimSpace(string(ee.Stderr)))
	}
	return out, err
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func command(verb string, a []string) string {
	q := []string{"oddsmith", verb}
	for _, s := range a {
		if strings.ContainsAny(s, " <>=|&") && !strings.HasPrefix(s, "-") && strings.Contains(s, " ") {
			s = "'" + s + "'"
		}
		q = append(q, s)
	}
	return strings.Join(q, " ")
}

func (m *mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if p == "" {
			p = "index.html"
		}
		if p == "api/mechanics" {
			m.mechanics(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(m.web, strings.TrimPrefix(p, "assets/")))
		return
	}
	var c mockConfig
	if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
		writeJSON(w, 400, map[string]string{"error": err.Error()})
		return
	}
	ctx := r.Context()
	fail := func(err error) { writeJSON(w, 400, map[string]string{"error": err.Error()}) }
	switch r.URL.Path {
	case "/api/describe":
		out, err := m.cli(ctx, append([]string{"describe"}, m.args(&c)...)...)
		if err != nil {
			fail(err)
			return
		}
		writeJSON(w, 200, parseDescribe(string(out)))
	case "/api/check":
		m.check(w, ctx, &c)
	case "/api/run":
		if c.Engine == "sim" {
			m.sim(w, ctx, &c)
			return
		}
		a := m.args(&c)
		out, err := m.cli(ctx, append(append([]string{"exact"}, a...), "--format", "json")...)
		if err != nil {
			fail(err)
			return
		}
		var res map[string]any
		_ = json.Unmarshal(out, &res)
		writeJSON(w, 200, map[string]any{"result": res, "command": command("exact", a), "fingerprint": res["fingerprint"], "agreement": nil})
	case "/api/compare":
		a := append(append(m.args(c.A), "--"), m.args(c.B)...)
		out, err := m.cli(ctx, append(append([]string{"compare"}, a...), "--format", "json")...)
		if err != nil {
			fail(err)
			return
		}
		var res map[string]any
		_ = json.Unmarshal(out, &res)
		writeJSON(w, 200, map[string]any{"result": res, "command": command("compare", a)})
	case "/api/sweep", "/api/solve":
		verb := strings.TrimPrefix(r.URL.Path, "/api/")
		a := m.args(&c)
		for _, v := range c.Vary {
			a = append(a, "--vary", v)
		}
		for _, v := range c.Metric {
			a = append(a, "--metric", v)
		}
		for _, v := range c.Target {
			a = append(a, "--target", v)
		}
		out, err := m.cli(ctx, append(append([]string{verb}, a...), "--format", "json")...)
		if err != nil {
			fail(err)
			return
		}
		var res map[string]any
		_ = json.Unmarshal(out, &res)
		resp := map[string]any{"result": res, "command": command(verb, a)}
		if verb == "solve" {
			txt, _ := m.cli(ctx, append([]string{verb}, a...)...)
			resp["text"] = string(txt)
		}
		writeJSON(w, 200, resp)
	case "/api/export":
		f := r.URL.Query().Get("format")
		if f == "png" { // the mock draws no chart: a blank PNG
			w.Header().Set("Content-Disposition", `attachment; filename="mock.png"`)
			_ = png.Encode(w, image.NewGray(image.Rect(0, 0, 8, 8)))
			return
		}
		a := m.args(&c)
		out, err := m.cli(ctx, append(append([]string{"exact"}, a...), "--format", f)...)
		if err != nil {
			fail(err)
			return
		}
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", a[0]+"."+f))
		_, _ = w.Write(out)
	default:
		http.NotFound(w, r)
	}
}

func (m *mock) mechanics(w http.ResponseWriter, r *http.Request) {
	out, _ := m.cli(r.Context(), "list")
	var ms []map[string]any
	for _, line := range strings.Split(string(out), "\n")[1:] {
		f := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), 3)
		if len(f) < 3 {
			continue
		}
		ms = append(ms, map[string]any{"id": f[0], "system": strings.SplitN(f[0], ".", 2)[0], "summary": f[2], "sim_only": f[1] == "sim only"})
	}
	writeJSON(w, 200, map[string]any{"systems": []map[string]string{
		{"id": "ag", "name": "Autonomous Garden"}, {"id": "grim", "name": "GRIMWIRE"}, {"id": "bd", "name": "Bursting bonus dice"},
		{"id": "gm", "name": "Gods & Monsters"}, {"id": "d20w", "name": "d20 wiki"}}, "mechanics": ms})
}

var lineCol = regexp.MustCompile(`(?:(\d+): .*?)?line (\d+), column (\d+): (.*)$`)

func (m *mock) check(w http.ResponseWriter, ctx context.Context, c *mockConfig) {
	var a []string
	if c.Expr != nil {
		a = []string{"exact", "--expr", *c.Expr, "--format", "json"}
	} else {
		c.Rule = ""
		a = append([]string{"list"}, m.args(c)...)
	}
	out, err := m.cli(ctx, a...)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "oddsmith: ")
		e := map[string]any{"line": 1, "col": 1, "message": msg}
		if g := lineCol.FindStringSubmatch(msg); g != nil {
			l, _ := strconv.Atoi(g[2])
			col, _ := strconv.Atoi(g[3])
			if g[1] != "" {
				l, _ = strconv.Atoi(g[1])
			}
			e = map[string]any{"line": l, "col": col, "message": g[4]}
		} else if g := regexp.MustCompile(`\.toml:(\d+): (.*)$`).FindStringSubmatch(msg); g != nil {
			l, _ := strconv.Atoi(g[1])
			e = map[string]any{"line": l, "col": 1, "message": g[2]}
		}
		writeJSON(w, 200, map[string]any{"ok": false, "errors": []any{e}})
		return
	}
	ids := []string{"expr"}
	if c.Rules != nil {
		ids = nil
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) > 0 && strings.Contains(*c.Rules, `"`+f[0]+`"`) {
				ids = append(ids, f[0])
			}
		}
	}
	writeJSON(w, 200, map[string]any{"ok": true, "mechanics": ids})
}

func (m *mock) sim(w http.ResponseWriter, ctx context.Context, c *mockConfig) {
	a := m.args(c)
	n := c.Trials
	if n == 0 {
		n = 100000
	}
	args := append(append([]string{"sim"}, a...), "-n", strconv.Itoa(n), "-s", strconv.Itoa(c.Seed), "--format", "json", "-q")
	cmd := exec.CommandContext(ctx, m.bin, args...)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		writeJSON(w, 500, map[string]string{"error": err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	fl := w.(http.Flusher)
	done := make(chan []byte)
	go func() { b, _ := io.ReadAll(bufio.NewReader(stdout)); done <- b }()
	p := 0.0
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case b := <-done:
			_ = cmd.Wait()
			var res map[string]any
			if json.Unmarshal(b, &res) != nil {
				_ = json.NewEncoder(w).Encode(map[string]string{"error": "simulation failed"})
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"progress": 1})
			_ = json.NewEncoder(w).Encode(map[string]any{"result": res, "command": command("sim", append(a, "-n", strconv.Itoa(n), "-s", strconv.Itoa(c.Seed))),
				"agreement": map[string]any{"exact_available": true, "ok": true, "p": 0.5, "chi2": 1.0, "text": "MOCK: the simulation agrees with the exact distribution (χ² test, p = 0.5)"}})
			return
		case <-tick.C:
			p += (1 - p) * 0.05
			_ = json.NewEncoder(w).Encode(map[string]any{"progress": p})
			fl.Flush()
		case <-ctx.Done():
			return
		}
	}
}

var (
	paramRow = regexp.MustCompile(`^(\S+)\s{2,}(\S+)\s{2,}(\S+)( \(real\))?\s*(.*)$`)
	optRow   = regexp.MustCompile(`^  (\S+) \((\S+)\) = (.*)$`)
	outRow   = regexp.MustCompile(`^  (distribution|event|band|process)( \(primary\))?\s+(\S+)( \[([^\]]+)\])?\s*(.*)$`)
)

func parseDescribe(text string) map[string]any {
	lines := strings.Split(text, "\n")
	id, summary, _ := strings.Cut(lines[0], " — ")
	d := map[string]any{"id": id, "summary": summary, "text": text}
	var params, options, outputs []map[string]any
	var doc []string
	sec := "doc"
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "Engines: "):
			d["engines"] = strings.TrimPrefix(l, "Engines: ")
			sec = ""
			continue
		case strings.HasPrefix(l, "PARAMETER"):
			sec = "params"
			continue
		case strings.HasPrefix(l, "Options"):
			sec = "options"
			continue
		case strings.HasPrefix(l, "Outputs"):
			sec = "outputs"
			continue
		case strings.HasPrefix(l, "Outcome") || strings.HasPrefix(l, "Example") || strings.HasPrefix(l, "Model"):
			sec = ""
			continue
		}
		switch sec {
		case "doc":
			if strings.TrimSpace(l) != "" {
				doc = append(doc, l)
			}
		case "params":
			if g := paramRow.FindStringSubmatch(l); g != nil {
				lo, hi, _ := strings.Cut(g[3], "..")
				num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
				params = append(params, map[string]any{"name": g[1], "default": num(g[2]), "min": num(lo), "max": num(hi), "real": g[4] != "", "doc": g[5]})
			}
		case "options":
			if g := optRow.FindStringSubmatch(l); g != nil {
				vals := strings.Split(g[3], " | ")
				options = append(options, map[string]any{"name": g[1], "short": g[2], "values": vals, "default": vals[0], "doc": ""})
			} else if len(options) > 0 && strings.TrimSpace(l) != "" {
				options[len(options)-1]["doc"] = strings.TrimSpace(l)
			}
		case "outputs":
			if g := outRow.FindStringSubmatch(l); g != nil && g[1] != "process" {
				rest := regexp.MustCompile(`\s{2,}`).Split(g[6], -1)
				outputs = append(outputs, map[string]any{"kind": g[1], "primary": g[2] != "", "name": g[3], "unit": g[5], "doc": rest[len(rest)-1]})
			}
		}
	}
	d["doc"] = strings.Join(doc, "\n")
	d["params"], d["options"], d["outputs"] = orEmpty(params), orEmpty(options), orEmpty(outputs)
	return d
}

func orEmpty(v []map[string]any) []map[string]any {
	if v == nil {
		return []map[string]any{}
	}
	return v
}
