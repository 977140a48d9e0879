package shard

// LimitsOf returns the limits that the header in prefix (the first bytes
// of a part's plain JSON, HeaderBytes of them or all of a shorter part)
// declares, as Decompress applies them: those its format registered
// (RegisterLimits), the zero Limits for a format without limits or a
// header without the fields its format needs, or the error refusing the
// header. A reader of a part held inside another (a reproduction part's
// run) bounds the inner part with them while it reads it, instead of after.
func LimitsOf(prefix []byte) (Limits, error) {
	format, header, err := HeaderOf(prefix[:min(len(prefix), HeaderBytes)])
	if err != nil {
		return Limits{}, err
	}
	f := limitsOf(format)
	if f == nil {
		return Limits{}, nil
	}
	return f(header)
}
