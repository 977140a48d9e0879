package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/atomicfile"
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/plots"
)

// Env is what a command sees of the outside world.
type Env struct {
	Stdout, Stderr io.Writer
	// Getenv reads environment variables (scheduler index variables).
	Getenv func(string) string
	// Terminal reports whether Stderr is a terminal (progress is shown then).
	Terminal bool
	// BatchEvery, when Stderr is not a terminal, is how often a long run
	// logs a line of its progress (Progress); 0 logs none. The program
	// sets it (BatchInterval); tests and other front ends leave it 0, so
	// that what they read of stderr does not depend on the machine's speed.
	BatchEvery time.Duration
	// Files owns the temporary files and the folders the run creates
	// (Output, ShardOut): Program.Run makes it for each run, as a child of
	// the scope of its context (WithSignals'), and removes what it holds
	// when the run fails. A nil Files registers nothing.
	Files *atomicfile.Scope
}

// Run is a command's work, once its flags are parsed and checked.
type Run func(ctx context.Context, e *Env) error

// Command is one command of the CLI, described as data (as the Go
// command's base.Command): its help comes from here, not from running it.
type Command struct {
	Name      string
	UsageLine string // after "gossipkit ": "NAME [flags]" if empty
	Short     string // one line for the list of commands
	// Flags declares the command's flags on fs, each bound to the variable
	// (often a Config field) that run reads, and returns run. It is called
	// once per invocation, and by help to list the flags.
	Flags func(fs *FlagSet) Run
	// Subs are the subcommands (tree build, plot fig4): the next argument
	// names one; Noun says what they are ("subcommand", "figure").
	Subs []*Command
	Noun string
	// Positional: the command takes arguments besides its flags (merge).
	Positional bool
}

func (c *Command) usage(path string) string {
	if c.UsageLine != "" {
		return c.UsageLine
	}
	if len(c.Subs) > 0 {
		return fmt.Sprintf("%s %s [flags]; gossipkit %s %s --help for the flags", path, strings.Join(c.subNames(), "|"), path, c.Subs[0].Name)
	}
	return path + " [flags]"
}

func (c *Command) subNames() []string {
	var n []string
	for _, s := range c.Subs {
		n = append(n, s.Name)
	}
	return n
}

func find(cmds []*Command, name string) *Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Program is the CLI: its commands and how it introduces itself.
type Program struct {
	Name, Version, Summary, Footer string
	Commands                       []*Command
}

func (p *Program) names() []string {
	var n []string
	for _, c := range p.Commands {
		n = append(n, c.Name)
	}
	slices.Sort(n)
	return n
}

func (p *Program) printHelp(w io.Writer) {
	fmt.Fprintf(w, "%s %s: %s\n\nUsage: %s <command> [flags]\n\nCommands:\n", p.Name, p.Version, p.Summary, p.Name)
	for _, n := range p.names() {
		fmt.Fprintf(w, "  %-12s %s\n", n, find(p.Commands, n).Short)
	}
	fmt.Fprintf(w, "  %-12s %s\n\n%s\n", "help", "help [command]: the flags of one command", p.Footer)
}

// resolve finds the command that args name, following subcommands; path
// is its name as typed ("tree fail"), rest the arguments after it.
func (p *Program) resolve(args []string) (c *Command, path string, rest []string, err error) {
	c = find(p.Commands, args[0])
	if c == nil {
		return nil, "", nil, Usagef("unknown command %q (valid: %s)", args[0], strings.Join(p.names(), ", "))
	}
	path, rest = c.Name, args[1:]
	for len(c.Subs) > 0 {
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return c, path, rest, nil // help, or a missing subcommand
		}
		sub := find(c.Subs, rest[0])
		if sub == nil {
			return c, path, rest, Usagef("%q: valid %ss are %s", rest[0], c.Noun, strings.Join(c.subNames(), ", "))
		}
		c, path, rest = sub, path+" "+sub.Name, rest[1:]
	}
	return c, path, rest, nil
}

