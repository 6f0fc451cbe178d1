package store

import "fmt"

// InUseError is a store another process's sweep holds.
type InUseError struct {
	Store string
	PID   string // the holder's process id, as it wrote it
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%s is in use by another sweep (pid %s); wait for it, or give this sweep another --out", e.Store, e.PID)
}
