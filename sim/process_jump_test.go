package sim

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/exact"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestProcessBlocksVsExact runs the homogeneous test chains on the block
// engine, and the periodic ones on the per-step loop, which the jump engine
// took over for them.
func TestProcessBlocksVsExact(t *testing.T) {
	for _, name := range []string{"homogeneous blocks", "homogeneous long blocks", "homogeneous pair", "homogeneous weighted", "homogeneous settled", "keyed kernel", "periodic walk"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			crossCheck(t, name+" without the jump engine", engineCases()[name], 19, trials(200_000, 600_000), tuning{noJump: true})
		})
	}
}

// TestJumpRowsCountEverySequence: a k-step row holds, for each result, the
// number of the Rᵏ sequences of table indices that lead there, counted here
// by walking every sequence through Move.
func TestJumpRowsCountEverySequence(t *testing.T) {
	for name, p := range map[string]*mechanics.Process{"blocks": blockWalk(), "coin runs": coinRuns()} {
		w := ranWorker(t, p, 10, tuning{})
		j := w.kern.jmp
		if j == nil {
			t.Fatalf("%s: no jump engine", name)
		}
		b := w.kern.blk
		vals := make([]int, len(b.k.tcls)) // the kernel value of each table index
		for i, c := range b.k.tcls {
			vals[i] = b.k.vals[c]
		}
		for _, steps := range []int{1, 2, 5} {
			bd := newJumpBuilder(w, b, 1<<30, uint64(len(b.k.tcls)), tableCounts(b.k))
			rs := bd.rows(steps)
			for s := range w.S {
				if p.Absorbing[s] || s == 12 { // blockWalk's state 12 cannot be reached
					continue
				}
				if !bd.build(rs, s) {
					t.Fatal("over budget")
				}
				tables := make([][]int, steps)
				for i := range tables {
					tables[i] = vals
				}
				want := handRow(p, w.S, s, tables, func(int) int { return 1 })
				got := map[int32]uint64{}
				for _, r := range rs.rows[s] {
					got[r.code] = r.wt
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s, %d steps from %d: row %v, want %v", name, steps, s, got, want)
				}
			}
		}
	}
}

// TestJumpGuideFindsTheBound: the guide gives every U the result whose
// interval holds it (checked at each bound, next to it, at each bucket's
// edges and at random).
func TestJumpGuideFindsTheBound(t *testing.T) {
	for name, p := range map[string]*mechanics.Process{"blocks": blockWalk(), "coin runs": coinRuns()} {
		w := newProcessWorker(p)
		var src source
		src.Seed(1, 0)
		if err := w.run(&src, 10); err != nil {
			t.Fatal(err)
		}
		b := w.kern.blk
		for _, steps := range []int{1, 3, w.kern.jmp.k} {
			bd := newJumpBuilder(w, b, 1<<30, uint64(len(b.k.tcls)), tableCounts(b.k))
			rs := bd.rows(steps)
			var states []int
			for s := range w.S {
				if !p.Absorbing[s] && s != 12 {
					bd.build(rs, s)
					states = append(states, s)
				}
			}
			rs.alloc()
			for _, s := range states {
				base := len(rs.cum)
				bd.pack(rs, rs, s)
				e := rs.entry(s)
				cum, res := rs.cum[base:], rs.res[base:]
				us := []uint64{0, rs.N - 1}
				for _, c := range cum[:len(cum)-1] {
					us = append(us, c-1, c, c+1)
				}
				sh := e >> jeShShift & 63
				for q := uint64(0); q<<sh < rs.N; q++ {
					us = append(us, q<<sh, min(rs.N-1, q<<sh+(1<<sh-1)))
				}
				for range 1000 {
					us = append(us, src.Index(rs.N))
				}
				for _, U := range us {
					want := 0
					if U >= rs.N {
						continue
					}
					for cum[want] <= U {
						want++
					}
					var got uint64
					if e&jeOne != 0 {
						got = rs.guide[e>>jeGShift].b
					} else {
						gb := rs.guide[e>>jeGShift+U>>sh]
						if got = gb.b; U < gb.thr {
							got = gb.a
						}
						if got&jeImpure != 0 {
							x := got >> 1
							for rs.cum[x] <= U {
								x++
							}
							got = rs.res[x]
						}
					}
					if got != res[want] {
						t.Fatalf("%s, %d steps from %d, U %d: result %x, want %x", name, steps, s, U, got, res[want])
					}
				}
			}
		}
	}
}

