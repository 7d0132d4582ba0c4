// Package exact computes the exact distributions of oddsmith models.
//
// # Which algorithm
//
// [Eval] walks a model and picks the technique by the node's shape:
//
//   - sums (K1): direct convolution ([Convolve]); k-fold sums by repeated
//     squaring ([SumN]) — float64 without FFT, which loses the tails;
//   - largest and smallest of independent variables (K4): products of CDFs
//     ([MaxOf], [MinOf]);
//   - keep the k highest or lowest of n dice: a DP over faces with state
//     (dice placed, kept sum) ([Keep]);
//   - any pool evaluator (K2): the multiset DP, faces popped in ascending
//     order with conditional binomial weights ([PoolDist]);
//   - bursting dice (K3): a geometric mixture truncated at a depth, with the
//     lost mass reported ([Explode]);
//   - opposed rolls and packed outcomes (K5): the joint of two independent
//     variables (Combine nodes);
//   - processes (K6, K7): step-by-step propagation for the time PMF and, for
//     time-homogeneous chains, the fundamental matrix N = (I − Q)⁻¹ with
//     gonum/mat for absorption probabilities and the mean time
//     ([SolveProcess]).
//
// [EvalRat] computes the same distributions with math/big rationals; tests use
// it on small cases, where it must equal brute-force enumeration exactly.
//
// # Accuracy
//
// Probabilities are float64. Convolution and the DPs only add and multiply
// non-negative numbers, so the relative error of each probability stays
// within a few hundred ulps; probabilities below about 1e-308 underflow to 0
// (the far tails of 1000d6), so compare tails with relative tolerances.
package exact
