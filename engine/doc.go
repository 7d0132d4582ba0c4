// Package engine holds what the two engines share: the distribution of an
// outcome (Dist), the result either engine returns and the reports read
// (Result and its parts), the engine's Kind, the memory and work budget of
// one computation (Budget, MemoryError), the summaries that turn outcome
// masses or counts into the variables, events and bands a model declares,
// and the chi-square agreement of simulated counts with an exact
// distribution.
//
// Packages exact and sim import it and never import each other; package
// crosscheck, above both, compares them. Of the project's packages it
// imports only the model's declarations (mechanics and mechanics/expr).
package engine
