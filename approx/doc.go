// Package approx holds the float64 closed forms of the shuffle-protocol model
// (docs/MODEL.md §2–4 in the repository; Bakhshi et al., Secs. 3–5).
//
// One shuffle moves an item d between initiator A and partner B with the
// probabilities of Fig. 1, written with p = P_select = s/c and q = P_drop:
//
//	from 10: P(10|10) = 1−p,  P(11|10) = p(1−q),  P(01|10) = p·q
//	from 11: P(01|11) = P(10|11) = p(1−p)q,  P(11|11) = 1 − 2p(1−p)q
//
// Each node initiates once and is contacted once per round on average, so the
// fraction x of nodes holding d and the fraction y that have held it obey
//
//	dx/dt = 2p[(1−q)·x(1−x) − (1−p)q·x²] = k·x·(1 − x/K)
//	dy/dt = 2p·x·(1 − y)
//
// with k = 2p(1−q) and K = (1−q)/((1−q) + (1−p)q): a logistic equation. For
// the paper's q = (n−c)/(n−s), k = 2(s/c)(c−s)/(n−s) and K = c/n. Its solution
// from x(0) = x0 is
//
//	x(t) = K / (1 + (K/x0 − 1)·e^{−kt}),
//	∫₀ᵗ x = (K/k)·ln(1 + x0·(e^{kt} − 1)/K),
//	y(t) = 1 − (1 − y0)·exp(−2p ∫₀ᵗ x),
//
// which for x0 = y0 = 1/N and K = c/n is the paper's
//
//	x(t) = c·e^{kt} / (cN + (e^{kt} − 1)·n)
//	y(t) = 1 − (1 − 1/N)·(1 + (n/(cN))(e^{kt} − 1))^{−c(n−s)/(n(c−s))}.
//
// The exponent is 2pK/k = (c/n)·(n−s)/(c−s). The seed's constant
// β = (n/c)(1 − (s/c)(n−c)/(n−s)) / ((c−s)/(n−s)) simplifies to (n/c)² exactly
// (1 − (s/c)(n−c)/(n−s) = n(c−s)/(c(n−s))), so the exponent equals
// ((n−s)/(c−s))/√β; the displayed equation that used β was lost from the
// seed, so this package does not rely on it and checks its own closed form
// against numerical integration instead (agreement better than 1e-12).
//
// # Loss
//
// When each message of a shuffle (the request, the reply) is lost with
// probability ε (Config.Loss), the matrix is NewTransitionsLoss and the
// drift of x and y is the lossless one times f = (1−ε)(1−ε/2) (LossFactor;
// docs/MODEL.md §7): k becomes f·k, K does not move, and x_ε(t) = x_0(f·t),
// y_ε(t) = y_0(f·t). This is the large-N mean of a fixed fraction x0; an
// item started on few nodes can die out under loss, which only the finite-N
// chain (package chain) describes.
//
// The functions evaluate in forms that do not overflow for large kt (expm1,
// log1p, e^{−kt}); their tolerance is stated where it is tested.
//
// # Convention
//
// A model is built from a Config: Nodes, the shuffle's parameters as a
// gossip.Shuffle (n, c, s), the P_drop Variant and the initial copies (zero
// values: the simplified P_drop, one copy). Functions of one shuffle take a
// gossip.Shuffle; SStar and ArgmaxP11, which scan s, take n and c. Errors
// are prefixed "approx: "; an invalid field is a *FieldError naming it
// (Config.Shuffle.Exchange). Nothing here is long enough to take a context.
//
// # Contract
//
// This package takes no context: nothing in it runs long. PDrop, P11Given10, TransitionsFor,
// TransitionsLossFor, ArgmaxP11 and NewModel refuse a zero, negative, NaN,
// infinite or out-of-range argument with an error, a *FieldError naming
// the field where the argument is a shuffle or a Config (Shuffle.Items,
// Config.Nodes, Config.Initial, Config.Loss, …); an unknown Variant, a
// loss outside [0, 1) and an Exact ArgmaxP11 beyond MaxArgmaxExactC are
// refused too; Model.Reference refuses a negative or non-finite time and
// a zero Model. The closed forms without an error result (SStar, DxDs,
// PSelect, LossFactor, NewTransitions, Model.X and the like) do not
// validate: out of range they return NaN, ±Inf or a meaningless number,
// never a panic. TestContract checks the refusals, TestNastyValues that no
// value panics or hangs.
package approx
