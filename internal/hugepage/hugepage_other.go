//go:build !linux

package hugepage

// Advise does nothing off Linux.
func Advise[T any](s []T) {}
