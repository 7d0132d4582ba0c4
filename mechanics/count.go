package mechanics

import "fmt"

// RandomCount is the sum of N independent copies of X, N itself a roll
// independent of them ((1d4)d6: roll 1d4, then that many d6). N must show
// whole numbers from 0 to MaxRandomCount: the simulator stops with an
// error on a count outside that range, and the exact engine refuses a
// model whose N can show one.
type RandomCount struct {
	N Node
	X Node
}

func (RandomCount) node() {}

// MaxRandomCount bounds the count of a RandomCount (the most dice a dice
// term may roll).
const MaxRandomCount = 100_000

// CheckCount is the error of a count RandomCount cannot roll (nil for a
// count in 0..MaxRandomCount).
func CheckCount(n int) error {
	switch {
	case n < 0:
		return fmt.Errorf("the number of dice came out %d: a random count must not be negative", n)
	case n > MaxRandomCount:
		return fmt.Errorf("the number of dice came out %d: a random count rolls at most %d dice", n, MaxRandomCount)
	}
	return nil
}
