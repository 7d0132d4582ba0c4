package mechanics

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Node is one random variable of a model: a closed set of exported node
// types walked by type switches in both engines (exact and sim), like go/ast
// nodes. Every node denotes an integer-valued random variable; the children
// of a node are independent of each other unless the node says otherwise.
type Node interface {
	node()
}

// Unbounded marks a missing bound of Clamp.
const (
	NoLo = math.MinInt32
	NoHi = math.MaxInt32
)

// Die is one roll of a die with arbitrary integer faces and positive integer
// weights (nil Weights means every face is equally likely). Faces need not be
// sorted or distinct; the engines treat repeated faces as extra weight.
type Die struct {
	Faces   []int
	Weights []int64
	// Missing is the weight of outcomes the die leaves out (a bursting
	// die cut after the bursts worth following): TotalWeight includes it,
	// so the faces' probabilities sum to less than one and the exact
	// engine reports the difference as truncated mass. The simulator rolls
	// the faces given (the die conditional on no outcome left out).
	Missing int64
}

// D returns the fair die with faces 1..n. It panics if n < 1.
func D(n int) Die {
	if n < 1 {
		panic(fmt.Sprintf("mechanics: D(%d): a die needs at least one face", n))
	}
	f := make([]int, n)
	for i := range f {
		f[i] = i + 1
	}
	return Die{Faces: f}
}

// Weight returns the weight of face i (1 when Weights is nil).
func (d Die) Weight(i int) int64 {
	if d.Weights == nil {
		return 1
	}
	return d.Weights[i]
}

// TotalWeight is the sum of the weights and the missing weight.
func (d Die) TotalWeight() int64 {
	if d.Weights == nil {
		return int64(len(d.Faces)) + d.Missing
	}
	t := d.Missing
	for _, w := range d.Weights {
		t += w
	}
	return t
}

// Uniform reports whether every face has the same weight.
func (d Die) Uniform() bool {
	for i := range d.Faces {
		if d.Weight(i) != d.Weight(0) {
			return false
		}
	}
	return true
}

// Validate reports a malformed die: no faces, weights of the wrong length,
// or a weight that is not positive.
func (d Die) Validate() error {
	if len(d.Faces) == 0 {
		return fmt.Errorf("die has no faces")
	}
	if d.Weights != nil && len(d.Weights) != len(d.Faces) {
		return fmt.Errorf("die has %d faces but %d weights", len(d.Faces), len(d.Weights))
	}
	for i := range d.Faces {
		if d.Weight(i) <= 0 {
			return fmt.Errorf("die face %d has weight %d; weights must be positive", d.Faces[i], d.Weight(i))
		}
	}
	if d.Missing < 0 {
		return fmt.Errorf("die has missing weight %d; it must not be negative", d.Missing)
	}
	return nil
}

// Const is a constant value.
type Const struct{ V int }

// Sum is the sum of independent terms.
type Sum struct{ Terms []Node }

// Repeat is the sum of N independent copies of X (N ≥ 0; 0 gives the constant 0).
type Repeat struct {
	X Node
	N int
}

// Scale is K·X. Neg(X) is Scale{X, -1}.
type Scale struct {
	X Node
	K int
}

// Clamp is min(max(X, Lo), Hi); use NoLo / NoHi for a missing bound.
type Clamp struct {
	X      Node
	Lo, Hi int
}

// Map applies a deterministic function to X. F must be pure: both engines
// call it, the exact engine once per support point, the simulator per trial.
type Map struct {
	X    Node
	F    func(int) int
	Name string
}

// Combine is F(X, Y) for independent X and Y: the general form of opposed
// rolls and of packing several independent results into one outcome.
type Combine struct {
	X, Y Node
	F    func(x, y int) int
	Name string
}

// Max is the largest of independent terms; Min the smallest (order
// statistics).
type Max struct{ Terms []Node }

// Min is the smallest of independent terms.
type Min struct{ Terms []Node }

