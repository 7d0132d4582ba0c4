package expr

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Rat is an exact rational N/D with D > 0 and gcd(N, D) = 1, small enough
// for int64 arithmetic. The zero value is 0. Operations panic with an
// "expr: rational overflow" message when a result leaves int64; models work
// with small values (damage on halves or tenths, times on minute lattices),
// so an overflow is a modelling error, not a rounding to hide.
type Rat struct{ N, D int64 }

// overflow is the panic of an operation whose result leaves int64.
const overflow = "expr: rational overflow"

// ErrOverflow is the error a Program's evaluation returns for it.
var ErrOverflow = errors.New(overflow)

// IsOverflow reports a rational overflow: the value recovered from its
// panic, or an error that wraps ErrOverflow.
func IsOverflow(x any) bool {
	if s, ok := x.(string); ok {
		return s == overflow
	}
	err, ok := x.(error)
	return ok && errors.Is(err, ErrOverflow)
}

// Int is the rational n/1.
func Int(n int64) Rat { return Rat{n, 1} }

// Frac is n/d reduced. It panics if d == 0.
func Frac(n, d int64) Rat {
	if d == 0 {
		panic("expr: rational with zero denominator")
	}
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(abs64(n), d)
	if g > 1 {
		n, d = n/g, d/g
	}
	return Rat{n, d}
}

func (r Rat) norm() Rat {
	if r.D == 0 {
		return Rat{r.N, 1}
	}
	return r
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// Lcm is the least common multiple of two positive integers.
func Lcm(a, b int64) int64 { return mul(a/gcd(a, b), b) }

func mul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo > math.MaxInt64 {
		panic(overflow)
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

func add(a, b int64) int64 {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		panic(overflow)
	}
	return s
}

// IsInt reports a whole number.
func (r Rat) IsInt() bool { return r.norm().D == 1 }

// Add is r + s.
func (r Rat) Add(s Rat) Rat {
	r, s = r.norm(), s.norm()
	if r.D == 1 && s.D == 1 {
		return Rat{add(r.N, s.N), 1}
	}
	d := Lcm(r.D, s.D)
	return Frac(add(mul(r.N, d/r.D), mul(s.N, d/s.D)), d)
}

// Neg is −r.
func (r Rat) Neg() Rat { r = r.norm(); return Rat{-r.N, r.D} }

// Sub is r − s.
func (r Rat) Sub(s Rat) Rat { return r.Add(s.Neg()) }

// Mul is r·s.
func (r Rat) Mul(s Rat) Rat {
	r, s = r.norm(), s.norm()
	if r.D == 1 && s.D == 1 {
		return Rat{mul(r.N, s.N), 1}
	}
	g1, g2 := gcd(abs64(r.N), s.D), gcd(abs64(s.N), r.D)
	return Frac(mul(r.N/g1, s.N/g2), mul(r.D/g2, s.D/g1))
}

// Div is r/s; ok is false when s = 0.
func (r Rat) Div(s Rat) (Rat, bool) {
	s = s.norm()
	if s.N == 0 {
		return Rat{}, false
	}
	return r.Mul(Frac(s.D, s.N)), true
}

// Cmp returns −1, 0 or +1 as r <, =, > s.
func (r Rat) Cmp(s Rat) int {
	r, s = r.norm(), s.norm()
	if r.D == s.D {
		switch {
		case r.N < s.N:
			return -1
		case r.N > s.N:
			return 1
		}
		return 0
	}
	a := new(big.Int).Mul(big.NewInt(r.N), big.NewInt(s.D))
	return a.Cmp(new(big.Int).Mul(big.NewInt(s.N), big.NewInt(r.D)))
}

// Floor is ⌊r⌋.
func (r Rat) Floor() int64 {
	r = r.norm()
	q := r.N / r.D
	if r.N%r.D != 0 && r.N < 0 {
		q--
	}
	return q
}

// Ceil is ⌈r⌉.
func (r Rat) Ceil() int64 { return -r.Neg().Floor() }

// Float is the nearest float64.
func (r Rat) Float() float64 { r = r.norm(); return float64(r.N) / float64(r.D) }

// String prints "n" or "n/d".
func (r Rat) String() string {
	r = r.norm()
	if r.D == 1 {
		return strconv.FormatInt(r.N, 10)
	}
	return strconv.FormatInt(r.N, 10) + "/" + strconv.FormatInt(r.D, 10)
}

// Decimal returns the rational value of the shortest decimal that reads back
// as v: the number a person typed ("9.1" is 91/10, not the binary fraction
// nearest to it). Exact engines use it so that they never round a parameter
// they were given. It fails for NaN, infinities and values whose decimal
// needs more than 18 digits after scaling.
func Decimal(v float64) (Rat, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Rat{}, fmt.Errorf("%v is not a finite number", v)
	}
	var b big.Rat
	if _, ok := b.SetString(strconv.FormatFloat(v, 'f', -1, 64)); !ok {
		return Rat{}, fmt.Errorf("%v is not a decimal number", v)
	}
	if !b.Num().IsInt64() || !b.Denom().IsInt64() {
		return Rat{}, fmt.Errorf("%v has too many digits for exact arithmetic", v)
	}
	return Frac(b.Num().Int64(), b.Denom().Int64()), nil
}
