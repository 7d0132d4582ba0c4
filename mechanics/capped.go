package mechanics

import "fmt"

// CappedExplode rolls N dice that explode as Explode says (the faces that
// burst, Penetrate), with at most Total extra rolls in the whole term
// (Foundry's 5d10x2>=8): the rolls are looked at in the order rolled — the
// N dice first, then each extra roll in the order it was added — and a
// roll that bursts while fewer than Total extra rolls were made adds one
// more roll at the end. The term stops once every roll is looked at.
//
// Explode.Limit, when above 0, is also the most extra rolls per die: a
// roll that is the Limit-th extra roll of its die does not burst (with
// Limit 1, Foundry's xo: only the N first rolls may burst). Tolerance is
// not used: the rolls are at most N + Total.
//
// The term is the sum of the rolls (Score nil), each extra roll of a
// penetrating die one less than its face; or, with Score, the sum of
// Score over the rolls (a count of successes), an extra roll of a
// penetrating die scored on its face less one.
type CappedExplode struct {
	Explode Explode
	N       int
	Total   int
	Score   func(int) int
}

func (CappedExplode) node() {}

// Value is what a roll showing f adds to the term: extra says it is an
// extra roll.
func (c CappedExplode) Value(f int, extra bool) int {
	if extra && c.Explode.Penetrate {
		f--
	}
	if c.Score != nil {
		return c.Score(f)
	}
	return f
}

// DepthMatters reports whether the per-die limit can stop a roll from
// bursting before the cap does: a limit below the cap.
func (c CappedExplode) DepthMatters() bool {
	return c.Explode.Limit > 0 && c.Explode.Limit < c.Total
}

// MaxRolls is the most rolls the term makes: N + Total, or N·(Limit+1)
// when that is fewer.
func (c CappedExplode) MaxRolls() int {
	most := c.N + c.Total
	if l := c.Explode.Limit; l > 0 {
		most = min(most, c.N*(l+1))
	}
	return most
}

func (c CappedExplode) validate() error {
	switch {
	case c.N < 0:
		return fmt.Errorf("capped explosion of %d dice", c.N)
	case c.Total < 0:
		return fmt.Errorf("capped explosion with a cap of %d extra rolls", c.Total)
	case c.Explode.Limit < 0:
		return fmt.Errorf("explode limit %d is negative", c.Explode.Limit)
	case c.Total > MaxBursts:
		return fmt.Errorf("capped explosion with a cap of %d extra rolls (at most %d)", c.Total, MaxBursts)
	}
	if err := c.Explode.Die.Validate(); err != nil {
		return err
	}
	if c.Explode.Die.Missing != 0 {
		return fmt.Errorf("capped explosion of a die with missing weight")
	}
	return nil
}