// KeepOf is the sum of Score over the independent Terms ranked Lo..Hi−1
// from the lowest (their values sorted ascending): keeping the K highest
// of n terms is Lo = n−K, Hi = n; the K lowest, Lo = 0, Hi = K. Unlike
// Keep, the terms need not be alike (grouped rolls: {4d6, 3d8}kh1, or the
// dice of several kinds in {4d6+3d8}kh4). Terms of equal value score the
// same, so ties need no order. Score nil is the value itself; Name says
// what Score is.
type KeepOf struct {
	Terms  []Node
	Lo, Hi int
	Score  func(int) int
	Name   string
}

// Keep is the sum of the K highest (or lowest) of N rolls of Die.
type Keep struct {
	Die     Die
	N, K    int
	Highest bool
}

// Pool rolls N copies of Die and folds the face counts through Eval (the
// exact engine runs Eval as a dynamic program over the faces of the pool).
type Pool struct {
	Die  Die
	N    int
	Eval Evaluator
}

// CmpOp is a comparison operator.
type CmpOp int

// Comparison operators of Compare.
const (
	GE CmpOp = iota
	GT
	LE
	LT
	EQ
	NE
)

func (op CmpOp) String() string {
	return [...]string{">=", ">", "<=", "<", "==", "!="}[op]
}

// Holds reports x op t.
func (op CmpOp) Holds(x, t int) bool {
	switch op {
	case GE:
		return x >= t
	case GT:
		return x > t
	case LE:
		return x <= t
	case LT:
		return x < t
	case EQ:
		return x == t
	default:
		return x != t
	}
}

// Compare is 1 when X op T holds and 0 otherwise.
type Compare struct {
	X  Node
	Op CmpOp
	T  int
}

// Cond is Then when If is non-zero and Else otherwise; If, Then and Else are
// independent, so Cond is a two-way mixture weighted by P(If ≠ 0).
type Cond struct{ If, Then, Else Node }

// Mixture picks Of[i] with probability Weights[i]/ΣWeights.
type Mixture struct {
	Weights []int64
	Of      []Node
}

// Explode is a bursting die: roll Die and, while the roll shows the die's
// highest face, roll again and add.
//
// With Limit > 0 the rule itself allows at most Limit extra rolls (the last
// one counts as it is, even a maximum): both engines follow exactly that.
// With Limit = 0 the die bursts without limit, as the rules say: the
// simulator rolls on for as long as the die keeps showing its maximum (it
// stops with an error after MaxBursts, which no fair die reaches), and the
// exact engine follows the bursts until the probability of going on is at
// most Tolerance (default DefaultTolerance), drops that mass and reports it
// as the result's truncated mass.
//
// With ByThreshold the die bursts on any roll ≥ Threshold ("d6!>=5"),
// not only on its highest face; at least one face must stay below it.
// With On (any faces listed) the die bursts on exactly those faces
// ("d6!=5", "d6!<=3"), whatever ByThreshold says.
//
// With Penetrate every extra roll counts one less than the face it shows
// ("d6!p": 6, 6, 3 is 6 + 5 + 2); whether a roll bursts is judged on the
// face. A chain is then the sum of BurstAdds(f) over the rolls that burst
// (f − 1 each) and the face of the last roll.
type Explode struct {
	Die         Die
	Limit       int
	Tolerance   float64
	ByThreshold bool
	Threshold   int
	On          []int
	Penetrate   bool
}

// Bursts reports whether a roll showing f rolls again.
func (e Explode) Bursts(f int) bool {
	switch {
	case len(e.On) > 0:
		return slices.Contains(e.On, f)
	case e.ByThreshold:
		return f >= e.Threshold
	}
	return f == slices.Max(e.Die.Faces)
}

// Burster is Bursts made quick for many calls (a set looked up in a map).
func (e Explode) Burster() func(int) bool {
	switch {
	case len(e.On) > 0:
		set := make(map[int]bool, len(e.On))
		for _, f := range e.On {
			set[f] = true
		}
		return func(f int) bool { return set[f] }
	case e.ByThreshold:
		t := e.Threshold
		return func(f int) bool { return f >= t }
	}
	top := slices.Max(e.Die.Faces)
	return func(f int) bool { return f == top }
}

// BurstAdds is what a roll showing f adds to the chain when it bursts:
// f, or f − 1 when the extra roll it brings penetrates.
func (e Explode) BurstAdds(f int) int {
	if e.Penetrate {
		return f - 1
	}
	return f
}

