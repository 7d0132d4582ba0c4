package gm

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The states of the chains: runs of process states named by the codes of
// a record, and the bound on how many a chain may have.

// block is a run of process states, one per code of a record (added with
// Process.AddRecord): state base+code is the record with that code.
type block struct {
	base int
	rec  *mechanics.Record
}

func addBlock(p *mechanics.Process, absorbing bool, rec *mechanics.Record) block {
	return block{base: p.AddRecord(absorbing, rec), rec: rec}
}

// addMixed adds one state per code of rec, absorbing where absorbing says
// so: with a status field varying fastest, a transient state and the
// absorbing states it leads to sit side by side, so that a step's next
// states span a few indices (the exact engine holds each step's
// distribution over that span).
func addMixed(p *mechanics.Process, rec *mechanics.Record, absorbing func(code int) bool) block {
	base := len(p.States)
	for code := 0; code < rec.Size(); code++ {
		p.Add(absorbing(code), rec.Format(code))
	}
	return block{base: base, rec: rec}
}

// state is the process state of a record code.
func (b block) state(code int) int { return b.base + code }

// code is the record code of a state, and whether the state is in the block.
func (b block) code(s int) (int, bool) {
	c := s - b.base
	return c, c >= 0 && c < b.rec.Size()
}

// bug reports a programming error in a model (a state outside its blocks).
func bug(format string, a ...any) { panic(fmt.Sprintf("gm: "+format, a...)) }

// maxStates bounds the states of one chain: a configuration past it is
// refused with advice rather than built.
const maxStates = 300_000

func tooManyStates(n int, advice string) error {
	return fmt.Errorf("the chain would need %d states, more than the %d a model may hold; %s", n, maxStates, advice)
}
