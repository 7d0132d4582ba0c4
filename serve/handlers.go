package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

// compute runs work in a computation slot, under the time limit and
// cancelled with the request; cmd is the command line that does the same,
// for the message when the time runs out. The slot is given back when the
// work has returned, even if the request went away before.
func (s *Server) compute(r *http.Request, cmd string, work func(ctx context.Context) error) error {
	release, err := s.acquire(r.Context())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opt.TimeLimit)
	defer cancel()
	err = within(ctx, func() error { return work(ctx) }, func(err error) {
		release()
		if s.hooks.finished != nil {
			s.hooks.finished(err)
		}
	})
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		return &timeLimitError{limit: s.opt.TimeLimit.String(), command: cmd}
	}
	return err
}

// within runs f on a goroutine of its own and returns its error, or ctx's
// as soon as ctx is done (a model's builder does not watch the context;
// the abandoned call ends on its own). after is called on that goroutine
// with f's error once f has returned, before within returns f's error. A
// panic in f is raised again on the caller's goroutine.
func within(ctx context.Context, f func() error, after func(error)) error {
	type outcome struct {
		err error
		bug any
		hit bool
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if x := recover(); x != nil {
				o = outcome{err: fmt.Errorf("internal error: %v", x), bug: x, hit: true}
			}
			after(o.err)
			done <- o
		}()
		o.err = f()
	}()
	select {
	case o := <-done:
		if o.hit {
			panic(o.bug)
		}
		return o.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decodeTarget reads a request and resolves the configuration it names;
// when either fails it answers the error itself and ok is false.
func (s *Server) decodeTarget(w *response, r *http.Request) (req *request, t *target, ok bool) {
	req, err := decode(w, r)
	if err == nil {
		t, err = s.resolve(&req.config, "")
	}
	if err != nil {
		fail(w, r.Context(), err)
		return nil, nil, false
	}
	return req, t, true
}

// runnable is decodeTarget and the request's engine (exact unless it asks
// for the simulator, a million trials by default), checked against the
// mechanic; when anything fails it answers the error and ok is false.
func (s *Server) runnable(w *response, r *http.Request) (req *request, t *target, eng study.Engine, eargs []string, ok bool) {
	if req, t, ok = s.decodeTarget(w, r); !ok {
		return
	}
	eng, eargs, err := s.engineOf(req, engine.Exact, 1_000_000, false)
	if err == nil {
		err = eng.Validate(t.m)
	}
	if err != nil {
		fail(w, r.Context(), err)
		return nil, nil, study.Engine{}, nil, false
	}
	return req, t, eng, eargs, true
}

// decodeEngine reads a request and the engine it asks for (exact unless
// it asks for the simulator, trials by default), for the requests that
// check the engine against their mechanics themselves; when either fails
// it answers the error and ok is false.
func (s *Server) decodeEngine(w *response, r *http.Request, trials int64) (req *request, eng study.Engine, eargs []string, ok bool) {
	req, err := decode(w, r)
	if err == nil {
		eng, eargs, err = s.engineOf(req, engine.Exact, trials, true)
	}
	if err != nil {
		fail(w, r.Context(), err)
		return nil, study.Engine{}, nil, false
	}
	return req, eng, eargs, true
}

// describe answers POST /api/describe: what 'oddsmith describe' says, as
// data and as its text.
func (s *Server) describe(w *response, r *http.Request) {
	req, t, ok := s.decodeTarget(w, r)
	if !ok {
		return
	}
	cmd := command(append([]string{"describe"}, t.args...)...)
	var out map[string]any
	err := s.compute(r, cmd, func(context.Context) error {
		spec, err := t.m.Model(t.c)
		if err != nil {
			return err
		}
		out, err = describeJSON(t, spec, len(req.Set) > 0)
		return err
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	out["command"] = cmd
	writeJSON(w, http.StatusOK, t.about(out))
}

// describeJSON is a mechanic's description at a configuration.
func describeJSON(t *target, spec *mechanics.Spec, custom bool) (map[string]any, error) {
	m := t.m
	var text bytes.Buffer
	if err := reports.WriteDescription(&text, m, spec, custom); err != nil {
		return nil, err
	}
	params := []map[string]any{}
	for _, p := range m.Params {
		params = append(params, map[string]any{"name": p.Name, "doc": p.Doc, "default": p.Default, "min": p.Min, "max": p.Max,
			"real": p.Real, "value": t.c.Params[p.Name]})
	}
	options := []map[string]any{}
	for _, o := range m.Options {
		short := "opt." + o.Short()
		if o.IsChoice() {
			short = o.Short()
		}
		options = append(options, map[string]any{"name": o.Name, "short": short, "doc": o.Doc, "values": o.Values,
			"default": o.Default(), "value": t.c.Options[o.Name]})
	}
	outputs := []map[string]any{}
	for _, o := range reports.Outputs(m, spec) {
		row := map[string]any{"kind": o.Kind, "name": o.Name, "doc": o.Doc, "unit": o.Unit, "primary": o.Primary, "formula": o.Formula, "part": o.Part}
		if o.Labels != nil {
			row["labels"] = o.Labels
		}
		outputs = append(outputs, row)
	}
	return map[string]any{"id": m.ID, "summary": m.Summary, "doc": m.Doc, "engines": reports.Engines(m, spec, custom),
		"sim_only": m.MCOnly, "params": params, "options": options, "outputs": outputs, "text": text.String()}, nil
}

// checkError is one problem with a rule's text, at its place.
type checkError struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// check answers POST /api/check: whether a one-line expression (read in
// its dialect) or a rule file's text reads and compiles, and where it does
// not (HTTP 200 either way); how the expression was read and the forms
// another dice tool reads otherwise (a strict request: an error at its
// place).
func (s *Server) check(w *response, r *http.Request) {
	req, err := decode(w, r)
	if err == nil && (req.Expr == "") == (req.Rules == nil) {
		err = mechanics.Invalid(`check takes "expr" (a one-line expression) or "rules" (a rule file's text), one of them`)
	}
	if err == nil {
		_, err = dialectOf(&req.config) // not a problem of the text
	}
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	var ids []string
	var file, src string
	var rd *exprReading
	ws := []warning{}
	err = s.compute(r, "", func(context.Context) error {
		if req.Expr != "" {
			src = req.Expr
			text, read, warned, err := readExpr(&req.config)
			if err != nil {
				return err
			}
			m, err := study.Lookup(s.base, nil, text)
			if err != nil {
				return err
			}
			ids, rd, ws = []string{m.ID}, read, warned
			return nil
		}
		file, src = "rules.toml", *req.Rules
		rs, err := rules.ParseFile(file, []byte(src))
		if err != nil {
			return err
		}
		var ms []*mechanics.Mechanic
		var readings []string
		for _, r := range rs {
			ms = append(ms, r.Mechanic())
			ids = append(ids, r.ID)
			readings = append(readings, r.Readings...)
		}
		if _, err = s.base.Overlay(ms); err != nil {
			return err
		}
		ws, err = ruleWarnings(readings, file, req.Strict)
		return err
	})
	var se *strictError
	switch {
	case err == nil:
		out := map[string]any{"ok": true, "mechanics": ids, "warnings": ws}
		if rd != nil {
			out["expr"] = rd
		}
		writeJSON(w, http.StatusOK, out)
	case errors.As(err, &se):
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "errors": []checkError{{se.at.Line, se.at.Col, oneLine(se.at.Message)}}})
	case mechanics.IsInput(err):
		at := rules.Locate(err, file, src)
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "errors": []checkError{{at.Line, at.Col, oneLine(err.Error())}}})
	default:
		fail(w, r.Context(), err)
	}
}

