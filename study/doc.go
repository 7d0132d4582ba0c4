// Package study orchestrates computations: it chooses and runs an engine
// for a mechanic at a configuration (Engine), validates and runs grids of
// parameter points (Sweep), and reads, validates and runs batch plans into
// report bundles (Plan). It is the only package besides the command line
// that imports both engines; reports writes files from plain results.
package study
