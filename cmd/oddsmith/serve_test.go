package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// served is 'oddsmith serve' running in the test's process, as the
// command line runs it.
type served struct {
	base string
	stop func(sig syscall.Signal) (code int, stderr string)
}

// startServe runs 'oddsmith serve ARGS' until stop, which cancels it as a
// signal would and returns its exit status.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	out, w := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"serve"}, args...), w, &errOut)
		w.Close()
		done <- code
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "oddsmith workbench: http://127.0.0.1:") || !strings.HasSuffix(line, "/\n") {
		cancel(nil)
		t.Fatalf("serve printed %q (%v), stderr %q", line, err, errOut.String())
	}
	go io.Copy(io.Discard, out)
	s := &served{base: strings.TrimSuffix(strings.TrimPrefix(line, "oddsmith workbench: "), "/\n")}
	stopped := false
	s.stop = func(sig syscall.Signal) (int, string) {
		stopped = true
		cancel(signalled{sig})
		return <-done, errOut.String()
	}
	t.Cleanup(func() {
		if !stopped {
			s.stop(syscall.SIGINT)
		}
	})
	return s
}

// post sends a request to the server.
func (s *served) post(t *testing.T, path, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(s.base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// splitCommand splits a command line the way a POSIX shell splits the
// commands the server writes: words apart by spaces, single quotes, and a
// backslash before a quote outside them.
func splitCommand(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	in, any := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			w.WriteByte(c)
		case c == '\'':
			in, any = true, true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			any = true
		case c == ' ':
			if any {
				words = append(words, w.String())
			}
			w.Reset()
			any = false
		default:
			w.WriteByte(c)
			any = true
		}
	}
	if in {
		t.Fatalf("unterminated quote in %q", line)
	}
	if any {
		words = append(words, w.String())
	}
	return words
}

// houseRule is a rule file's text for the tests.
const houseRule = `[[rule]]
id = "house.check"
summary = "d20 + bonus against a target number"

[rule.params]
bonus = { default = 3, min = -10, max = 20 }

[rule.let]
nat = "d20"
total = "nat + bonus"

[rule.events]
success = "total >= 12 or nat == 20"

[rule.vars]
margin = "total - 12"
`

