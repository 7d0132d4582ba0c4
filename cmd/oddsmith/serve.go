package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/exec"
	"runtime"
	"time"

	"github.com/oddsmith/oddsmith/serve"
)

const serveUsage = "oddsmith serve [--addr 127.0.0.1:0] [--rules FILE]... [--open] [--memory SIZE] [--time-limit D] [--allow-remote]"

const serveLong = `Runs the designer's workbench: a web page, served from this binary with nothing fetched from the network,
where every mechanic and rule answers as you move a slider — browse and search the mechanics, explore one
(sliders for its parameters, its distribution, events and bands, the exact command that reproduces the view),
simulate it beside the exact result with the agreement check, write a one-liner or a rule file with its errors
marked where they are, compare two configurations, sweep a parameter and solve for a target, and download CSV,
JSON and PNG drawn by the same code as the command line. The URL holds the whole view, to bookmark or share.

It prints "oddsmith workbench: http://127.0.0.1:PORT/" and serves until SIGINT or SIGTERM (exit 130 or 143; the
computations in flight are cancelled). It binds the loopback interface (a free port unless --addr names one);
another address needs --allow-remote and prints a warning, since anyone who can reach it can use it. It answers
only requests whose Host is its own address or localhost, and computations only from its own page; it reads no
file but the --rules files; each computation runs under the --memory budget and the --time-limit, at most one
per CPU at once with a short queue behind (then it answers "busy"). docs/workbench-api.md documents its API.

Examples:
  oddsmith serve --open
  oddsmith serve --addr 127.0.0.1:8080 --rules examples/rules/ag_skill.toml`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("serve"), stdout)
	addr := fs.String("addr", "127.0.0.1:0", "listen on `HOST:PORT` (port 0: a free one); a non-loopback address needs --allow-remote")
	open := fs.Bool("open", false, "open the page in the default web browser")
	allowRemote := fs.Bool("allow-remote", false, "allow a non-loopback --addr: anyone who can reach it can run computations here")
	limit := fs.Duration("time-limit", serve.DefaultTimeLimit, "the longest one computation may run, e.g. `D` = 60s, 5m")
	memory := memoryFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("serve takes no arguments, got %q", fs.Arg(0))
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	if *limit <= 0 {
		return badInput("--time-limit must be positive, got %v", *limit)
	}
	loopback := serve.IsLoopback(*addr)
	if !loopback && !*allowRemote {
		return badInput("--addr %s is not a loopback address: every machine that can reach it could run computations here; add --allow-remote if that is what you want", *addr)
	}
	s, err := serve.New(serve.Options{Builtins: builtins(ctx), RuleFiles: *fs.ruleFiles, MemoryBytes: mem, TimeLimit: *limit,
		AllowRemote: *allowRemote, Log: stderr})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", *addr, err)
	}
	if !loopback {
		fmt.Fprintf(stderr, "oddsmith serve: warning: listening on %s, reachable from other machines: anyone who can reach it can run computations here (there is no password)\n", ln.Addr())
	}
	url := serve.URL(ln.Addr())
	fmt.Fprintf(stdout, "oddsmith workbench: %s\n", url)
	if *open && ctx.Err() == nil {
		openBrowser(url, stderr)
	}
	return s.Serve(ctx, ln)
}

// openBrowser opens url in the default browser, without waiting for it;
// a failure is only reported.
func openBrowser(url string, stderr io.Writer) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "oddsmith serve: cannot open a browser (%v): open %s yourself\n", err, url)
		return
	}
	go func() {
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
		}
	}()
}