// Help prints the help of the command args name: its usage line and flags.
func (p *Program) help(w io.Writer, args []string) error {
	c, path, _, err := p.resolve(args)
	if err != nil {
		return err
	}
	if len(c.Subs) > 0 {
		fmt.Fprintf(w, "Usage: gossipkit %s\n", c.usage(path))
		return nil
	}
	fs := NewFlagSet(path)
	c.Flags(fs)
	printFlags(w, fs.FlagSet, c.usage(path))
	return nil
}

// Run runs the command args name and returns the exit status: 0, 1 (an
// internal error or a failed check), 2 (bad input: one line naming the
// flag) or 130/143 (interrupted). Stdout keeps its first write error
// (exit 1 with one line); a run that does not succeed removes every
// temporary file and folder it created.
func (p *Program) Run(ctx context.Context, e *Env, args []string) int {
	// The run's own scope: a run that fails removes its files, and only
	// its files, while other runs of the process (serve) go on.
	ctx, files := atomicfile.NewContext(ctx)
	ResetFinal()
	stdout := &Stdout{Ctx: ctx, W: e.Stdout}
	checked := *e
	checked.Stdout = stdout
	checked.Files = files
	name := p.Name
	if len(args) > 0 {
		name += " " + args[0]
	}
	code := p.run(ctx, &checked, name, args)
	if code == 0 && stdout.Err != nil {
		if errors.Is(stdout.Err, context.Canceled) {
			c, what := Interrupted(ctx)
			Final(func() { fmt.Fprintf(e.Stderr, "%s: %s; no output written\n", name, what) })
			code = c
		} else {
			fmt.Fprintf(e.Stderr, "%s: writing the output: %v\n", name, stdout.Err)
			code = 1
		}
	}
	if code != 0 {
		files.Cleanup()
	} else {
		files.Keep()
	}
	return code
}