// The command every answer carries reproduces it: run through the command
// line's entry point with --format json, it prints the very JSON the API
// answered (compacted: solve indents it; the text for describe; the file
// for an export).
func TestServeCommandsReproduceTheView(t *testing.T) {
	dir := t.TempDir()
	ruleFile, err := filepath.Abs("../../examples/rules/ag_skill.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--rules", ruleFile)
	t.Chdir(dir) // where the rule text's file and the exports are written
	if err := os.WriteFile("house.check.toml", []byte(houseRule), 0o666); err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(houseRule)
	rule := string(text)
	cases := []struct{ path, body string }{
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": 3, "opt.tie": "success"}}`},
		{"/api/run", `{"mechanic": "gm.suffocation"}`},
		{"/api/run", `{"expr": "d20 + bonus >= tn", "set": {"bonus": 2, "tn": 11}}`},
		{"/api/run", `{"expr": "4d6kh3"}`},
		{"/api/run", `{"expr": "3d6>3", "dialect": "roll20"}`},
		{"/api/run", `{"expr": "4d6!k2", "dialect": "foundry", "strict": true, "engine": "sim", "trials": 5000}`},
		{"/api/compare", `{"a": {"expr": "3d6>3", "dialect": "roll20"}, "b": {"expr": "4d6>3", "dialect": "roll20"}}`},
		{"/api/compare", `{"a": {"expr": "3d6>3", "dialect": "roll20"}, "b": {"expr": "2d6cs>=4"}}`},
		{"/api/sweep", `{"expr": "(n)d6>3", "dialect": "dice-roller", "set": {"n": 2}, "vary": ["n=1..3"]}`},
		{"/api/run", `{"rules": ` + rule + `, "set": {"bonus": 5}}`},
		{"/api/run", `{"mechanic": "my.ag.skill", "set": {"skill": 4}}`},
		{"/api/run", `{"mechanic": "ag.skill_test", "engine": "sim", "trials": 30000, "seed": 5}`},
		{"/api/run", `{"mechanic": "bd.skirmish", "engine": "sim", "trials": 5000}`},
		{"/api/compare", `{"a": {"mechanic": "ag.skill_test", "set": {"skill": 3}}, "b": {"set": {"tn": 6}}}`},
		{"/api/compare", `{"a": {"mechanic": "ag.skill_test"}, "b": {"mechanic": "my.ag.skill"}}`},
		{"/api/compare", `{"a": {"expr": "2d6"}, "b": {"expr": "d12"}, "engine": "sim", "trials": 20000}`},
		{"/api/compare", `{"a": {"rules": ` + rule + `}, "b": {"rules": ` + rule + `, "set": {"bonus": 6}}}`},
		{"/api/sweep", `{"mechanic": "ag.skill_test", "vary": ["tn=1..14"], "metric": ["event:success"], "delta": "tn"}`},
		{"/api/sweep", `{"mechanic": "ag.skill_test", "vary": ["skill=0..4", "opt.tie=band,success"]}`},
		{"/api/sweep", `{"expr": "d20 + b >= 11", "vary": ["b=0..5"], "engine": "sim", "trials": 10000, "seed": 2}`},
		{"/api/solve", `{"mechanic": "ag.skill_test", "set": {"skill": 3}, "vary": ["tn=1..14"], "target": ["event:success=0.6"]}`},
		{"/api/solve", `{"mechanic": "gm.fall", "vary": ["height=0..400"], "target": ["event:damage_reaches_survival>=0.1"], "tolerance": 0.5}`},
		{"/api/describe", `{"mechanic": "ag.skill_test", "set": {"tn": 7}}`},
		{"/api/describe", `{"rules": ` + rule + `}`},
	}
	for _, c := range cases {
		resp, b := s.post(t, c.path, c.body)
		if resp.StatusCode != 200 {
			t.Errorf("POST %s %s: %d %s", c.path, c.body, resp.StatusCode, b)
			continue
		}
		if resp.Header.Get("Content-Type") == "application/x-ndjson" {
			lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
			b = lines[len(lines)-1]
		}
		var ans struct {
			Result  json.RawMessage
			Command string
			Text    string
		}
		if err := json.Unmarshal(b, &ans); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		words := splitCommand(t, ans.Command)
		if len(words) < 2 || words[0] != "oddsmith" {
			t.Errorf("%s %s: command %q", c.path, c.body, ans.Command)
			continue
		}
		args := words[1:]
		if c.path != "/api/describe" {
			args = append(args, "--format", "json")
		}
		if words[1] == "sim" {
			args = append(args, "-q")
		}
		code, stdout, stderr := runCLI(context.Background(), args...)
		if code != 0 {
			t.Errorf("%s (from %s %s): exit %d: %s", ans.Command, c.path, c.body, code, stderr)
			continue
		}
		if c.path == "/api/describe" {
			if ans.Text == "" || stdout != ans.Text {
				t.Errorf("%s: the CLI prints\n%s\nthe API answered\n%s", ans.Command, stdout, ans.Text)
			}
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(stdout)); err != nil {
			t.Errorf("%s: %v in %q", ans.Command, err, stdout)
		}
		if got := compact.String(); got != string(ans.Result) {
			t.Errorf("%s (from %s %s): the CLI prints\n%.400s\nthe API answered\n%.400s", ans.Command, c.path, c.body, got, ans.Result)
		}
	}

	// An export's file is the one its command writes.
	for _, format := range []string{"csv", "json"} {
		resp, b := s.post(t, "/api/export?format="+format, `{"mechanic": "ag.skill_test", "set": {"skill": 4}}`)
		cmd := resp.Header.Get("X-Oddsmith-Command")
		if resp.StatusCode != 200 || !strings.HasSuffix(cmd, "--format "+format+" -o ag_skill_test."+format) {
			t.Errorf("export %s: %d %q", format, resp.StatusCode, cmd)
			continue
		}
		if code, _, stderr := runCLI(context.Background(), splitCommand(t, cmd)[1:]...); code != 0 {
			t.Errorf("%s: exit %d: %s", cmd, code, stderr)
			continue
		}
		if file, err := os.ReadFile("ag_skill_test." + format); err != nil || !bytes.Equal(file, b) {
			t.Errorf("%s wrote %.300q (%v); the API answered %.300q", cmd, file, err, b)
		}
	}
}

