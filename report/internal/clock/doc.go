// Package clock is where a reproduction's time goes: the Clock times each
// step of a run (wall and CPU time, the CPU time inside simulations and
// the shuffles they made, by section), hands each finished step to a
// callback as a StepTime (a batch log line), and renders the timing table
// that ends REPORT.md, with the tasks' times when the report was merged
// from part files (part.Merger). CPUTime reads the process's CPU time (−1
// where the system does not say).
//
// It is internal to report (report.StepTime is its StepTime) and imports
// no report package but report/part.
//
// # Contract
//
// No function takes a context or returns an error; a Clock is made by New
// and used from one goroutine. A CPU time of −1 (unknown) is absorbing and
// leaves its cell empty.
package clock