// run answers POST /api/run: the exact engine's result, or the
// simulator's as a stream of progress lines and the result.
func (s *Server) run(w *response, r *http.Request) {
	_, t, eng, eargs, ok := s.runnable(w, r)
	if !ok {
		return
	}
	if eng.Kind == engine.Sim {
		s.simulate(w, r, t, eng, eargs)
		return
	}
	cmd := command(append([]string{"exact"}, t.args...)...)
	var res []byte
	var fp string
	err := s.compute(r, cmd, func(ctx context.Context) error {
		out, err := eng.Run(ctx, t.m, t.c)
		if err != nil {
			return err
		}
		fp = out.Fingerprint
		res, err = resultJSON(out)
		return err
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	writeJSON(w, http.StatusOK, t.about(map[string]any{"result": json.RawMessage(res), "command": cmd, "fingerprint": fp, "agreement": nil}))
}

// resultJSON is a result as 'oddsmith exact|sim --format json' prints it.
func resultJSON(r *engine.Result) ([]byte, error) {
	return written(func(w io.Writer) error { return reports.WriteJSON(w, r) })
}

// written is what write writes, without its final line break: a JSON
// document as the command line prints it, to embed in an answer.
func written(write func(io.Writer) error) ([]byte, error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}

// compare answers POST /api/compare: 'oddsmith compare --format json'.
func (s *Server) compare(w *response, r *http.Request) {
	req, eng, eargs, ok := s.decodeEngine(w, r, 1_000_000)
	if !ok {
		return
	}
	cmp, args, sides, err := s.compareSides(req)
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	cmp.Engine = eng
	if err := cmp.Validate(); err != nil {
		fail(w, r.Context(), err)
		return
	}
	cmd := command(append(append([]string{"compare"}, args...), eargs...)...)
	var res []byte
	err = s.compute(r, cmd, func(ctx context.Context) error {
		rep, err := cmp.Run(ctx)
		if err != nil {
			return err
		}
		res, err = written(func(w io.Writer) error { return reports.WriteCompare(w, rep, "json") })
		return err
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": json.RawMessage(res), "command": cmd, "a": sides[0].about(map[string]any{}), "b": sides[1].about(map[string]any{})})
}

// compareSides resolves both sides of a comparison, as 'oddsmith compare
// A -- B' does: B without a mechanic is A's at A's settings with B's on
// top. args are the command line's words for both; sides are A and B
// resolved.
func (s *Server) compareSides(req *request) (*study.Compare, []string, [2]*target, error) {
	var sides [2]*target
	if req.A == nil || req.B == nil {
		return nil, nil, sides, mechanics.Invalid(`compare needs two configurations: "a" and "b"`)
	}
	// As on the command line, a side's settings that do not apply are
	// said to be that side's; a mechanic that is not found is named.
	a, err := s.lookup(req.A, "")
	if err != nil {
		return nil, nil, sides, err
	}
	if err := a.configure(req.A.Set); err != nil {
		return nil, nil, sides, onSide("A", err)
	}
	cmp := &study.Compare{A: study.CompareSide{Mechanic: a.m, Config: a.c}}
	if !req.B.named() {
		args := append(append(append([]string{}, a.args...), a.flags()...), "--")
		cb := a.c.Clone()
		for _, kv := range req.B.Set {
			if err := a.m.Set(cb, kv); err != nil {
				return nil, nil, sides, onSide("B", err)
			}
			args = append(args, "--set", kv)
		}
		cmp.B = study.CompareSide{Mechanic: a.m, Config: cb}
		return cmp, args, [2]*target{a, a}, nil
	}
	suffix := ""
	if req.A.Rules != nil && req.B.Rules != nil && *req.A.Rules != *req.B.Rules {
		suffix = ".b" // two texts, two files: B's is named apart
	}
	b, err := s.lookup(req.B, suffix)
	if err != nil {
		return nil, nil, sides, err
	}
	if err := b.configure(req.B.Set); err != nil {
		return nil, nil, sides, onSide("B", err)
	}
	cmp.B = study.CompareSide{Mechanic: b.m, Config: b.c}
	return cmp, compareArgs(a, b), [2]*target{a, b}, nil
}

// compareArgs are the command line's words for both sides of a
// comparison: --dialect and --strict apply to both there, so they are
// given once; where the sides' expressions are in different dialects, a
// side's expression in another dialect than oddsmith's is given in
// oddsmith's form instead.
func compareArgs(a, b *target) []string {
	d := a.dialect
	if d == notation.Oddsmith || b.expr != nil && b.dialect != d {
		d = b.dialect
	}
	mixed := a.expr != nil && a.dialect != d || b.expr != nil && b.dialect != d
	side := func(t *target) []string {
		args := append([]string{}, t.args...)
		if mixed && t.dialect != notation.Oddsmith && len(args) > 1 && args[0] == "--expr" {
			args[1] = t.expr.Canonical
		}
		return args
	}
	args := side(a)
	if d != notation.Oddsmith && !mixed {
		args = append(args, "--dialect", d.String())
	}
	if a.strict {
		args = append(args, "--strict")
	}
	return append(append(args, "--"), side(b)...)
}

// onSide says which side of a comparison an error is about.
func onSide(side string, err error) error { return fmt.Errorf("%s: %w", side, err) }

// sweep answers POST /api/sweep: 'oddsmith sweep --format json'.
func (s *Server) sweep(w *response, r *http.Request) {
	req, eng, eargs, ok := s.decodeEngine(w, r, 200_000)
	if !ok {
		return
	}
	t, err := s.resolve(&req.config, "")
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	if len(req.Vary) == 0 || len(req.Vary) > 2 {
		fail(w, r.Context(), mechanics.Invalid("sweep needs one or two --vary name=a..b[:step] (or name=v1,v2,…), got %d", len(req.Vary)))
		return
	}
	sw := &study.Sweep{Mechanic: t.m, Base: t.c, Metrics: req.Metric, Delta: strings.TrimSpace(req.Delta), Engine: eng}
	args := append([]string{"sweep"}, t.args...)
	for _, v := range req.Vary {
		a, err := study.ParseAxis(v)
		if err != nil {
			fail(w, r.Context(), err)
			return
		}
		sw.Axes = append(sw.Axes, a)
		args = append(args, "--vary", v)
	}
	for _, m := range req.Metric {
		args = append(args, "--metric", m)
	}
	if sw.Delta != "" {
		args = append(args, "--delta", sw.Delta)
	}
	if err := sw.Validate(); err != nil {
		fail(w, r.Context(), err)
		return
	}
	cmd := command(append(args, eargs...)...)
	var res []byte
	err = s.compute(r, cmd, func(ctx context.Context) error {
		pts, err := sw.Run(ctx, func() {})
		if err != nil {
			return err
		}
		res, err = written(func(w io.Writer) error { return reports.WriteSweep(w, sw.Report(pts, "heatmap"), "json") })
		return err
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	writeJSON(w, http.StatusOK, t.about(map[string]any{"result": json.RawMessage(res), "command": cmd}))
}

// solve answers POST /api/solve: 'oddsmith solve --format json', and its
// text answer.
func (s *Server) solve(w *response, r *http.Request) {
	req, eng, eargs, ok := s.decodeEngine(w, r, 200_000)
	if !ok {
		return
	}
	var tol float64
	if req.Tolerance != nil {
		if tol = *req.Tolerance; !(tol > 0) {
			fail(w, r.Context(), mechanics.Invalid("--tolerance must be a positive number, got %g", tol))
			return
		}
	}
	t, err := s.resolve(&req.config, "")
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	if len(req.Vary) == 0 {
		fail(w, r.Context(), mechanics.Invalid("solve needs --vary name=a..b (the parameter to solve for)"))
		return
	}
	sv := &study.Solve{Mechanic: t.m, Base: t.c, Vary: req.Vary, Targets: req.Target, Minimize: req.Minimize, Maximize: req.Maximize,
		Tolerance: tol, Engine: eng}
	if err := sv.Validate(); err != nil {
		fail(w, r.Context(), err)
		return
	}
	args := append([]string{"solve"}, t.args...)
	for _, v := range req.Vary {
		args = append(args, "--vary", v)
	}
	for _, v := range req.Target {
		args = append(args, "--target", v)
	}
	if req.Minimize != "" {
		args = append(args, "--minimize", req.Minimize)
	}
	if req.Maximize != "" {
		args = append(args, "--maximize", req.Maximize)
	}
	if req.Tolerance != nil {
		args = append(args, "--tolerance", fmt.Sprint(tol))
	}
	cmd := command(append(args, eargs...)...)
	var res, text []byte
	err = s.compute(r, cmd, func(ctx context.Context) error {
		out, err := sv.Run(ctx, func() {})
		if err != nil {
			return err
		}
		var j, t bytes.Buffer
		if err := out.Write(&j, "json"); err != nil {
			return err
		}
		if err := out.Write(&t, "text"); err != nil {
			return err
		}
		res, text = bytes.TrimSpace(j.Bytes()), t.Bytes()
		return nil
	})
	if err != nil {
		fail(w, r.Context(), err)
		return
	}
	writeJSON(w, http.StatusOK, t.about(map[string]any{"result": json.RawMessage(res), "text": string(text), "command": cmd}))
}