func (p *Program) run(ctx context.Context, e *Env, name string, args []string) int {
	if len(args) == 0 {
		p.printHelp(e.Stderr)
		return 2
	}
	if h := args[0]; h == "help" || h == "-h" || h == "--help" || h == "-help" {
		if len(args) == 1 || args[1] == "help" {
			p.printHelp(e.Stdout)
			return 0
		}
		if err := p.help(e.Stdout, args[1:]); err != nil {
			if find(p.Commands, args[1]) == nil {
				fmt.Fprintf(e.Stderr, "%s help: %v\n", p.Name, err)
			} else {
				fmt.Fprintf(e.Stderr, "%s help %s: %v\n", p.Name, args[1], err)
			}
			return 2
		}
		return 0
	}
	c, path, rest, err := p.resolve(args)
	if c == nil {
		name = p.Name
	}
	if err == nil && len(c.Subs) > 0 {
		if len(rest) > 0 && (rest[0] == "-h" || rest[0] == "--help") {
			fmt.Fprintf(e.Stdout, "Usage: gossipkit %s\n", c.usage(path))
			return 0
		}
		err = Usagef("name a %s: %s", c.Noun, strings.Join(c.subNames(), ", "))
	}
	var fs *FlagSet
	if err == nil {
		fs = NewFlagSet(path)
		run := c.Flags(fs)
		if err = fs.parse(e.Stdout, rest, c); err == nil {
			err = run(ctx, e)
		}
	}
	var ue *UsageError
	var fe *fielderr.Error
	switch {
	case err == nil || errors.Is(err, ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(e.Stderr, "%s: %v\n", name, oneLine(ue.Msg))
		return 2
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		code, what := Interrupted(ctx)
		Final(func() { fmt.Fprintf(e.Stderr, "%s: %s; no output written\n", name, what) })
		return code
	case errors.As(err, &fe):
		// A value a library refused: bad input, named by its flag.
		fmt.Fprintf(e.Stderr, "%s: %v\n", name, oneLine(fs.FieldUsage(err).Error()))
		return 2
	case errors.Is(err, gossip.ErrTooLarge):
		// Valid values whose work a library refused before starting it
		// (its estimate and limit are in the message): bad input too.
		fmt.Fprintf(e.Stderr, "%s: %v\n", name, oneLine(fs.TooLarge(err)))
		return 2
	case ctx.Err() != nil:
		// After the refusals above: a run whose context was cancelled
		// before it started (serve's HEAD) still answers its checks.
		code, what := Interrupted(ctx)
		Final(func() { fmt.Fprintf(e.Stderr, "%s: %s; no output written\n", name, what) })
		return code
	case errors.Is(err, ErrFailed):
		return 1
	default:
		fmt.Fprintf(e.Stderr, "%s: %v\n", name, oneLine(err.Error()))
		return 1
	}
}

// oneLine keeps a message on one line: a newline in echoed user text (a
// path) is written \n.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }

// FlagSet is a command's flags: a flag.FlagSet that reports nothing itself
// and knows which Go field each flag is bound to, so that a library's
// field error names the flag (FieldUsage).
type FlagSet struct {
	*flag.FlagSet
	fields []fieldFlag
	// Args are the positional arguments of a Positional command.
	Args []string
	// format is the --format flag's value, checked after parsing.
	format *string
	// checks run after parsing (refuseZero).
	checks []func() error
	// ranges are the valid ranges of the numeric flags declared from a
	// parameter (IntParam, FloatParam), said when a value is refused.
	ranges map[string]string
}

type fieldFlag struct{ field, flag string }

// NewFlagSet returns an empty flag set for the command at path.
func NewFlagSet(path string) *FlagSet { return &FlagSet{FlagSet: newFlags(path)} }

// Bind records that the flag name sets field (a Go path such as
// Config.Shuffle.Exchange, as field errors name it).
func (fs *FlagSet) Bind(field, name string) {
	fs.fields = append(fs.fields, fieldFlag{field, flagName(name)})
}

// IntField declares an int flag bound to *p and to field; its default is *p.
func (fs *FlagSet) IntField(p *int, name, field, usage string) {
	fs.IntVar(p, name, *p, usage)
	fs.Bind(field, name)
}

// FloatField declares a float64 flag bound to *p and to field.
func (fs *FlagSet) FloatField(p *float64, name, field, usage string) {
	fs.Float64Var(p, name, *p, usage)
	fs.Bind(field, name)
}

// IntParam declares the int flag name bound to *p and to the field
// param.Field inside at ("Config"; "" for a bare argument such as tMax),
// its help written from param (Usage, then note after ": " if given) and
// its default *p. Where param's zero value stands for a default outside
// its range (Initial: 0 means 1), a 0 given on the command line is
// refused with the range, since the library cannot tell it from "not
// set".
func (fs *FlagSet) IntParam(p *int, name, at string, param gossip.Param, note ...string) {
	fs.IntField(p, name, param.Path(strings.TrimSuffix(at, ".")), usageOf(param, note))
	fs.setRange(name, param)
	fs.refuseZero(name, param, func() bool { return *p == 0 })
}

// FloatParam is IntParam for a float64 field.
func (fs *FlagSet) FloatParam(p *float64, name, at string, param gossip.Param, note ...string) {
	fs.FloatField(p, name, param.Path(strings.TrimSuffix(at, ".")), usageOf(param, note))
	fs.setRange(name, param)
	fs.refuseZero(name, param, func() bool { return *p == 0 })
}

// RangeParam declares the string flag name (default def) of a parameter
// that takes several values (a range LO:HI[:STEP]: a sweep), bound to
// param.Field inside at; its help is param's Usage then the forms it
// takes. The caller expands the value; the library checks each one.
func (fs *FlagSet) RangeParam(name, at string, param gossip.Param, def, forms string) *string {
	v := fs.String(name, def, usageOf(param, []string{forms}))
	fs.Bind(param.Path(strings.TrimSuffix(at, ".")), name)
	return v
}

func (fs *FlagSet) setRange(name string, p gossip.Param) {
	if p.Range == "" {
		return
	}
	if fs.ranges == nil {
		fs.ranges = map[string]string{}
	}
	fs.ranges[name] = p.Range
}

func usageOf(p gossip.Param, note []string) string {
	if len(note) > 0 {
		return p.Usage() + ": " + strings.Join(note, " ")
	}
	return p.Usage()
}

func (fs *FlagSet) refuseZero(name string, param gossip.Param, zero func() bool) {
	if param.Default == "" || param.In(0) {
		return
	}
	fs.checks = append(fs.checks, func() error {
		if zero() && Given(fs.FlagSet, name) {
			return Usagef("%s 0: valid range %s", flagName(name), param.Range)
		}
		return nil
	})
}

// FlagOf returns the flag bound to field: the same path, or one that ends
// with it (a library reporting Shuffle.Exchange of the Config.Shuffle the
// flag sets).
func (fs *FlagSet) FlagOf(field string) (string, bool) {
	for _, f := range fs.fields {
		if f.field == field {
			return f.flag, true
		}
	}
	for _, f := range fs.fields {
		if strings.HasSuffix(f.field, "."+field) || strings.HasSuffix(field, "."+f.field) {
			return f.flag, true
		}
	}
	return "", false
}

// FieldUsage turns a library's field error into a usage error naming the
// flag bound to the field ("-s 0: need Exchange ≥ 1"); a field without a
// flag keeps its Go path. An error on several fields ("Scale.Fig4C,
// Scale.Fig4S give …") names each one's flag ("--cs, --ss give …").
// A Go path inside the message bound to a flag (a combination of
// settings: "Config.Topology … with Settings.Method exact") becomes that
// flag too. Other errors pass unchanged.
func (fs *FlagSet) FieldUsage(err error) error {
	var fe *fielderr.Error
	if !errors.As(err, &fe) {
		return err
	}
	if fs == nil {
		return Usagef("%s %s", fe.Field, fe.Msg)
	}
	names := strings.Split(fe.Field, ", ")
	msg := goPath.ReplaceAllStringFunc(strings.TrimPrefix(fe.Msg, "= "), func(p string) string {
		if name, ok := fs.FlagOf(p); ok {
			return name
		}
		return p
	})
	for i, f := range names {
		if name, ok := fs.FlagOf(f); ok {
			names[i] = name
			if len(names) > 1 {
				msg = replaceWord(msg, f[strings.LastIndex(f, ".")+1:], name)
			}
		}
	}
	return Usagef("%s %s", strings.Join(names, ", "), msg)
}

// goPath is a Go field path in a library's message (Settings.Method).
var goPath = regexp.MustCompile(`\b(?:Config|Settings)(?:\.[A-Z][A-Za-z]*)+`)

// replaceWord replaces in msg every occurrence of the Go identifier word
// that is not part of a longer identifier by flag: a check that spans
// several fields names them in its message ("need Fig4Step ≥ 1"), which
// the user reads as the flags they typed ("need --step ≥ 1").
func replaceWord(msg, word, flag string) string {
	isID := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	var out strings.Builder
	for {
		i := strings.Index(msg, word)
		if i < 0 {
			out.WriteString(msg)
			return out.String()
		}
		j := i + len(word)
		if (i == 0 || !isID(msg[i-1])) && (j == len(msg) || !isID(msg[j])) {
			out.WriteString(msg[:i] + flag)
		} else {
			out.WriteString(msg[:j])
		}
		msg = msg[j:]
	}
}

// TooLarge is the message of a refusal wrapping gossip.ErrTooLarge, with
// the field it names mapped to its flag as FieldUsage does: where the
// message says "FIELD = VALUE" of a field bound to a flag, the flag takes
// its place ("--t-max 1e+300 needs at least …") and the packages' prefixes
// go; a message naming no bound field is unchanged.
func (fs *FlagSet) TooLarge(err error) string {
	msg := err.Error()
	if fs == nil {
		return msg
	}
	words := strings.Split(msg, " ")
	for i := 0; i+2 < len(words); i++ {
		name, ok := fs.FlagOf(words[i])
		if !ok || words[i+1] != "=" {
			continue
		}
		rest := strings.Join(append([]string{name}, words[i+2:]...), " ")
		head := strings.Join(words[:i], " ") + " "
		for { // "meanfield: ", "plan: chain: "
			pkg, after, found := strings.Cut(head, ": ")
			if !found || strings.Contains(pkg, " ") {
				break
			}
			head = after
		}
		return head + rest
	}
	return msg
}

// Output declares --format (default def) and -o FILE: the output flags of
// every command that prints a table. Both are checked before any work.
func (fs *FlagSet) Output(def string) (format, out *string) {
	formats := []string{def}
	for _, f := range plots.Formats {
		if f != def {
			formats = append(formats, f)
		}
	}
	fs.format = fs.String("format", def, "output format: "+orList(formats))
	out = fs.String("o", "", "write to FILE instead of standard output (atomically; checked before any work)")
	return fs.format, out
}

// parse parses args: -h prints the command's help (ErrHelp), a problem is
// a one-line usage error, and --format and -o are checked.
func (fs *FlagSet) parse(stdout io.Writer, args []string, c *Command) error {
	if c.Positional {
		fs.Args, args = SplitArgs(fs.FlagSet, args)
	}
	if err := duplicateFlag(fs.FlagSet, args); err != nil {
		return err
	}
	fs.strictNumbers()
	err := fs.FlagSet.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printFlags(stdout, fs.FlagSet, c.usage(fs.Name()))
		return ErrHelp
	}
	if err != nil {
		return flagError(fs.FlagSet, err)
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected argument %q", fs.Arg(0))
	}
	for _, check := range fs.checks {
		if err := check(); err != nil {
			return err
		}
	}
	for _, f := range emptyRefused {
		if v := fs.Lookup(f.name); v != nil && v.Value.String() == "" && Given(fs.FlagSet, f.name) {
			return Usagef(`%s "": empty; %s`, flagName(f.name), f.want)
		}
	}
	if fs.format != nil {
		if err := CheckFormat(*fs.format); err != nil {
			return err
		}
	}
	if f := fs.Lookup("o"); f != nil {
		p := f.Value.String()
		// A folder is a valid -o only for commands that write shard parts.
		shardDir := fs.Lookup("shard") != nil && (strings.HasSuffix(p, "/") || IsDir(p))
		if p != "" && p != "-" && !shardDir {
			return CheckOut("-o", p)
		}
	}
	return nil
}

