package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/systems"
)

// Limits of a request.
const (
	// MaxBody bounds a request's body; more is refused with 413.
	MaxBody = 1 << 20
	// MaxRuleText bounds the rule text of a request (a one-line
	// expression or a rule file's text); more is refused with 413.
	MaxRuleText = 256 << 10
	// DefaultTimeLimit bounds one computation.
	DefaultTimeLimit = 60 * time.Second
)

// Options configure a server.
type Options struct {
	// Builtins is the registry the rule files are laid over
	// (systems.Default when nil).
	Builtins *mechanics.Registry
	// RuleFiles are the rule files given on the command line: read once,
	// by New, and the only files the server reads.
	RuleFiles []string
	// MemoryBytes is the memory budget of one computation (0: the
	// engines' default).
	MemoryBytes int64
	// TimeLimit bounds one computation (0: DefaultTimeLimit).
	TimeLimit time.Duration
	// Heavy is how many computations run at once (0: GOMAXPROCS), Queue
	// how many more may wait for one of them (0: twice Heavy; -1: none);
	// beyond that a request is answered 503 busy.
	Heavy, Queue int
	// AllowRemote accepts a non-loopback address: the Host header may then
	// also name any address of this machine, or its host name.
	AllowRemote bool
	// Timeouts of the HTTP server (0: ReadHeaderTimeout 10 s, ReadTimeout
	// 30 s, IdleTimeout 2 min): a client that sends its request slowly is
	// cut off.
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	// Log receives the server's log lines (a panic, a refused request's
	// reason is in its answer instead); nil: standard error.
	Log io.Writer
}

// Server is the workbench's HTTP server. Make one with New and run it
// with Serve; it is an http.Handler once Serve has bound it.
type Server struct {
	opt       Options
	base, reg *mechanics.Registry
	fromFiles map[string]bool // ids of the rules of the rule files
	list      []byte          // the answer of GET /api/mechanics
	slots     chan struct{}   // one per computation running
	waiting   chan struct{}   // one per request waiting for a slot
	assets    *assets
	log       *log.Logger
	hosts     map[string]bool // the Host headers accepted
	hooks     hooks
}

// hooks let the tests see inside (nil: nothing happens).
type hooks struct {
	queued   func()                  // a request waits for a slot
	started  func()                  // a computation took a slot
	finished func(err error)         // a computation ended (its slot is free)
	progress func(done, total int64) // the simulator reported progress
}

// New makes a server: it reads the rule files (bad input if one cannot be
// read or does not compile) and prepares the list of mechanics.
func New(opt Options) (*Server, error) {
	if opt.Builtins == nil {
		opt.Builtins = systems.Default
	}
	if opt.TimeLimit <= 0 {
		opt.TimeLimit = DefaultTimeLimit
	}
	if opt.Heavy <= 0 {
		opt.Heavy = runtime.GOMAXPROCS(0)
	}
	switch {
	case opt.Queue < 0:
		opt.Queue = 0
	case opt.Queue == 0:
		opt.Queue = 2 * opt.Heavy
	}
	if opt.ReadHeaderTimeout <= 0 {
		opt.ReadHeaderTimeout = 10 * time.Second
	}
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = 30 * time.Second
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 2 * time.Minute
	}
	if opt.Log == nil {
		opt.Log = os.Stderr
	}
	s := &Server{opt: opt, base: opt.Builtins, fromFiles: map[string]bool{},
		slots: make(chan struct{}, opt.Heavy), waiting: make(chan struct{}, max(opt.Queue, 1)),
		log: log.New(opt.Log, "oddsmith serve: ", log.LstdFlags)}
	if opt.Queue == 0 {
		s.waiting = nil
	}
	var ms []*mechanics.Mechanic
	for _, f := range opt.RuleFiles {
		rs, err := rules.LoadFile(f)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			ms = append(ms, r.Mechanic())
			s.fromFiles[r.ID] = true
		}
	}
	var err error
	if s.reg, err = s.base.Overlay(ms); err != nil {
		return nil, err
	}
	if s.list, err = s.mechanicsList(); err != nil {
		return nil, err
	}
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	return s, nil
}

// Serve answers requests on ln until ctx is done, then cancels the
// requests in flight (their contexts derive from ctx), waits a moment for
// them to answer and closes every connection. It returns ctx's error then,
// or the error that stopped the listener.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.bind(ln.Addr())
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.opt.ReadHeaderTimeout,
		ReadTimeout:       s.opt.ReadTimeout,
		IdleTimeout:       s.opt.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          s.log,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	grace, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	srv.Shutdown(grace)
	srv.Close()
	<-done
	return ctx.Err()
}