// A bad request is answered 400 with the line the command line prints for
// the same input (without its "oddsmith: ").
func TestServeErrorsAreTheCLIs(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t)
	t.Chdir(dir)
	broken := strings.Replace(houseRule, `"nat + bonus"`, `"nat + bonus +"`, 1)
	if err := os.WriteFile("house.check.toml", []byte(broken), 0o666); err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(broken)
	cases := []struct {
		path, body string
		args       []string
	}{
		{"/api/run", `{"mechanic": "ag.nothing"}`, []string{"exact", "ag.nothing"}},
		{"/api/run", `{}`, []string{"exact"}},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": 99}}`, []string{"exact", "ag.skill_test", "--set", "skill=99"}},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skil": 2}}`, []string{"exact", "ag.skill_test", "--set", "skil=2"}},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"skill": "two"}}`, []string{"exact", "ag.skill_test", "--set", "skill=two"}},
		{"/api/run", `{"mechanic": "ag.skill_test", "set": {"opt.tie": "maybe"}}`, []string{"exact", "ag.skill_test", "--set", "opt.tie=maybe"}},
		{"/api/run", `{"expr": "3d6 +"}`, []string{"exact", "--expr", "3d6 +"}},
		{"/api/run", `{"expr": "3d6", "dialect": "r20"}`, []string{"exact", "--expr", "3d6", "--dialect", "r20"}},
		{"/api/run", `{"expr": "3d6>", "dialect": "roll20"}`, []string{"exact", "--expr", "3d6>", "--dialect", "roll20"}},
		{"/api/run", `{"expr": "3d6>3", "strict": true}`, []string{"exact", "--expr", "3d6>3", "--strict"}},
		{"/api/run", `{"expr": "d(s)", "set": {"s": 0}}`, []string{"exact", "--expr", "d(s)", "--set", "s=0"}},
		{"/api/run", `{"mechanic": "d20w.initiative.crowd"}`, []string{"exact", "d20w.initiative.crowd"}},
		{"/api/run", `{"mechanic": "ag.skill_test", "engine": "sim", "trials": 0}`, []string{"sim", "ag.skill_test", "-n", "0"}},
		{"/api/run", `{"rules": ` + string(text) + `, "rule": "house.check"}`, []string{"exact", "--rules", "house.check.toml", "house.check"}},
		{"/api/describe", `{"mechanic": "ag.nothing"}`, []string{"describe", "ag.nothing"}},
		{"/api/sweep", `{"mechanic": "ag.skill_test"}`, []string{"sweep", "ag.skill_test"}},
		{"/api/sweep", `{"mechanic": "ag.skill_test", "vary": ["tn=5..1"]}`, []string{"sweep", "ag.skill_test", "--vary", "tn=5..1"}},
		{"/api/sweep", `{"mechanic": "ag.skill_test", "vary": ["tn=1..5"], "metric": ["event:nothing"]}`, []string{"sweep", "ag.skill_test", "--vary", "tn=1..5", "--metric", "event:nothing"}},
		{"/api/solve", `{"mechanic": "ag.skill_test", "vary": ["tn=1..14"], "target": ["event:nothing=0.5"]}`, []string{"solve", "ag.skill_test", "--vary", "tn=1..14", "--target", "event:nothing=0.5"}},
		{"/api/solve", `{"mechanic": "ag.skill_test", "target": ["event:success=0.5"]}`, []string{"solve", "ag.skill_test", "--target", "event:success=0.5"}},
		{"/api/compare", `{"a": {"mechanic": "ag.skill_test"}, "b": {"set": {"tn": 0}}}`, []string{"compare", "ag.skill_test", "--", "--set", "tn=0"}},
		{"/api/compare", `{"a": {"mechanic": "ag.nothing"}, "b": {"mechanic": "ag.skill_test"}}`, []string{"compare", "ag.nothing", "--", "ag.skill_test"}},
		{"/api/compare", `{"a": {"expr": "d6 > 3"}, "b": {"expr": "2d6"}}`, []string{"compare", "--expr", "d6 > 3", "--", "--expr", "2d6"}},
	}
	for _, c := range cases {
		resp, b := s.post(t, c.path, c.body)
		var ans struct{ Error string }
		json.Unmarshal(b, &ans)
		code, _, stderr := runCLI(context.Background(), c.args...)
		want := strings.TrimPrefix(strings.SplitN(stderr, "\n", 2)[0], "oddsmith: ")
		if resp.StatusCode != 400 || code != exitBadInput || ans.Error != want {
			t.Errorf("POST %s %s: %d %q\n  oddsmith %s: exit %d %q", c.path, c.body, resp.StatusCode, ans.Error, strings.Join(c.args, " "), code, want)
		}
	}
}