// emptyRefused are the flags whose empty value, given on the command
// line, would read as "not given" (-o "" wrote to standard output,
// --merge "" ran the whole report): refused with what to give instead.
var emptyRefused = []struct{ name, want string }{
	{"o", "give a file name (or leave -o out)"},
	{"out", "give a folder name (. for the current folder)"},
	{"merge", "give the folder of the part files"},
	{"shard", "give I/M (or leave --shard out)"},
}

// orList writes "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// EnumValue is a flag that takes one name of an enumeration, parsed from
// the library's own table (enum.Of): a name outside it is a usage error
// listing the valid names.
type EnumValue[T enum.Stringer] struct {
	p       *T
	allowed []T
	alias   map[string]T
	note    string
}

// Enum declares the flag name, bound to *p and field, taking the names of
// allowed (all values of T if none); its help is what + ": a, b or c".
func Enum[T enum.Stringer](fs *FlagSet, p *T, name, field, what string, allowed ...T) *EnumValue[T] {
	if len(allowed) == 0 {
		for i := range enum.Of[T]() {
			allowed = append(allowed, T(i))
		}
	}
	v := &EnumValue[T]{p: p, allowed: allowed}
	fs.Var(v, name, what+": "+orList(v.names()))
	if field != "" {
		fs.Bind(field, name)
	}
	return v
}

// Alias accepts a former name of a value, said in the list of valid names.
func (v *EnumValue[T]) Alias(name string, val T, note string) {
	if v.alias == nil {
		v.alias = map[string]T{}
	}
	v.alias[name], v.note = val, note
}

func (v *EnumValue[T]) names() []string {
	var n []string
	for _, a := range v.allowed {
		n = append(n, a.String())
	}
	return n
}

func (v *EnumValue[T]) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return (*v.p).String()
}

func (v *EnumValue[T]) Set(s string) error {
	for _, a := range v.allowed {
		if a.String() == s {
			*v.p = a
			return nil
		}
	}
	if a, ok := v.alias[s]; ok {
		*v.p = a
		return nil
	}
	return errors.New("not a valid name")
}

// ValidValues lists the names for the usage error.
func (v *EnumValue[T]) ValidValues() string {
	s := strings.Join(v.names(), ", ")
	if v.note != "" {
		s += " " + v.note
	}
	return s
}
