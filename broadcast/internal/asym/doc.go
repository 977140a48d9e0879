// Package asym is the model behind broadcast.AsymptoticLaw without a
// budget: the large-N law of T_L, the round at which a share L of the
// live nodes is informed, for push, pull and push–pull. New takes the
// configuration's figures (Params); Law is the law's P(T_L = t) and its
// messages, Dev its stated accuracy. It needs nothing of broadcast, which
// imports it and wraps the result in a Law.
//
// Three phases, as in the classical analyses of push and push–pull
// (Frieze and Grimmett 1985, Pittel 1987, Karp et al. 2000):
//
// 1. Start (count below a cut c, Cut by default): the chain of the
// informed count, with the exact one-round law of broadcast.ExactLaw (pull binomial,
// sender recursion, kernels made for the U met) up to count asymExactRows
// for fanouts up to 32 (it costs i²k²), and above it the binomial whose mean and variance are the step's exact
// ones (step): E[D] = U(1 − π₁), Var D = Uπ₁(1 − π₁) + U(U−1)(π₂ − π₁²).
// For pull that binomial is the exact law. The result is the law of the
// round and count at which the count first reaches c (or the level).
//
// 2. Middle: from the exit count x the count follows the mean-field path
// i_{t+1} = M − (M − i_t)·π(i_t). The randomness still to come that feeds
// back on the growth is put back as a Normal spread of the exit count in
// log-odds, computed by the linear noise approximation along the path
// (spread). While x ≪ M it is the law of log W_x, W_x the Galton–Watson
// limit of x ancestors (Athreya and Ney): the random time shift of the
// start.
//
// 3. End: given the path, the uninformed count s rounds after the exit
// has mean (M − y)·Π_{t<s} π(i_t) and the variance its own steps give it
// (for pull, the binomial of independent escapes; for push a little less,
// the distinct peers of a sender); P(T_L ≤ r + s) is the chance that this
// count, as a binomial with that mean and variance, is at most M − ⌈L·M⌉.
// For L = 1 it is the chance that all the last nodes have escaped: a
// maximum of nearly independent escape times, a Gumbel-type law (doubly
// exponential for push–pull and lossless pull, whose π → 0 as i → M;
// geometric for push, π(M) ≈ e^{−k(1−ε)M/(N−1)}).
//
// The law is the mixture over the exits and the spread, on a grid in
// log-odds of step asymGrid (wider, s/16, where the spread s is wide).
//
// Accuracy. Dev (broadcast's Law.Accuracy.DevP) bounds every |ΔP(T_L ≤ t)|:
//
//	DevP = 1/√M + 2·p_max·s_c/(ln m·√c) + 2δ²/ln²m + truncation,
//
// the first term for the binomial closures (the moment-matched steps and
// the end's binomial miss the third cumulant of counts of order M), the
// second for the skewness of the Normal spread (s_c its sd at the cut, in
// log-odds; /ln m turns it into rounds, m the growth factor of the start;
// p_max the largest probability of one round; the skewness of a mean of c
// ancestors is O(1/√c)), the third for the grid's linear interpolation
// (step δ). broadcast's asymptotic_test.go checks it against the exact chain over
// every protocol, fanouts 1–5, loss 0–0.3, failures 0–0.2 and levels
// 0.5–1 at N = 50 to 2,000, with cuts as small as 3 so that the middle and
// end carry the law: the largest |ΔF|/DevP is 0.23, and the first term's
// constant, measured, is at most 0.35 (broadcast states DevMean and
// DevSD from it).
package asym