// BurstFaces says in words which rolls burst ("6", "5 or more", "1, 2 or
// 3", "1 to 99 or 101"), for messages: runs of three faces or more are
// written as ranges, and past eight parts the rest is counted.
func (e Explode) BurstFaces() string {
	if e.ByThreshold && len(e.On) == 0 {
		return fmt.Sprintf("%d or more", e.Threshold)
	}
	var fs []int
	bursts := e.Burster()
	for _, f := range e.Die.Faces {
		if bursts(f) {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		fs = slices.Clone(e.On)
	}
	slices.Sort(fs)
	fs = slices.Compact(fs)
	var parts []string
	for i := 0; i < len(fs); {
		j := i
		for j+1 < len(fs) && fs[j+1] == fs[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			parts = append(parts, fmt.Sprintf("%d to %d", fs[i], fs[j]))
		case j > i:
			parts = append(parts, fmt.Sprint(fs[i]), fmt.Sprint(fs[j]))
		default:
			parts = append(parts, fmt.Sprint(fs[i]))
		}
		i = j + 1
	}
	if len(parts) > 8 {
		parts = append(parts[:7], fmt.Sprintf("%d more", len(parts)-7))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// DefaultTolerance is the probability mass an unlimited Explode may leave
// out of an exact result.
const DefaultTolerance = 1e-12

// MaxBursts bounds the bursts one unlimited Explode may follow in a
// simulation (a d4 reaches it with probability 4⁻¹⁰⁰⁰⁰).
const MaxBursts = 10000

// TopProbability is the probability that a roll bursts: that Die shows
// its highest face (or a face ≥ Threshold, or one of On).
func (e Explode) TopProbability() float64 {
	w := int64(0)
	for i, f := range e.Die.Faces {
		if e.Bursts(f) {
			w += e.Die.Weight(i)
		}
	}
	return float64(w) / float64(e.Die.TotalWeight())
}

// ExactDepth is the number of extra rolls the exact engine follows: Limit,
// or for an unlimited die the fewest after which the probability of going
// on is at most the tolerance.
func (e Explode) ExactDepth() int {
	if e.Limit > 0 {
		return e.Limit
	}
	tol := e.Tolerance
	if tol <= 0 {
		tol = DefaultTolerance
	}
	pm := e.TopProbability()
	if pm >= 1 {
		return MaxBursts
	}
	d := 0
	for reach := pm; reach > tol && d < MaxBursts; reach *= pm {
		d++
	}
	return d
}

func (Die) node()     {}
func (Const) node()   {}
func (Sum) node()     {}
func (Repeat) node()  {}
func (Scale) node()   {}
func (Clamp) node()   {}
func (Map) node()     {}
func (Combine) node() {}
func (Max) node()     {}
func (Min) node()     {}
func (Keep) node()    {}
func (KeepOf) node()  {}
func (Pool) node()    {}
func (Compare) node() {}
func (Cond) node()    {}
func (Mixture) node() {}
func (Explode) node() {}

// Neg is −X.
func Neg(x Node) Node { return Scale{X: x, K: -1} }

// Children are the nodes directly below n (none for a leaf: a die, a
// constant, a keep, a pool, a unique roll, an explosion, its rolls).
func Children(n Node) []Node {
	switch n := n.(type) {
	case Sum:
		return n.Terms
	case Max:
		return n.Terms
	case Min:
		return n.Terms
	case KeepOf:
		return n.Terms
	case Repeat:
		return []Node{n.X}
	case RandomCount:
		return []Node{n.N, n.X}
	case Scale:
		return []Node{n.X}
	case Clamp:
		return []Node{n.X}
	case Map:
		return []Node{n.X}
	case Combine:
		return []Node{n.X, n.Y}
	case Compare:
		return []Node{n.X}
	case Cond:
		return []Node{n.If, n.Then, n.Else}
	case Mixture:
		return n.Of
	}
	return nil
}

// Walk calls f on n and on every node below it, parents first.
func Walk(n Node, f func(Node)) {
	f(n)
	for _, c := range Children(n) {
		Walk(c, f)
	}
}

// Validate walks a model and reports the first malformed node.
func Validate(n Node) error {
	switch n := n.(type) {
	case Die:
		return n.Validate()
	case Const:
		return nil
	case Sum:
		return validateAll(n.Terms)
	case Max:
		if len(n.Terms) == 0 {
			return fmt.Errorf("max of no terms")
		}
		return validateAll(n.Terms)
	case Min:
		if len(n.Terms) == 0 {
			return fmt.Errorf("min of no terms")
		}
		return validateAll(n.Terms)
	case KeepOf:
		if len(n.Terms) == 0 {
			return fmt.Errorf("keep of no terms")
		}
		if n.Lo < 0 || n.Lo > n.Hi || n.Hi > len(n.Terms) {
			return fmt.Errorf("keeping the terms ranked %d..%d of %d is impossible", n.Lo, n.Hi-1, len(n.Terms))
		}
		return validateAll(n.Terms)
	case Repeat:
		if n.N < 0 {
			return fmt.Errorf("repeat count %d is negative", n.N)
		}
		return Validate(n.X)
	case RandomCount:
		if err := Validate(n.N); err != nil {
			return err
		}
		return Validate(n.X)
	case Scale:
		return Validate(n.X)
	case Clamp:
		if n.Lo > n.Hi {
			return fmt.Errorf("clamp bounds %d > %d", n.Lo, n.Hi)
		}
		return Validate(n.X)
	case Map:
		if n.F == nil {
			return fmt.Errorf("map %q has no function", n.Name)
		}
		return Validate(n.X)
	case Combine:
		if n.F == nil {
			return fmt.Errorf("combine %q has no function", n.Name)
		}
		if err := Validate(n.X); err != nil {
			return err
		}
		return Validate(n.Y)
	case Keep:
		if n.N < 0 || n.K < 0 || n.K > n.N {
			return fmt.Errorf("keep %d of %d dice is impossible", n.K, n.N)
		}
		return n.Die.Validate()
	case Pool:
		if n.N < 0 {
			return fmt.Errorf("pool of %d dice", n.N)
		}
		if n.Eval == nil {
			return fmt.Errorf("pool has no evaluator")
		}
		return n.Die.Validate()
	case Unique:
		return n.validate()
	case Compare:
		return Validate(n.X)
	case Cond:
		for _, c := range []Node{n.If, n.Then, n.Else} {
			if err := Validate(c); err != nil {
				return err
			}
		}
		return nil
	case Mixture:
		if len(n.Of) == 0 || len(n.Weights) != len(n.Of) {
			return fmt.Errorf("mixture has %d weights for %d branches", len(n.Weights), len(n.Of))
		}
		for _, w := range n.Weights {
			if w < 0 {
				return fmt.Errorf("mixture weight %d is negative", w)
			}
		}
		return validateAll(n.Of)
	case ExplodeRolls:
		return n.validate()
	case CappedExplode:
		return n.validate()
	case Explode:
		if n.Limit < 0 {
			return fmt.Errorf("explode limit %d is negative", n.Limit)
		}
		if err := n.Die.Validate(); err != nil {
			return err
		}
		if n.Limit == 0 && n.TopProbability() >= 1 {
			return fmt.Errorf("a die that always bursts (on %s) bursts forever", n.BurstFaces())
		}
		if n.Tolerance < 0 || n.Tolerance >= 1 {
			return fmt.Errorf("explode tolerance %v is not in [0, 1)", n.Tolerance)
		}
		return nil
	case nil:
		return fmt.Errorf("nil node")
	default:
		return fmt.Errorf("unknown node type %T", n)
	}
}

func validateAll(ns []Node) error {
	for _, c := range ns {
		if err := Validate(c); err != nil {
			return err
		}
	}
	return nil
}

// KeptCount is how many of c dice placed at ascending ranks m..m+c−1 are
// among the k highest (or lowest) of n: the keep DPs and evaluators that
// see a pool's faces in ascending order.
func KeptCount(n, k, m, c int, highest bool) int {
	if highest {
		return max(0, m+c-max(m, n-k))
	}
	return max(0, min(m+c, k)-m)
}