// URL is the address of the page for a listener's address: a loopback
// address for one on every interface.
func URL(addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// IsLoopback reports whether an address given to --addr ("127.0.0.1:0",
// "localhost:8080", "[::1]:0") is on the loopback interface only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bind sets the Host headers accepted: the bound address, localhost,
// 127.0.0.1 and [::1] at the bound port, and, with AllowRemote on an
// address of every interface, this machine's addresses and host name.
func (s *Server) bind(addr net.Addr) {
	host, port, _ := net.SplitHostPort(addr.String())
	names := []string{host, "localhost", "127.0.0.1", "::1"}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() && s.opt.AllowRemote {
		if as, err := net.InterfaceAddrs(); err == nil {
			for _, a := range as {
				if n, ok := a.(*net.IPNet); ok {
					names = append(names, n.IP.String())
				}
			}
		}
		if h, err := os.Hostname(); err == nil {
			names = append(names, h)
		}
	}
	s.hosts = map[string]bool{}
	for _, n := range names {
		s.hosts[strings.ToLower(net.JoinHostPort(n, port))] = true
		if port == "80" {
			s.hosts[strings.ToLower(n)] = true
		}
	}
}

// ServeHTTP answers one request: the checks every request passes, then
// its endpoint. A panic answers 500 with one line (the server goes on).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rw := &response{ResponseWriter: w}
	defer func() {
		if x := recover(); x != nil {
			if x == http.ErrAbortHandler {
				panic(x)
			}
			s.log.Printf("internal error: %v (%s %s)", x, r.Method, r.URL.Path)
			msg := oneLine(fmt.Sprint(x))
			if rw.streaming {
				rw.line(map[string]any{"error": "internal error: " + msg, "status": http.StatusInternalServerError})
				return
			}
			if !rw.wrote {
				writeError(rw, http.StatusInternalServerError, "internal error: "+msg)
			}
		}
	}()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !s.hosts[strings.ToLower(r.Host)] {
		writeError(rw, http.StatusForbidden, fmt.Sprintf("forbidden: the Host header %q is not this server's address (open the address oddsmith serve printed)", r.Host))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			writeError(rw, http.StatusForbidden, fmt.Sprintf("forbidden: a request from %q, not from this server's page", o))
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			writeError(rw, http.StatusForbidden, fmt.Sprintf("forbidden: a %s request, not from this server's page", site))
			return
		}
	}
	s.route(rw, r)
}

// route sends a request to its endpoint.
func (s *Server) route(w *response, r *http.Request) {
	path := r.URL.Path
	if path == "/" || strings.HasPrefix(path, "/assets/") {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: "+path+" takes GET")
			return
		}
		s.assets.serve(w, r)
		return
	}
	endpoints := map[string]func(*response, *http.Request){
		"/api/describe": s.describe, "/api/check": s.check, "/api/run": s.run, "/api/compare": s.compare,
		"/api/sweep": s.sweep, "/api/solve": s.solve, "/api/export": s.export,
	}
	if path == "/api/mechanics" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: "+path+" takes GET")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(s.list)))
		w.Write(s.list)
		return
	}
	f := endpoints[path]
	if f == nil {
		writeError(w, http.StatusNotFound, "not found: "+path)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: "+path+" takes POST")
		return
	}
	f(w, r)
}

// errBusy is the answer when every slot and the queue are taken.
var errBusy = errors.New("busy: every computation slot and the queue are taken; try again in a moment")

// acquire takes a computation slot, waiting in the queue when every slot
// is taken; a full queue is errBusy, and ctx ending while it waits is
// ctx's error. release gives the slot back.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	take := func() func() {
		if s.hooks.started != nil {
			s.hooks.started()
		}
		return func() { <-s.slots }
	}
	select {
	case s.slots <- struct{}{}:
		return take(), nil
	default:
	}
	select {
	case s.waiting <- struct{}{}: // a nil channel (no queue) is never ready
	default:
		return nil, errBusy
	}
	defer func() { <-s.waiting }()
	if s.hooks.queued != nil {
		s.hooks.queued()
	}
	select {
	case s.slots <- struct{}{}:
		return take(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// mechanicsList is the answer of GET /api/mechanics.
func (s *Server) mechanicsList() ([]byte, error) {
	type system struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Doc  string `json:"doc"`
	}
	type mech struct {
		ID      string `json:"id"`
		System  string `json:"system"`
		Summary string `json:"summary"`
		SimOnly bool   `json:"sim_only"`
	}
	out := struct {
		Systems   []system `json:"systems"`
		Mechanics []mech   `json:"mechanics"`
	}{Systems: []system{}, Mechanics: []mech{}}
	var used []string
	for _, m := range s.reg.All() {
		sys, _, _ := strings.Cut(m.ID, ".")
		if s.fromFiles[m.ID] {
			sys = "rules"
		}
		if !slices.Contains(used, sys) {
			used = append(used, sys)
		}
		out.Mechanics = append(out.Mechanics, mech{ID: m.ID, System: sys, Summary: m.Summary, SimOnly: m.MCOnly})
	}
	for _, c := range systems.Catalog {
		if slices.Contains(used, c.ID) {
			out.Systems = append(out.Systems, system{c.ID, c.Name, c.Doc})
		}
	}
	for _, sys := range used {
		if slices.ContainsFunc(systems.Catalog, func(c systems.System) bool { return c.ID == sys }) || sys == "rules" {
			continue
		}
		out.Systems = append(out.Systems, system{ID: sys, Name: sys, Doc: "mechanics whose ids begin " + sys + "."})
	}
	if len(s.opt.RuleFiles) > 0 {
		out.Systems = append(out.Systems, system{"rules", "Your rules", "The rules of " + strings.Join(s.opt.RuleFiles, ", ") + " (oddsmith serve --rules)."})
	}
	return marshal(out)
}

// oneLine is a message as the CLI prints it on its one line: control
// characters, line breaks included, written as visible escapes.
func oneLine(s string) string { return reports.PrintableLine(s) }

// errorIsInput reports bad input.
func errorIsInput(err error) bool { return mechanics.IsInput(err) }
