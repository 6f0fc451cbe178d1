//go:build !unix

package store

// Lock is a no-op where flock is not available.
func (s *Store) Lock() (release func(), err error) { return func() {}, nil }
