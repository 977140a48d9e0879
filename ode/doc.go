// Package ode integrates ordinary differential equations (gonum has no ODE
// solver). It knows nothing of gossip: the models live in package meanfield.
//
// DormandPrince is the adaptive explicit Runge–Kutta 5(4) pair of Dormand and
// Prince (J. Comput. Appl. Math. 6, 1980), in the form of Hairer, Nørsett and
// Wanner's DOPRI5 (Solving ODEs I, 2nd ed., Sec. II.4–II.6): first same as
// last (6 new evaluations per step), local extrapolation (the 5th-order
// solution is propagated), error norm
//
//	err = √( (1/d) Σ_i (e_i / (atol + rtol·max(|y_i|, |y_i,new|)))² ),
//
// a PI step-size controller (exponents 0.2 − 0.75β and β = 0.04, safety 0.9,
// factor limits [0.2, 10]), Hairer's starting-step heuristic, dense output by
// the method's 4th-order continuous extension (Shampine 1986; DOPRI5's
// contd5), and event location on the dense output. It is the method of SciPy's
// solve_ivp "RK45" and of Julia's DP5.
//
// RK4 is the classical fixed-step fourth-order method, for comparison.
//
// # Convention
//
// Settings holds the numerical knobs; the zero value of each field means
// its documented default, so Settings{} integrates at rtol 1e-6. Errors are
// prefixed "ode: " and name the Settings field at fault: the ranges of
// RTol, ATol and MaxSteps are stated once, as the parameters ode.RTol,
// ode.ATol and ode.MaxSteps, and checked by Settings.Validate (a negative
// MaxSteps is an error, not the default). The integrators
// take no context: the systems of package meanfield (two to nine smooth
// equations) integrate in milliseconds, and MaxSteps bounds the work.
//
// # Contract
//
// RK4 and DormandPrince refuse, before any step, a nil Func, an empty y0,
// a NaN, infinite or reversed interval, a zero, negative or NaN step
// (RK4's h), more steps than MaxRK4Steps (RK4) or MaxSteps (DormandPrince,
// when MaxStep or FixedStep forces them), and Settings out of range
// (Settings.Validate: RTol, ATol, MaxSteps named); DormandPrince stops
// with an error when its solution becomes NaN (a NaN y0 included) or its
// step underflows. FixedStep is used only when > 0 (≤ 0 is the adaptive
// default, not an error). Grid and Solution.At do not validate: out of
// range Grid returns nil (no grid) and At NaN components, never a panic.
// TestContract checks the refusals, TestNastyValues that no value panics
// or hangs.
package ode
