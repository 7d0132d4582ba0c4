package study

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"
)

// group runs a plan's analyses or a shard's points side by side, like
// errgroup.Group (at most limit at a time, the first error cancels the
// rest), and also carries a panic: errgroup leaves a panic in one of its
// goroutines to crash the process with a stack trace, so group recovers it,
// cancels the others and panics again with it in the goroutine that calls
// Wait, from where it reaches the command's one handler ("internal
// error", exit 1).
type group struct {
	g    *errgroup.Group
	once sync.Once
	bug  any
}

// errPanicked stands in for a panic in the errgroup until Wait raises it.
var errPanicked = errors.New("study: a goroutine of the group panicked")

// newGroup is errgroup.WithContext with a limit.
func newGroup(ctx context.Context, limit int) (*group, context.Context) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	return &group{g: g}, gctx
}

// Go runs f in its own goroutine.
func (g *group) Go(f func() error) {
	g.g.Go(func() (err error) {
		defer func() {
			if x := recover(); x != nil {
				g.once.Do(func() { g.bug = x })
				err = errPanicked
			}
		}()
		return f()
	})
}

// Wait waits for every function and returns the first error, or panics
// again with the first panic.
func (g *group) Wait() error {
	err := g.g.Wait()
	if g.bug != nil {
		panic(g.bug)
	}
	return err
}
