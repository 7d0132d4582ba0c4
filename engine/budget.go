package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/oddsmith/oddsmith/mechanics"
)

// DefaultMemory is the memory budget of one computation, in bytes, when
// none is set: 1 GiB. The simulator uses the same default.
const DefaultMemory int64 = 1 << 30

// Memory is a memory budget in bytes: n, or DefaultMemory when n is 0 or
// less (unset).
func Memory(n int64) int64 {
	if n <= 0 {
		return DefaultMemory
	}
	return n
}

// MemoryError is the refusal of a computation that would not fit its
// memory budget. Both engines return it wrapped in a *mechanics.InputError,
// so a command exits with status 2.
type MemoryError struct {
	// What names what is too big ("the process's outcome table (182 steps
	// × 14302 states)").
	What string
	// Need is the estimated size of it in bytes, Budget the budget.
	Need, Budget int64
	// Held is what the computation already holds (0 when nothing that
	// counts): Need + Held is over the budget.
	Held int64
	// Advice says how to make the model smaller ("a shorter horizon or
	// fewer states"); may be empty.
	Advice string
	// SuggestSim is set when the simulator would not need what is too big
	// (the exact engine's distributions): the message then suggests it.
	SuggestSim bool
}

func (e *MemoryError) Error() string {
	s := fmt.Sprintf("%s needs about %s (the memory budget is %s): ", e.What, FormatBytes(e.Need), FormatBytes(e.Budget))
	if e.Held > 0 && e.Need <= e.Budget {
		s = fmt.Sprintf("%s needs about %s on top of the %s the computation holds already (the memory budget is %s): ",
			e.What, FormatBytes(e.Need), FormatBytes(e.Held), FormatBytes(e.Budget))
	}
	if e.Advice != "" {
		s += e.Advice + ", "
	}
	s += "raise the budget with --memory"
	if e.SuggestSim {
		s += ", or use 'oddsmith sim'"
	}
	return s
}

// IsMemory reports whether err is (or wraps) a *MemoryError.
func IsMemory(err error) bool {
	var me *MemoryError
	return errors.As(err, &me)
}

// NewMemoryError is a *MemoryError wrapped as bad input.
func NewMemoryError(e *MemoryError) error { return &mechanics.InputError{Err: e} }

// FormatBytes writes a byte count in binary units: "512 B", "3.2 MiB",
// "1 GiB".
func FormatBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if r := math.Round(v*10) / 10; r >= 10 || r == math.Trunc(r) {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// MulBytes is a·b saturating at MaxInt64 (a, b ≥ 0).
func MulBytes(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// AddBytes is a+b saturating at MaxInt64 (a, b ≥ 0).
func AddBytes(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// Span is the number of integers in [lo, hi] (hi ≥ lo), saturating at
// MaxInt64; it does not overflow for any lo and hi.
func Span(lo, hi int) int64 {
	d := uint64(hi) - uint64(lo) // exact modulo 2⁶⁴, and hi−lo < 2⁶⁴
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(d) + 1
}

// Sizes used in estimates: a float64, and one entry of a Go map from int to
// float64 (key, value, tophash and load factor slack).
const (
	FloatBytes    = 8
	MapEntryBytes = 48
)

// tickUnits is about how much work (multiply-adds, calls of a model's
// function) passes between two looks at the context: well under a
// millisecond.
const tickUnits = 1 << 16

// MaxWork bounds the work of one exact computation (about a minute or two
// of arithmetic): past it, or when an estimate made before starting says
// so, the model is refused as too long rather than left to run for hours.
const MaxWork = 3e10

// TooLong is the refusal of an exact computation that would take too long.
func TooLong() error {
	return mechanics.Invalid("the exact computation would take minutes or more (over %.0g operations): simulate it (oddsmith sim) or make the model smaller (fewer dice, fewer sides, a shorter horizon)", float64(MaxWork))
}

// Plan refuses, before starting, work estimated beyond what is left of
// MaxWork (the work ticked so far counts).
func (b *Budget) Plan(ops float64) error {
	if ops+float64(b.Spent()) > MaxWork {
		return TooLong()
	}
	return nil
}

// Spent is the work ticked so far.
func (b *Budget) Spent() int64 {
	if b == nil {
		return 0
	}
	return b.spent + int64(b.work)
}

// Budget carries a computation's context and memory budget through an
// engine, and counts its work. A nil *Budget checks nothing.
type Budget struct {
	ctx   context.Context
	limit int64
	// held is what the computation keeps for its whole length (the
	// process's outcome and step caches); every other estimate must fit
	// in what is left.
	held int64
	work int
	// spent counts the work units ticked so far: past MaxWork the
	// computation is refused as too long for the exact engine.
	spent int64
	// SuggestSim: what is being allocated is the exact engine's own (the
	// simulator would not need it), so a refusal suggests the simulator.
	SuggestSim bool
}

// NewBudget is the budget of a computation under ctx (nil: none) within
// memoryBytes (0 or less: DefaultMemory).
func NewBudget(ctx context.Context, memoryBytes int64) *Budget {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Budget{ctx: ctx, limit: Memory(memoryBytes), SuggestSim: true}
}

// DefaultBudget is the budget of the exported entry points without a
// context (Eval, SolveProcess): no deadline, DefaultMemory.
func DefaultBudget() *Budget { return NewBudget(context.Background(), 0) }

// Need refuses an allocation of the given bytes that does not fit what is
// left of the budget; what is a format naming it.
func (b *Budget) Need(bytes int64, advice, what string, a ...any) error {
	if b == nil || bytes <= b.limit-b.held {
		return nil
	}
	return NewMemoryError(&MemoryError{What: fmt.Sprintf(what, a...), Need: bytes, Held: b.held, Budget: b.limit,
		Advice: advice, SuggestSim: b.SuggestSim})
}

// Fits reports whether bytes fit what is left of the budget.
func (b *Budget) Fits(bytes int64) bool { return b == nil || bytes <= b.limit-b.held }

// Hold adds bytes the computation keeps to the running total.
func (b *Budget) Hold(bytes int64) {
	if b != nil {
		b.held = AddBytes(b.held, bytes)
	}
}

// Tick counts work and looks at the context every tickUnits of it; past
// MaxWork in all it refuses the computation as too long.
func (b *Budget) Tick(units int) error {
	if b == nil {
		return nil
	}
	if b.work += units; b.work < tickUnits {
		return nil
	}
	if b.spent += int64(b.work); b.spent > MaxWork {
		return TooLong()
	}
	b.work = 0
	return b.ctx.Err()
}

// Limit is the budget in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Done is the computation's context's Done channel.
func (b *Budget) Done() <-chan struct{} { return b.ctx.Done() }

// Alive looks at the context now.
func (b *Budget) Alive() error {
	if b == nil {
		return nil
	}
	return b.ctx.Err()
}

// Stopped reports whether err is a cancellation, a deadline or a memory
// refusal: errors that are passed on as they are, without the location
// wrapping model errors get.
func Stopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || IsMemory(err)
}

// Advice for the messages.
const (
	AdviceValues  = "make the model's values span a narrower range"
	AdviceDice    = "roll fewer dice"
	AdviceProcess = "make the process smaller (a shorter horizon, fewer states)"
)
