package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A configuration's expression is read in its dialect and computed in
// oddsmith's form of it, which every answer names; in oddsmith's own
// dialect the forms another tool reads otherwise come back as warnings.
func TestDialects(t *testing.T) {
	t.Parallel()
	h := start(t, Options{})

	// Roll20's 3d6>3 counts the dice of at least 3: 0..3 successes, mean 2.
	out := h.postJSON("/api/run", `{"expr": "3d6>3", "dialect": "roll20"}`)
	var ans struct {
		Result struct {
			Rule          string
			Distributions map[string][][2]float64
			Stats         map[string]struct{ Mean float64 }
		}
		Command  string
		Expr     exprReading
		Warnings []warning
	}
	remarshal(t, out, &ans)
	if ans.Expr != (exprReading{Text: "3d6>3", Dialect: "roll20", Title: "Roll20", Canonical: "3d6cs>=3"}) {
		t.Errorf("expr: %+v", ans.Expr)
	}
	if ans.Command != "oddsmith exact --expr '3d6>3' --dialect roll20" {
		t.Errorf("command: %s", ans.Command)
	}
	if ans.Warnings == nil || len(ans.Warnings) != 0 {
		t.Errorf("warnings: %#v, want []", ans.Warnings)
	}
	d := ans.Result.Distributions["value"]
	if ans.Result.Rule != "3d6cs>=3" || ans.Result.Stats["value"].Mean != 2 || len(d) != 4 || d[0][0] != 0 || d[3][0] != 3 {
		t.Errorf("Roll20's 3d6>3: %+v, want the successes 0..3 with mean 2", ans.Result)
	}

	// The same text in oddsmith's dialect is the total against 3, with a
	// warning placed at the > that names Roll20's reading.
	out = h.postJSON("/api/run", `{"expr": "3d6>3"}`)
	remarshal(t, out, &ans)
	if ans.Expr.Dialect != "oddsmith" || ans.Expr.Canonical != "3d6 > 3" && ans.Expr.Canonical != "3d6>3" {
		t.Errorf("expr: %+v", ans.Expr)
	}
	if len(ans.Warnings) != 1 || ans.Warnings[0].Line != 1 || ans.Warnings[0].Col != 4 ||
		!strings.HasPrefix(ans.Warnings[0].Message, "--expr: line 1, column 4: 3d6>3: here the total") || !strings.Contains(ans.Warnings[0].Message, "Roll20") {
		t.Errorf("warnings: %+v", ans.Warnings)
	}

	// Every endpoint that computes says how it read the expression.
	for _, c := range []struct{ path, body string }{
		{"/api/describe", `{"expr": "3d6>3", "dialect": "roll20"}`},
		{"/api/sweep", `{"expr": "(n)d6>3", "dialect": "roll20", "set": {"n": 2}, "vary": ["n=1..3"]}`},
		{"/api/solve", `{"expr": "(n)d6>3", "dialect": "roll20", "vary": ["n=1..6"], "target": ["mean:value=2"]}`},
		{"/api/check", `{"expr": "3d6>3", "dialect": "roll20"}`},
	} {
		out := h.postJSON(c.path, c.body)
		e, _ := out["expr"].(map[string]any)
		if e == nil || e["dialect"] != "roll20" || !strings.Contains(e["canonical"].(string), "cs>=3") {
			t.Errorf("POST %s %s: expr %v", c.path, c.body, out["expr"])
		}
		if w, ok := out["warnings"].([]any); !ok || len(w) != 0 {
			t.Errorf("POST %s %s: warnings %v", c.path, c.body, out["warnings"])
		}
		if cmd, _ := out["command"].(string); c.path != "/api/check" && !strings.Contains(cmd, "--dialect roll20") {
			t.Errorf("POST %s %s: command %q", c.path, c.body, cmd)
		}
	}
	// The simulator's last line too.
	code, b := h.post("/api/run", `{"expr": "3d6>3", "dialect": "foundry", "engine": "sim", "trials": 1000}`)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var last map[string]any
	if code != http.StatusOK || json.Unmarshal([]byte(lines[len(lines)-1]), &last) != nil || last["expr"] == nil || last["warnings"] == nil {
		t.Errorf("sim: %d %s", code, b)
	}

	// A comparison says each side's reading, and gives --dialect once.
	out = h.postJSON("/api/compare", `{"a": {"expr": "3d6>3", "dialect": "roll20"}, "b": {"expr": "4d6>3", "dialect": "roll20"}}`)
	if cmd := out["command"].(string); cmd != "oddsmith compare --expr '3d6>3' --dialect roll20 -- --expr '4d6>3'" {
		t.Errorf("compare: command %q", cmd)
	}
	if a, _ := out["a"].(map[string]any); a == nil || a["expr"].(map[string]any)["canonical"] != "3d6cs>=3" {
		t.Errorf("compare: a %v", out["a"])
	}
	// Sides in different dialects: the other dialect's side in
	// oddsmith's form.
	out = h.postJSON("/api/compare", `{"a": {"expr": "3d6>3", "dialect": "roll20"}, "b": {"expr": "2d6cs>=4"}}`)
	if cmd := out["command"].(string); cmd != "oddsmith compare --expr '3d6cs>=3' -- --expr '2d6cs>=4'" {
		t.Errorf("compare: command %q", cmd)
	}
	if b, _ := out["b"].(map[string]any); b == nil || len(b["warnings"].([]any)) != 1 {
		t.Errorf("compare: b %v", out["b"])
	}

	// A rule text's forms that another tool reads otherwise, at their
	// lines.
	rule := `[[rule]]\nid = \"house.pool\"\nsummary = \"s\"\n[rule.vars]\nhits = \"5d10>=8\"\n`
	out = h.postJSON("/api/check", `{"rules": "`+rule+`"}`)
	ws, _ := out["warnings"].([]any)
	if out["ok"] != true || len(ws) != 1 || ws[0].(map[string]any)["line"] != 5.0 || !strings.Contains(ws[0].(map[string]any)["message"].(string), "5d10>=8") {
		t.Errorf("check rules: %v", out)
	}
	out = h.postJSON("/api/run", `{"rules": "`+rule+`"}`)
	if ws, _ := out["warnings"].([]any); len(ws) != 1 || !strings.HasPrefix(ws[0].(map[string]any)["message"].(string), "house.pool.toml:5: ") {
		t.Errorf("run rules: %v", out["warnings"])
	}

	// strict refuses them, with the command line's line; check places it.
	code, b = h.post("/api/run", `{"expr": "3d6>3", "strict": true}`)
	if got := errorOf(t, b); code != http.StatusBadRequest || !strings.HasPrefix(got, "--expr: line 1, column 4: 3d6>3: ") || !strings.HasSuffix(got, "(--strict refuses what another dice tool reads otherwise)") {
		t.Errorf("strict: %d %s", code, b)
	}
	out = h.postJSON("/api/check", `{"expr": "3d6>3", "strict": true}`)
	if errs, _ := out["errors"].([]any); out["ok"] != false || len(errs) != 1 || errs[0].(map[string]any)["col"] != 4.0 {
		t.Errorf("check strict: %v", out)
	}
	code, b = h.post("/api/run", `{"rules": "`+rule+`", "strict": true}`)
	if got := errorOf(t, b); code != http.StatusBadRequest || !strings.Contains(got, `a rule's dialect = "roll20" reads it as Roll20 does`) {
		t.Errorf("strict rules: %d %s", code, b)
	}
	if out := h.postJSON("/api/run", `{"expr": "3d6>3", "dialect": "roll20", "strict": true}`); !strings.HasSuffix(out["command"].(string), "--dialect roll20 --strict") {
		t.Errorf("strict in Roll20: %v", out["command"])
	}

	// An unknown dialect and a text that does not read in the dialect
	// are bad input, one line; the server goes on serving.
	for _, c := range []struct{ path, body, want string }{
		{"/api/run", `{"expr": "3d6", "dialect": "r20"}`, `--dialect: unknown dialect "r20" (want oddsmith, roll20, foundry, dice-roller)`},
		{"/api/check", `{"expr": "3d6", "dialect": "r20"}`, `--dialect: unknown dialect "r20"`},
		{"/api/compare", `{"a": {"expr": "3d6"}, "b": {"expr": "3d6", "dialect": "anydice"}}`, `--dialect: unknown dialect "anydice"`},
		{"/api/run", `{"expr": "3d6>", "dialect": "roll20"}`, "--expr: line 1, column 5: "},
		{"/api/sweep", `{"expr": "3d6>", "dialect": "roll20", "vary": ["x=1..2"]}`, "(read as Roll20)"},
	} {
		code, b := h.post(c.path, c.body)
		if got := errorOf(t, b); code != http.StatusBadRequest || !strings.Contains(got, c.want) {
			t.Errorf("POST %s %s: %d %q, want 400 %q", c.path, c.body, code, got, c.want)
		}
	}
	out = h.postJSON("/api/check", `{"expr": "3d6>", "dialect": "roll20"}`)
	if errs, _ := out["errors"].([]any); out["ok"] != false || len(errs) != 1 || errs[0].(map[string]any)["col"] != 5.0 ||
		!strings.HasSuffix(errs[0].(map[string]any)["message"].(string), "(read as Roll20)") {
		t.Errorf("check in Roll20: %v", out)
	}
	if out := h.postJSON("/api/run", `{"expr": "2d6"}`); out["result"] == nil {
		t.Errorf("the server stopped serving: %v", out)
	}
}

// remarshal decodes a decoded answer again into v.
func remarshal(t *testing.T, in any, v any) {
	t.Helper()
	b, err := json.Marshal(in)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}
