package mechanics

// Evaluator folds the face counts of a pool of dice into one value, as
// icepool's MultisetEvaluator does. Its state is packed into a uint64 so both
// engines can key tables by it without allocating.
//
// Both engines call Next once for every face of the pool's die, in ascending
// face order, with the number of dice showing that face (possibly 0). The
// exact engine runs it as a dynamic program over faces (binomial weights), the
// simulator on rolled dice, so an exact-versus-simulation cross-check tests
// the engines, not two copies of the rules.
type Evaluator interface {
	// Start is the state before any face is seen.
	Start() uint64
	// Next folds in "face appeared count times".
	Next(s uint64, face, count int) uint64
	// Final turns the state after the last face into the pool's value.
	Final(s uint64) int
}

// EvalFunc is an Evaluator made of three functions.
type EvalFunc struct {
	StartF func() uint64
	NextF  func(s uint64, face, count int) uint64
	FinalF func(s uint64) int
}

func (e EvalFunc) Start() uint64                         { return e.StartF() }
func (e EvalFunc) Next(s uint64, face, count int) uint64 { return e.NextF(s, face, count) }
func (e EvalFunc) Final(s uint64) int                    { return e.FinalF(s) }

// SumEval is the evaluator of a plain sum of the dice (useful in tests).
type SumEval struct{}

func (SumEval) Start() uint64 { return 1 << 62 }
func (SumEval) Next(s uint64, face, count int) uint64 {
	return uint64(int64(s) + int64(face*count))
}
func (SumEval) Final(s uint64) int { return int(int64(s) - 1<<62) }

// BitField is one small unsigned field of an evaluator's uint64 state.
// Evaluators lay their state out with BitFields and read and write it by
// field, so no evaluator shifts and masks by hand; the accessors inline to
// a shift and a mask (no division), as a per-trial fold needs.
type BitField struct {
	shift uint
	mask  uint64
}

// BitFields lays out fields of the given widths (bits), the first in the
// lowest bits. It panics if they need more than 64 bits.
func BitFields(widths ...uint) []BitField {
	out := make([]BitField, len(widths))
	var shift uint
	for i, w := range widths {
		if w == 0 || shift+w > 64 {
			panic("mechanics: BitFields need 1..64 bits in all")
		}
		out[i] = BitField{shift: shift, mask: 1<<w - 1}
		shift += w
	}
	return out
}

// Get reads the field.
func (f BitField) Get(s uint64) int { return int(s >> f.shift & f.mask) }

// Set writes v (reduced to the field's width) into the field.
func (f BitField) Set(s uint64, v int) uint64 {
	return s&^(f.mask<<f.shift) | (uint64(v)&f.mask)<<f.shift
}

// GetU reads the field as an unsigned word.
func (f BitField) GetU(s uint64) uint64 { return s >> f.shift & f.mask }

// SetU writes v (reduced to the field's width) into the field.
func (f BitField) SetU(s, v uint64) uint64 {
	return s&^(f.mask<<f.shift) | (v&f.mask)<<f.shift
}
