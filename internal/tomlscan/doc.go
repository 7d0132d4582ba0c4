// Package tomlscan reads the shape of a TOML document — how deep it nests,
// how many keys it holds, where each key is written — from its bytes, in
// one pass and before any TOML parser sees them. A parser's cost grows with
// the square of the depth of every key (a few kilobytes of nested inline
// tables take gigabytes), so rule files and plans are refused past the
// limits here first, with the line; the index of lines it builds places
// every error of a rule file or plan, dotted keys and inline tables
// included.
package tomlscan
