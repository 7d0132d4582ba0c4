// Package exact computes the exact distributions of oddsmith models: one of
// the two engines (package sim is the other), which share package engine
// (distributions, results, the memory budget, the summaries) and never
// import each other.
//
// # Which algorithm
//
// [Eval] walks a model and picks the technique by the node's shape:
//
//   - sums: direct convolution; k-fold sums by repeated squaring — float64
//     without FFT, which loses the tails;
//   - largest and smallest of independent variables (order statistics):
//     products of CDFs;
//   - keep the k highest or lowest of n dice: a DP over faces with state
//     (dice placed, kept sum);
//   - any pool evaluator: the multiset DP over the pool, faces popped in
//     ascending order with conditional binomial weights;
//   - bursting dice: a geometric mixture truncated at a depth, with the
//     lost mass reported;
//   - opposed rolls and packed outcomes: the joint of two independent
//     variables (Combine nodes);
//   - processes: step-by-step propagation for the time PMF (a forward DP,
//     for time-inhomogeneous chains too) and, for time-homogeneous chains,
//     the absorbing Markov chain's fundamental matrix N = (I − Q)⁻¹ for
//     absorption probabilities and the mean time ([SolveProcess]), solved
//     one strongly connected component of the transient states at a time
//     (an LU with gonum/mat per component, none for a state that does not
//     return to itself), so a chain that never returns costs time and
//     memory linear in its transitions.
//
// [EvalRat] computes the same distributions with math/big rationals; tests use
// it on small cases, where it must equal brute-force enumeration exactly.
//
// # Memory and cancellation
//
// [RunContext] and [ComputeContext] run within a memory budget
// ([Options].MemoryBytes, engine.DefaultMemory = 1 GiB when unset; [Run],
// [Compute], [Eval] and [SolveProcess] use the default). Before every
// allocation whose size the model sets — a dense distribution over a
// support, the DP tables of keep and pool, an explosion, a process's state
// tables, step caches and outcome table (grown with the steps), a
// component's fundamental matrix, the rational tables, the summary's
// variable arrays — the engine estimates its bytes, adds what the
// computation keeps for its whole length (a running total), and refuses
// past the budget with an [engine.MemoryError] wrapped in a mechanics.InputError
// (bad input: exit status 2) whose one-line message names what is too
// big, about how big, and what to do. Two extras are skipped instead: the
// unlimited-horizon figures of a process (with a warning in
// engine.Result.Warnings) and the exact fractions (silently, as for large models).
//
// Every loop that can run long (propagation steps, the components and
// their setup, convolutions and squarings, the keep and pool DPs per face,
// combinations, the rational engine, the summaries) looks at the context
// about every 2¹⁶ units of work and returns ctx.Err(). The one exception
// is gonum's LU, which cannot be interrupted: the budget bounds it (a
// component of k states needs 16k² bytes, so 1 GiB allows k ≤ 8192), and a
// component larger than 256 states is factorised in a goroutine of its
// own, so that a cancellation returns at once while the factorisation
// finishes in the background.
//
// # Faults
//
// A fault of the model (a mechanics.Fault its own function raises: a
// lookup without a case, a state out of bounds) comes back as an error;
// any other panic is a bug and goes on to the caller.
//
// # Accuracy
//
// Probabilities are float64. Convolution and the DPs only add and multiply
// non-negative numbers, so the relative error of each probability stays
// within a few hundred ulps; probabilities below about 1e-308 underflow to 0
// (the far tails of 1000d6), so compare tails with relative tolerances.
package exact
