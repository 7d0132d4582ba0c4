package main

import (
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress is a progress bar on stderr (schollz/progressbar), shown only
// when stderr is a terminal and not silenced with -q: a log file gets no
// carriage-return noise. A nil *progress does nothing.
type progress struct {
	bar  *progressbar.ProgressBar
	done bool
}

// newProgress starts a bar of total units, or returns nil.
func newProgress(stderr io.Writer, quiet bool, desc, unit string, total int64) *progress {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) || total <= 0 {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionThrottle(100e6),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(stderr) }),
	}
	if unit != "" {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit))
	}
	return &progress{bar: progressbar.NewOptions64(total, opts...)}
}

// Add counts n more units done (study.Progress).
func (p *progress) Add(n int) error {
	if p == nil {
		return nil
	}
	return p.bar.Add(n)
}

// Set sets the units done (not after Finish).
func (p *progress) Set(done int64) {
	if p != nil && !p.done {
		p.bar.Set64(done)
	}
}

// Finish shows the bar full (100%) and ends its line; after a failure it
// only ends the line.
func (p *progress) Finish(ok bool) {
	if p == nil || p.done {
		return
	}
	p.done = true
	if ok {
		p.bar.Finish() // ends the line through OnCompletion
	} else {
		p.bar.Exit() // keeps the state, ends the line
	}
}
