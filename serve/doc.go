// Package serve is the designer's workbench behind 'oddsmith serve': an
// HTTP server on the loopback interface that answers a JSON API (list,
// describe, check, run, compare, sweep, solve, export; docs/workbench-api.md
// is the contract) and serves the page embedded from web/.
//
// # Where it sits
//
// Beside study, above the engines: it resolves a request to a mechanic and
// settings as the command line does (study.Lookup, Mechanic.Configure),
// runs it with the same study and reports functions, and answers with the
// JSON the command line would print and the command that reproduces it.
// cmd/oddsmith wires it to the flags and the signals.
//
// # Safety
//
// A local server is reachable by every page the user opens, so it refuses
// a Host header that is not its own address or localhost (DNS rebinding),
// a POST from another Origin, and bodies over a mebibyte; it runs at most
// GOMAXPROCS computations at once with a small queue behind them (then it
// answers 503 busy), each under a memory budget and a time limit and
// cancelled when its client goes away; a panic answers 500 with one line
// and the server goes on. It reads no file but the rule files it was
// given.
package serve
