// Package mechtest helps the tests of the game systems: CheckSystem is the
// one test every system runs (declarations, option coverage, both engines,
// parameter limits, random configurations); Exact and CheckMechanics compute
// and cross-check single mechanics. It is internal: test support, not API.
package mechtest
