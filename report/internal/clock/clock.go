package clock

import (
	"fmt"
	"time"

	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/part"
	"github.com/gossipkit/gossipkit/sim"
)

// StepTime is the time one finished step of a run took: Section is the
// section's number (0 for the rendering of tables and figures), Step its
// name; Wall and CPU are the step's wall-clock and CPU time (user + system
// of the whole process, every worker; −1 where the system does not say),
// Elapsed the wall time since the run started.
type StepTime struct {
	Section   int
	Step      string
	Wall, CPU time.Duration
	Elapsed   time.Duration
}

// Share is the step's share of the wall time elapsed so far.
func (t StepTime) Share() float64 {
	if t.Elapsed <= 0 {
		return 0
	}
	return float64(t.Wall) / float64(t.Elapsed)
}

// String is the step as a batch log line (without the label or the
// newline): where (section N, or render), the step, its wall and CPU
// seconds (CPU left out when unknown) and its share of the wall time so
// far, e.g. "section 2, fig7: 3.1 s, 6.0 s CPU (12% of 25 s so far)".
func (t StepTime) String() string {
	where := fmt.Sprintf("section %d", t.Section)
	if t.Section == 0 {
		where = "render"
	}
	cpu := ""
	if t.CPU >= 0 {
		cpu = fmt.Sprintf(", %.1f s CPU", t.CPU.Seconds())
	}
	return fmt.Sprintf("%s, %s: %.1f s%s (%.0f%% of %.0f s so far)", where, t.Step, t.Wall.Seconds(), cpu, 100*t.Share(), t.Elapsed.Seconds())
}

// sectionTime is where one section's time went (part.Time: the part
// files of a sharded run carry it).
type sectionTime = part.Time

// Clock times the steps of a run. A step runs from its start to the start
// of the next step or the end of its section; the time a section spends
// before its first named step is counted in that step.
type Clock struct {
	start   time.Time
	done    func(StepTime)
	section int
	name    string
	named   bool // the current step was named by the section (Study.step)
	wall    time.Time
	cpu     time.Duration
	// by section (0: rendering)
	by map[int]*sectionTime
}

// New returns a clock started now that tells done (if not nil) each
// finished step.
func New(done func(StepTime)) *Clock {
	return &Clock{start: time.Now(), done: done, by: map[int]*sectionTime{}}
}

// Of is the time of section number section so far (0: rendering).
func (c *Clock) Of(section int) *part.Time {
	if c.by[section] == nil {
		c.by[section] = &sectionTime{}
	}
	return c.by[section]
}

// Begin starts section number (0: rendering), its first step named name
// until the section names one.
func (c *Clock) Begin(number int, name string) {
	c.section, c.name, c.named = number, name, false
	c.wall, c.cpu = time.Now(), CPUTime()
}

// Step ends the current step (unless it is still the section's unnamed
// first one, which takes this name) and starts the step name.
func (c *Clock) Step(name string) {
	if !c.named {
		c.name, c.named = name, true
		return
	}
	c.End()
	c.name, c.named = name, true
	c.wall, c.cpu = time.Now(), CPUTime()
}

// End finishes the current step.
func (c *Clock) End() {
	now, cpu := time.Now(), CPUTime()
	t := StepTime{Section: c.section, Step: c.name, Wall: now.Sub(c.wall), CPU: -1, Elapsed: now.Sub(c.start)}
	if cpu >= 0 && c.cpu >= 0 {
		t.CPU = cpu - c.cpu
	}
	c.Of(c.section).Add(sectionTime{Wall: t.Wall, CPU: t.CPU})
	if c.done != nil {
		c.done(t)
	}
}

// Simulated counts one simulation of the current section: its CPU time
// (cpu0: the process's CPU time when it began) and its shuffles with the
// replications `indices` (nil: all), the protocol's warm-ups included
// (one per replication, or one per warm state they use).
func (c *Clock) Simulated(cfg sim.Config, indices []int, cpu0 time.Duration) {
	c.SimulatedWarm(cfg, indices, cpu0, cfg.WarmUps(indices))
}

// SimulatedWarm is simulated with the number of warm-ups the run computed
// (fewer than cfg.WarmUps when it found some in a sim.WarmCache).
func (c *Clock) SimulatedWarm(cfg sim.Config, indices []int, cpu0 time.Duration, warmUps int) {
	st := c.TreeSimulated(cpu0)
	reps := cfg.Reps
	if indices != nil {
		reps = len(indices)
	}
	n := (float64(reps)*float64(cfg.Rounds) + float64(warmUps)*float64(cfg.Warmup)) * float64(cfg.Nodes)
	switch cfg.Model {
	case sim.Protocol:
		st.Protocol += n
	case sim.Markov:
		st.Markov += n
	}
	// The lumped chain makes no shuffles, only the state changes; its
	// time is in SimCPU.
}

// TreeSimulated counts the CPU time of one simulation (a tree experiment,
// or a sim run) that began at process CPU time cpu0.
func (c *Clock) TreeSimulated(cpu0 time.Duration) *part.Time {
	st := c.Of(c.section)
	if cpu := CPUTime(); cpu < 0 || cpu0 < 0 {
		st.SimCPU = -1
	} else {
		st.SimCPU = part.AddCPU(st.SimCPU, cpu-cpu0)
	}
	return st
}

// secs formats a duration in seconds, or "" for an unknown one.
func secs(d time.Duration) any {
	if d < 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", d.Seconds())
}

// count formats a number of shuffles as 1.5e9, or "" for none.
func count(v float64) any {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf("%.2g", v)
}

// Table is the time of each section and of the rendering, with
// their shares of the whole. With tasks (a merge), the simulations' CPU
// time and shuffles are the tasks', and two columns give the largest wall
// time of one task and the CPU time of all tasks.
func (c *Clock) Table(titles []string, tasks *part.Merger) *plots.Table {
	t := &plots.Table{Keys: []string{"section", "wall_s", "cpu_s", "share_of_wall", "sim_cpu_s", "protocol_shuffles", "markov_shuffles"}}
	sims := c.by
	var taskWall map[int]time.Duration
	if tasks != nil {
		t.Keys = append(t.Keys, "tasks_wall_max_s", "tasks_cpu_s")
		sims, taskWall = tasks.TaskTimes()
	}
	var total, simTotal sectionTime
	for i := 0; i <= len(titles); i++ {
		if st := c.by[i]; st != nil {
			total.Add(*st)
		}
		if st := sims[i]; st != nil {
			simTotal.Add(*st)
		}
	}
	row := func(name string, own, sim sectionTime, taskWall time.Duration) {
		share := ""
		if total.Wall > 0 {
			share = fmt.Sprintf("%.1f %%", 100*float64(own.Wall)/float64(total.Wall))
		}
		r := []any{name, secs(own.Wall), secs(own.CPU), share, secs(sim.SimCPU), count(sim.Protocol), count(sim.Markov)}
		if tasks != nil {
			r = append(r, secs(taskWall), secs(sim.CPU))
		}
		t.Rows = append(t.Rows, r)
	}
	get := func(m map[int]*sectionTime, i int) sectionTime {
		if m[i] == nil {
			return sectionTime{}
		}
		return *m[i]
	}
	for i, title := range titles {
		row(fmt.Sprintf("%d. %s", i+1, title), get(c.by, i+1), get(sims, i+1), taskWall[i+1])
	}
	row("rendering (tables, figures)", get(c.by, 0), sectionTime{}, 0)
	var worst time.Duration
	if tasks != nil {
		worst = tasks.MaxTaskWall()
	}
	row("total", total, simTotal, worst)
	return t
}
