package cli

// Parsed declares a flag whose text parse turns into *p (parse's error is
// the flag's message: "--name <error>"), shown in the help and in messages
// by show; field, if not "", is the Go field it sets (Bind).
func Parsed[T any](fs *FlagSet, p *T, name, field, usage string, parse func(string) (T, error), show func(T) string) {
	fs.Var(&parsedValue[T]{p, parse, show}, name, usage)
	if field != "" {
		fs.Bind(field, name)
	}
}

type parsedValue[T any] struct {
	p     *T
	parse func(string) (T, error)
	show  func(T) string
}

func (v *parsedValue[T]) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return v.show(*v.p)
}

func (v *parsedValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}
