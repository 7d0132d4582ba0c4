package sim

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestProcessBlocksVsExact runs the homogeneous test chains on the block
// engine, which the jump engine took over for them.
func TestProcessBlocksVsExact(t *testing.T) {
	defer func(on bool) { jumpEngine = on }(jumpEngine)
	jumpEngine = false
	for _, name := range []string{"homogeneous blocks", "homogeneous long blocks"} {
		crossCheck(t, name+" (blocks)", engineCases()[name], 19, trials(200_000, 600_000))
	}
}

// TestJumpRowsCountEverySequence: a k-step row holds, for each result, the
// number of the Rᵏ sequences of table indices that lead there, counted here
// by walking every sequence through Move.
func TestJumpRowsCountEverySequence(t *testing.T) {
	for name, p := range map[string]*mechanics.Process{"blocks": blockWalk(), "coin runs": coinRuns()} {
		w := newProcessWorker(p)
		var src Source
		src.Seed(1, 0)
		if err := w.run(&src, 10); err != nil {
			t.Fatal(err)
		}
		j := w.kern.jmp
		if j == nil {
			t.Fatalf("%s: no jump engine", name)
		}
		b := w.kern.blk
		vals := make([]int, len(b.k.tcls)) // the kernel value of each table index
		for i, c := range b.k.tcls {
			vals[i] = b.k.vals[c]
		}
		R := len(vals)
		for _, steps := range []int{1, 2, 5} {
			bd := &jumpBuilder{w: w, b: b, cnt: make([]uint64, b.C), R: uint64(R), wt: make([]uint64, w.S), budget: 1 << 30}
			for _, c := range b.k.tcls {
				bd.cnt[b.ref[c]]++
			}
			rs := bd.rows(steps)
			for s := range w.S {
				if p.Absorbing[s] || s == 12 { // blockWalk's state 12 cannot be reached
					continue
				}
				if !bd.build(rs, s) {
					t.Fatal("over budget")
				}
				want := map[int32]uint64{}
				seq := make([]int, steps)
				for {
					st, code := s, int32(-1)
					for i, x := range seq {
						if st = p.Move(1, st, vals[x]); p.Absorbing[st] {
							code = int32(-1 - (i*w.S + st))
							break
						}
					}
					if !p.Absorbing[st] {
						code = int32(st)
					}
					want[code]++
					i := 0
					for ; i < steps && seq[i] == R-1; i++ {
						seq[i] = 0
					}
					if i == steps {
						break
					}
					seq[i]++
				}
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
		var src Source
		src.Seed(1, 0)
		if err := w.run(&src, 10); err != nil {
			t.Fatal(err)
		}
		b := w.kern.blk
		for _, steps := range []int{1, 3, w.kern.jmp.k} {
			bd := &jumpBuilder{w: w, b: b, cnt: make([]uint64, b.C), R: uint64(len(b.k.tcls)), wt: make([]uint64, w.S), budget: 1 << 30}
			for _, c := range b.k.tcls {
				bd.cnt[b.ref[c]]++
			}
			rs := bd.rows(steps)
			var states []int
			for s := range w.S {
				if !p.Absorbing[s] && s != 12 {
					bd.build(rs, s)
					states = append(states, s)
				}
			}
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