// TestJumpLanesReplay: runLanes counts what plain code counts when it
// replays runLanes' order of draws — lane A, then lane B, one block each
// per round while at least six trials are left to end; a trial at a state
// with a single result, or past the last whole block, finished on its own
// before or after its lane's draw; the two lanes' trials, then the rest,
// one by one — with each block's result found by walking the row's
// results (no guide) and the rows counted again by the builder.
func TestJumpLanesReplay(t *testing.T) {
	lanes := testEnv(tuning{lanes: lanesAlways})
	for name, p := range lanesCases() {
		w := newProcessWorkerWith(p, lanes)
		var src source
		src.Seed(1, 0)
		if err := w.run(&src, 1); err != nil {
			t.Fatal(err)
		}
		j := w.kern.jmp
		if j == nil || !j.lanes {
			t.Fatalf("%s: no lanes", name)
		}
		b := w.kern.blk
		bd := newJumpBuilder(w, b, 1<<30, uint64(len(b.k.tcls)), tableCounts(b.k))
		full, rem := bd.rows(j.k), bd.rows(j.remSteps)
		for s := range w.S {
			if !p.Absorbing[s] && !(name == "blocks" && s == 12) {
				bd.build(full, s)
				if j.rem != nil {
					bd.build(rem, s)
				}
			}
		}
		S, H, k := w.S, p.Horizon, j.k
		if (j.rem == nil) != (name == "lanes, whole blocks") {
			t.Fatalf("%s: a last, shorter block %v", name, j.rem != nil)
		}
		last := H - k + 1
		block := func(rs *jumpRows, s int) jumpResult {
			res := rs.rows[s]
			if len(res) == 1 {
				return res[0]
			}
			U := src.Index(rs.N)
			for _, r := range res {
				if U < r.wt {
					return r
				}
				U -= r.wt
			}
			panic("U past the row")
		}
		trial := func(s, at int) int {
			for ; at <= last; at += k {
				if full.stuck[s] {
					return (H+1)*S + s
				}
				r := block(full, s)
				if r.code < 0 {
					return at*S + int(-1-r.code)
				}
				s = int(r.code)
			}
			if at <= H {
				if r := block(rem, s); r.code < 0 {
					return at*S + int(-1-r.code)
				} else {
					s = int(r.code)
				}
			}
			return (H+1)*S + s
		}
		replay := func(n int) map[int]int64 {
			got := map[int]int64{}
			batch := max(1, ctxSteps/(H+1))
			for n > 0 {
				m := min(n, batch)
				n -= m
				if m < jumpLanesMin {
					for range m {
						got[trial(p.Start, 1)]++
					}
					continue
				}
				type lane struct{ s, at int }
				ended := 0
				end := func(l *lane, out int) {
					got[out]++
					ended++
					*l = lane{p.Start, 1}
				}
				step := func(l *lane) {
					if len(full.rows[l.s]) == 1 {
						end(l, trial(l.s, l.at))
					}
					r := block(full, l.s)
					switch {
					case r.code < 0:
						end(l, l.at*S+int(-1-r.code))
					case l.at+k > last:
						end(l, trial(int(r.code), l.at+k))
					default:
						*l = lane{int(r.code), l.at + k}
					}
				}
				A, B := lane{p.Start, 1}, lane{p.Start, 1}
				for ended+6 <= m {
					step(&A)
					step(&B)
				}
				got[trial(A.s, A.at)]++
				got[trial(B.s, B.at)]++
				for range m - ended - 2 {
					got[trial(p.Start, 1)]++
				}
			}
			return got
		}
		for _, n := range []int{16, 17, 21, 1000, 2*max(1, ctxSteps/(H+1)) + 7} {
			for seed := range uint64(3) {
				w := newProcessWorkerWith(p, lanes)
				src.Seed(seed, 7)
				if err := w.run(&src, n); err != nil {
					t.Fatal(err)
				}
				h := w.hist()
				got := map[int]int64{}
				for i, c := range h.Counts {
					if c != 0 {
						got[h.Lo+i] = c
					}
				}
				src.Seed(seed, 7)
				if want := replay(n); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s, %d trials, seed %d: counts %v, replayed %v", name, n, seed, got, want)
				}
			}
		}
	}
}

