package mechanics

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Fault is the panic value by which a model's own function reports that it
// cannot go on with the values it was given: a designer's rule that looks a
// key up without a case, divides by zero or steps a state out of its
// bounds. Functions inside a model (a node's F, a process's Step or Move)
// have no error result, so they panic with a Fault; the engines recover a
// Fault, and only a Fault or an exact-arithmetic overflow of package expr
// (see Recovered), and return it as an error. Any other panic is a bug: it
// is not recovered and reaches the command's one handler, which prints
// "internal error" and exits 1.
type Fault struct{ Err error }

func (f Fault) Error() string { return f.Err.Error() }
func (f Fault) Unwrap() error { return f.Err }

// Raise panics with a Fault whose error is formatted from format and a.
func Raise(format string, a ...any) { panic(Fault{fmt.Errorf(format, a...)}) }

// Recovered returns the error of a recovered panic value that is a fault of
// the model (a Fault, or expr's overflow as expr.ErrOverflow) and panics
// again with any other value, so that a bug is never turned into an error
// or a fallback. Use it in a deferred function:
//
//	defer func() {
//		if x := recover(); x != nil {
//			err = mechanics.Recovered(x)
//		}
//	}()
func Recovered(x any) error {
	switch v := x.(type) {
	case Fault:
		return v
	case *Fault:
		return *v
	}
	if expr.IsOverflow(x) {
		return expr.ErrOverflow
	}
	panic(x)
}

// IsFault reports whether a recovered panic value is a fault of the model
// (see Recovered).
func IsFault(x any) bool {
	switch x.(type) {
	case Fault, *Fault:
		return true
	}
	return expr.IsOverflow(x)
}
