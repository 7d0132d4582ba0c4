package mechanics

import "fmt"

// ExplodeRolls rolls N dice that explode as Explode says and reads every
// roll as a die of its own (Roll20's and Foundry's keep and drop of
// exploded dice: 5d10!k2 rolling 10, 10, 3, 7, 2, 5, 1 keeps 10 + 10):
// Eval sees each face of Explode.Die in ascending order with how many of
// all the rolls show it, like Pool's evaluator, except that the number of
// rolls is itself random (at least N; at most MaxRolls).
//
// The exact engine splits the rolls at the trigger: the rolls below it
// are one per die that stopped, the rolls at or above it are the extra
// rolls' triggers, each group independent rolls of the die given its side.
// An unlimited explosion is followed until the probability of more extra
// rolls is at most the tolerance (reported as truncated mass); a limited
// one is exact. The simulator rolls the dice.
type ExplodeRolls struct {
	Explode Explode
	N       int
	Eval    Evaluator
	// States, if set, bounds the evaluator's live states when it reads
	// at most rolls rolls, for the exact engine's work plan (nil: one
	// state, as a Pool is counted).
	States func(rolls int) float64
}

func (ExplodeRolls) node() {}

// MaxRolls is the most rolls the evaluator may see: N·(Limit+1), or for
// an unlimited explosion N·(MaxBursts+1), past which the simulator stops.
func (e ExplodeRolls) MaxRolls() int {
	l := e.Explode.Limit
	if l == 0 {
		l = MaxBursts
	}
	return e.N * (l + 1)
}

func (e ExplodeRolls) validate() error {
	if e.N < 0 {
		return fmt.Errorf("exploding rolls of %d dice", e.N)
	}
	if e.Eval == nil {
		return fmt.Errorf("exploding rolls have no evaluator")
	}
	if e.Explode.Die.Missing != 0 {
		return fmt.Errorf("exploding rolls of a die with missing weight")
	}
	if e.Explode.Penetrate {
		return fmt.Errorf("exploding rolls read one by one cannot penetrate (a penetrating roll is not a face of the die)")
	}
	if f, ok := e.Explode.StillAbove(); ok {
		return fmt.Errorf("exploding rolls read one by one need the faces that burst above the others: %d does not burst", f)
	}
	return Validate(e.Explode)
}

// StillAbove is the highest face that does not burst when it lies above a
// face that does (ok), which keeps the extra rolls from being the top
// faces of the die.
func (e Explode) StillAbove() (face int, ok bool) {
	bursts := e.Burster()
	lowest, highest := 0, 0
	seenBurst, seenStill := false, false
	for _, f := range e.Die.Faces {
		if bursts(f) {
			if !seenBurst || f < lowest {
				lowest = f
			}
			seenBurst = true
		} else {
			if !seenStill || f > highest {
				highest = f
			}
			seenStill = true
		}
	}
	return highest, seenBurst && seenStill && highest > lowest
}