// lanesCases are the chains of the lanes' tests: blocks and a last,
// shorter block, or whole blocks up to the horizon (lanes end those trials
// by a select).
func lanesCases() map[string]*mechanics.Process {
	whole := lanesWalk()
	whole.Horizon = 42 // 3 blocks of 14 steps
	return map[string]*mechanics.Process{"lanes": lanesWalk(), "lanes, whole blocks": whole, "coin runs": coinRuns(), "blocks": blockWalk()}
}

// TestJumpLanesVsExact runs the jump engine's test chains with and without
// lanes, whatever its cost estimate chooses.
func TestJumpLanesVsExact(t *testing.T) {
	for mode, tune := range map[string]tuning{"lanes": {lanes: lanesAlways}, "no lanes": {lanes: lanesNever}} {
		for name, p := range lanesCases() {
			t.Run(name+", "+mode, func(t *testing.T) {
				t.Parallel()
				crossCheck(t, name+", "+mode, p, 23, trials(200_000, 600_000), tune)
			})
		}
	}
}

// TestPeriodicRowsCountEverySequence: for a chain whose kernels repeat
// every third step, a block's row holds, for each result, the number of
// sequences of one index into each step's table that lead there, counted
// here by walking every sequence through Move at the block's steps.
func TestPeriodicRowsCountEverySequence(t *testing.T) {
	p := periodicWalk(false)
	w := ranWorker(t, p, 10, tuning{})
	j := w.kern.jmp
	if j == nil || j.k != 3 || j.remSteps != 2 {
		t.Fatalf("want the jump engine in blocks of 3 steps and a last block of 2, got %+v", j)
	}
	// The table of each step of the period: the kernel's value by index.
	var tables [][]int
	for i := range 3 {
		k, err := w.kern.kernel(w, i+1)
		if err != nil {
			t.Fatal(err)
		}
		var vals []int
		for _, c := range k.tcls {
			vals = append(vals, k.vals[c])
		}
		tables = append(tables, vals)
	}
	if fmt.Sprint(tables) != "[[-1 1] [1 2 3] [-1 0 0 2]]" {
		t.Fatalf("tables %v", tables)
	}
	bd := periodicBuilder(t, w)
	for _, steps := range []int{3, 2} {
		rs := bd.rows(steps)
		for s := range w.S {
			if p.Absorbing[s] {
				continue
			}
			if !bd.build(rs, s) {
				t.Fatal("over budget")
			}
			want := handRow(p, w.S, s, tables[:steps], func(i int) int { return i + 1 })
			got := map[int32]uint64{}
			for _, r := range rs.rows[s] {
				got[r.code] = r.wt
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%d steps from %d: row %v, want %v", steps, s, got, want)
			}
			if rs.stuck[s] != (s == 4) {
				t.Errorf("%d steps from %d: stuck %v", steps, s, rs.stuck[s])
			}
		}
	}
}

// periodicBuilder is a builder of the rows newPeriodicJump builds for w's
// chain, with room for any rows.
func periodicBuilder(t *testing.T, w *processWorker) *jumpBuilder {
	bd := newPeriodicBuilder(w, &w.kern)
	if bd == nil || newPeriodicJump(w, &w.kern) == nil {
		t.Fatal("no periodic jump engine")
	}
	bd.budget = 1 << 30
	return bd
}

