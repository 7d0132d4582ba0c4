// Package suggest finds the closest name to a misspelt one, for the "did
// you mean" hints of every error that names something unknown: mechanics'
// parameters and options, the notation's functions and a rule file's keys.
package suggest
