//go:build linux

package kernel

import (
	"fmt"
	"runtime"

	"github.com/vishvananda/netns"
)

// inNS runs fn on a locked OS thread inside namespace ns, then returns the
// thread to the namespace it came from: a socket made or a process started
// by fn belongs to ns. The thread is not given back to the runtime if it
// cannot return (Go then ends it rather than reuse it in the wrong
// namespace).
func inNS(ns netns.NsHandle, fn func() error) error {
	runtime.LockOSThread()
	orig, err := netns.Get()
	if err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("current namespace: %w", err)
	}
	defer orig.Close()
	if err := netns.Set(ns); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("enter namespace: %w", err)
	}
	ferr := fn()
	if err := netns.Set(orig); err != nil {
		return fmt.Errorf("leave namespace: %w", err) // thread stays locked: it dies with the goroutine
	}
	runtime.UnlockOSThread()
	return ferr
}
