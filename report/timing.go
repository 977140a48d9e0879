package report

import (
	"fmt"

	"github.com/gossipkit/gossipkit/report/internal/clock"
	"github.com/gossipkit/gossipkit/report/part"
)

// StepTime is the time one finished step of a run took (Options.StepDone):
// Section is the section's number (0 for the rendering of tables and
// figures), Step its name; Wall and CPU are the step's wall-clock and CPU
// time (user + system of the whole process, every worker; −1 where the
// system does not say), Elapsed the wall time since the run started.
type StepTime = clock.StepTime

// timing ends the report with its timing table.
func (s *Study) timing(d *Doc, titles []string) error {
	var tasks *part.Merger
	how := fmt.Sprintf("Wall-clock and CPU time (user + system, all %d worker(s)) of each section's compute step and of the rendering, the CPU time inside the simulations (protocol, Markov and tree) and the shuffles they made (replications × rounds, warm-up included, × nodes)", s.opt.Workers)
	if tasks = s.run.Merger(); tasks != nil {
		how = fmt.Sprintf("This report was merged from %d array tasks. Wall-clock and CPU time (user + system) of each section in the merge (which computes everything exact and renders); the CPU time inside the simulations (protocol, Markov and tree) and the shuffles they made (replications × rounds, warm-up included, × nodes), summed over the tasks; the largest wall time of one task and the CPU time of all tasks (each runs its share of every simulation, and the compute steps on that share)", tasks.Parts())
	}
	d.printf("\n---\n\n## Where the time goes\n\n%s; sections 3–5 share the protocol runs of Figs. 7–8, which are timed in section 3. These lines differ from run to run; everything above them does not.\n", how)
	return d.inlineTable(s.clock.Table(titles, tasks))
}