// TestKernelCountsMatchTheKernel: the entries (index pairs, for a kernel of
// two tables) of each class, over the table's size, are the kernel's exact
// probabilities of the class's value.
func TestKernelCountsMatchTheKernel(t *testing.T) {
	p := keyedKernel()
	w := ranWorker(t, p, 10, tuning{})
	for _, step := range []int{1, 3} {
		k, err := w.kern.kernel(w, step)
		if err != nil {
			t.Fatal(err)
		}
		if (k.cb.pb != nil) != (step == 3) {
			t.Fatalf("step %d: a pair kernel %v", step, k.cb.pb != nil)
		}
		N, cnt := kernelCounts(k)
		d, _, err := exact.Eval(p.Kernel(step))
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for c, n := range cnt {
			sum += n
			if got, want := float64(n)/float64(N), d.P[k.vals[c]-d.Lo]; math.Abs(got-want) > 1e-12 {
				t.Errorf("step %d, value %d: %d/%d, want %v", step, k.vals[c], n, N, want)
			}
		}
		if sum != N {
			t.Errorf("step %d: counts add up to %d of %d", step, sum, N)
		}
	}
}

// TestClassesWithoutSorting: classes gives, for values in a narrow range
// (by offset) and a wide one (by sorting), the distinct values ascending
// and each entry's rank among them.
func TestClassesWithoutSorting(t *testing.T) {
	var src source
	src.Seed(3, 0)
	for _, width := range []uint64{1, 5, 300, 1 << 40} {
		vals := make([]int, 200)
		for i := range vals {
			vals[i] = int(src.Index(width)) - 7
		}
		vals[0] = math.MinInt + 3*int(width>>40) // one far value when wide
		if width < 1<<40 {
			vals[0] = -7
		}
		distinct, cls := classes(vals)
		for i := 1; i < len(distinct); i++ {
			if distinct[i] <= distinct[i-1] {
				t.Fatalf("width %d: distinct values %v not ascending", width, distinct)
			}
		}
		for i, v := range vals {
			if distinct[cls[i]] != v {
				t.Fatalf("width %d: entry %d (%d) in class %d", width, i, v, cls[i])
			}
		}
	}
}

// tableCounts is the entries of a table kernel in each class.
func tableCounts(k *compiledKernel) []uint64 {
	_, cnt := kernelCounts(k)
	return cnt
}

// handRow counts by hand where every sequence of kernel values leads a
// chain from state s, step i drawing each entry of tables[i] once at step
// number at(i): a transient state after the last step, or −1 − (i·S + a)
// absorbed in a at the sequence's (i+1)-th step.
func handRow(p *mechanics.Process, S, s int, tables [][]int, at func(i int) int) map[int32]uint64 {
	want := map[int32]uint64{}
	steps := len(tables)
	seq := make([]int, steps)
	for {
		st, code := s, int32(-1)
		for i, x := range seq {
			if st = p.Move(at(i), st, tables[i][x]); p.Absorbing[st] {
				code = int32(-1 - (i*S + st))
				break
			}
		}
		if !p.Absorbing[st] {
			code = int32(st)
		}
		want[code]++
		i := 0
		for ; i < steps && seq[i] == len(tables[i])-1; i++ {
			seq[i] = 0
		}
		if i == steps {
			return want
		}
		seq[i]++
	}
}

// ranWorker is a worker for p, tuned by tune, that has run n trials of
// chunk 0 with seed 1 (its engines built).
func ranWorker(t *testing.T, p *mechanics.Process, n int, tune tuning) *processWorker {
	t.Helper()
	w := newProcessWorkerWith(p, testEnv(tune))
	var src source
	src.Seed(1, 0)
	if err := w.run(&src, n); err != nil {
		t.Fatal(err)
	}
	return w
}

// testEnv is the environment of a worker made outside a run, tuned.
func testEnv(tune tuning) *workerEnv { return newWorkerEnv(context.Background(), 0, tune) }

// noTables tunes workers with a budget too small for any table.
var noTables = tuning{tables: 64}