// SIGINT and SIGTERM stop the server with 130 and 143, cancelling the
// simulation in flight: its client's stream ends without a result.
func TestServeStopsOnSignals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, exitInterrupted}, {syscall.SIGTERM, exitTerminated}} {
		s := startServe(t)
		resp, err := http.Post(s.base+"/api/run", "application/json", strings.NewReader(`{"mechanic": "ag.radiation", "engine": "sim", "trials": 100000000000}`))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), `{"progress":`) {
			t.Fatalf("first line %q", sc.Text())
		}
		code, stderr := s.stop(c.sig)
		rest, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if code != c.code || !strings.Contains(stderr, "oddsmith: interrupted") {
			t.Errorf("after %v: exit %d, stderr %q; want %d", c.sig, code, stderr, c.code)
		}
		if bytes.Contains(rest, []byte(`"result"`)) {
			t.Errorf("after %v the stream went on to a result: %.200s", c.sig, rest)
		}
	}
}

// A real process: the signals give 130 and 143.
func TestServeProcessSignals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, exitInterrupted}, {syscall.SIGTERM, exitTerminated}} {
		stdout, stderr := interruptCommand(t, []string{"serve"}, c.sig, c.code)
		if !strings.HasPrefix(stdout, "oddsmith workbench: http://127.0.0.1:") || !strings.Contains(stderr, "interrupted") {
			t.Errorf("after %v: stdout %q, stderr %q", c.sig, stdout, stderr)
		}
	}
}

// serve's flags: a non-loopback address needs --allow-remote, and with it
// the server warns; no arguments; a rule file that does not compile stops
// it before it listens.
func TestServeFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "0.0.0.0:0"}, "--addr 0.0.0.0:0 is not a loopback address"},
		{[]string{"serve", "extra"}, `serve takes no arguments, got "extra"`},
		{[]string{"serve", "--memory", "1"}, "--memory"},
		{[]string{"serve", "--time-limit", "0s"}, "--time-limit must be positive"},
		{[]string{"serve", "--rules", "testdata/nothing.toml"}, "cannot read rules"},
	} {
		code, stdout, stderr := runCLI(context.Background(), c.args...)
		if code != exitBadInput || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	s := startServe(t, "--addr", "0.0.0.0:0", "--allow-remote")
	if resp, err := http.Get(s.base + "/api/mechanics"); err != nil || resp.StatusCode != 200 {
		t.Errorf("GET with --allow-remote: %v %v", resp, err)
	}
	if _, stderr := s.stop(syscall.SIGINT); !strings.Contains(stderr, "oddsmith serve: warning: listening on ") {
		t.Errorf("no warning for a non-loopback address: %q", stderr)
	}
}
