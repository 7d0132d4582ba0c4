// Package mechanics is the model core: the declared description of a dice
// mechanic, which both engines (packages exact and sim) compute and which
// never computes anything itself. Above it sit the content (the game
// systems under systems/, built with systems/kit) and the language
// (lang/notation and lang/rules: designers' one-liners and rule files);
// both build the same declared models. Below it is only mechanics/expr,
// the output expressions.
//
// # From a record to a result
//
// A mechanic's model is read in this order:
//
//   - Record: the outcome of one trial as named, typed fields (Int, Flag,
//     Enum, Scaled for exact fractions on a lattice). NewRecord encodes a
//     record into one integer (mixed radix); models set and read fields
//     through a Slot and never pack bits by hand.
//   - Node: the random variable that produces encoded records, a tree of a
//     closed set of node types (Die, Const, Sum, Repeat, Scale, Clamp, Map,
//     Combine, Max, Min, Keep, Pool with an Evaluator, Compare, Cond,
//     Mixture, Explode, ExplodeRolls, CappedExplode), walked by type switches in both engines. Things
//     that unfold over time are a Process instead: finite states, absorbing
//     ones, and a step (Step, or Kernel and Move for random walks).
//   - Spec: the declared model, a Record with its Node (or a Process) and
//     the outputs to report: variables, events and bands, each an
//     expression (package expr) over the record's fields and earlier
//     variables, with a doc. `oddsmith describe` prints exactly this.
//   - Mechanic: an id, a summary and doc, its parameters (Param) and
//     options (Option; typed with SwitchOf and ChoiceOf), and Build, which
//     turns a Config into a Spec. Model calls Build and then seals the
//     Config.
//   - Config: the parameter and option values of one run. Build decodes
//     every value once, before any trial; reading the Config after the
//     model is built panics, so nothing is looked up by name on a
//     per-trial path.
//
// The engines turn a Spec into an engine.Result (package engine holds what
// both share); a result's fingerprint (Mechanic.Fingerprint) hashes the
// canonical text of the id, or a rule's text, and the settings.
//
// # Registries
//
// A Registry holds mechanics by id and never changes once made, so any
// number of goroutines may read it: package systems builds the default one
// (systems.Default) from the five systems, and designers' rules are laid
// over a registry with Overlay, which leaves the registry itself as it was.
//
// # Errors and faults
//
// Bad input (an unknown id, a value out of range, a configuration the rules
// refuse) is an *InputError (Invalid, AsInput), which commands report in
// one line with exit status 2. A model's own function that cannot go on
// with its input panics with a Fault (Raise); the engines recover that and
// nothing else (Recovered), so any other panic is a bug that reaches the
// command's one handler.
package mechanics
