// Package sim runs any oddsmith model by parallel Monte Carlo sampling: one
// of the two engines (package exact is the other), which share package
// engine (distributions, results, the memory budget, the summaries) and
// never import each other. Package crosscheck, above both, runs a model in
// each and compares them.
//
// Trials are cut into fixed-size chunks; chunk c draws from its own PCG
// stream derived from (seed, c), and per-worker histograms are merged by
// integer addition, so a result depends on the seed and the trial count but
// never on the number of workers. Hot loops use a concrete PCG, draw several
// dice per 64-bit word without bias, and do not allocate.
//
// A run stays within Options.MemoryBytes (engine.DefaultMemory when unset;
// see memory.go) and stops soon after a cancellation: the workers look at
// the context between chunks and, for processes, between batches of
// trials within a chunk.
//
// A fault of the model (a mechanics.Fault its own function raises) ends a
// run with an error; any other panic is a bug, carried from the worker
// that met it to the goroutine that started the run and raised there.
package sim
