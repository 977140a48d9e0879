//go:build gossipkit_bounds

package sim

// at returns &s[i], checked: the build of unchecked.go's callers in which an
// index out of range panics instead of corrupting memory.
func at[E any](s []E, i int) *E { return &s[i] }
