//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Lock takes the store for this process's sweep: a second sweep on the
// same store (another shell, a second cluster job) is refused instead of
// running every point again. The lock is an flock on STORE.lock, which the
// kernel releases when the process ends, however it ends: a kill -9 leaves
// no stale lock (only the file, which the next sweep takes over). Release
// removes the file while still holding it, so a finished sweep leaves
// nothing beside its store.
func (s *Store) Lock() (release func(), err error) {
	path := s.path + ".lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &InUseError{Store: s.path, PID: strings.TrimSpace(string(holder))}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Truncate(0)
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return func() {
		os.Remove(path)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
