package engine

// Kind names an engine: the exact engine (package exact) or the simulator
// (package sim). Its value is the name results carry in JSON, CSV and
// tables, and the one --engine and plans accept.
type Kind string

// The two engines.
const (
	Exact Kind = "exact"
	Sim   Kind = "sim"
)

// Kinds lists the engines, the exact one first.
var Kinds = []Kind{Exact, Sim}

// Valid reports whether k names an engine.
func (k Kind) Valid() bool { return k == Exact || k == Sim }
