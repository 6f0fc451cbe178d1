//go:build linux

// Package realtime runs a simulation against the wall clock, so that real
// programs (kernel TCP in a network namespace, package kernel) can share
// its links: the scheduler's next event is awaited on a timerfd armed at
// an absolute CLOCK_MONOTONIC time from one locked OS thread, never on
// the Go runtime's timers, and file descriptors (TUN devices) are watched
// by the same epoll set so that a packet arriving from outside enters the
// simulation at the instant it was read.
package realtime

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/sim"
)

// DefaultBound is the p99 lateness a run must stay under to be called
// real-time (issue: 1 ms; a 1500-byte packet takes 120 µs at 100 Mbit/s).
const DefaultBound = time.Millisecond

// Clock drives a scheduler in real time.
type Clock struct {
	s     *sim.Scheduler
	epfd  int
	tfd   int // timerfd: the next event
	efd   int // eventfd: Interrupt
	ready map[int32]func()
	// Bound is the p99 lateness past which Lateness reports the run as
	// exceeded (DefaultBound).
	Bound time.Duration

	t0      time.Time // time zero, on Go's monotonic clock (vDSO reads)
	base    int64     // time zero on CLOCK_MONOTONIC, in ns (the timerfd's clock)
	hist    histogram
	stopped atomic.Bool
	started atomic.Bool
}

// New makes a clock for s. Close releases its descriptors.
func New(s *sim.Scheduler) (*Clock, error) {
	c := &Clock{s: s, ready: map[int32]func(){}, Bound: DefaultBound, epfd: -1, tfd: -1, efd: -1}
	var err error
	if c.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return nil, fmt.Errorf("epoll: %w", err)
	}
	if c.tfd, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC); err != nil {
		c.Close()
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	if c.efd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		c.Close()
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	for _, fd := range []int{c.tfd, c.efd} {
		if err := c.add(fd); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

func (c *Clock) add(fd int) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}
	if err := unix.EpollCtl(c.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		return fmt.Errorf("epoll add: %w", err)
	}
	return nil
}

// Watch calls ready, on the clock's thread at the simulated time of the
// wall clock's reading (every event due before it has run), whenever fd is
// readable; ready must read until the descriptor would block (the set is
// level-triggered). fd must be non-blocking.
func (c *Clock) Watch(fd int, ready func()) error {
	if err := c.add(fd); err != nil {
		return err
	}
	c.ready[int32(fd)] = ready
	return nil
}

// Interrupt makes Run return soon; safe from any goroutine (a signal
// handler's).
func (c *Clock) Interrupt() {
	c.stopped.Store(true)
	var one [8]byte
	one[0] = 1
	unix.Write(c.efd, one[:])
}

// Now is the wall clock's reading as simulated time (0 before Run starts):
// safe from any goroutine.
func (c *Clock) Now() sim.Time {
	if !c.started.Load() {
		return 0
	}
	return sim.Time(time.Since(c.t0))
}

// Run runs the scheduler until simulated time end, each event when the
// wall clock reaches its time; it reports whether Interrupt stopped it.
func (c *Clock) Run(end sim.Time) (interrupted bool, err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return false, err
	}
	c.t0, c.base = time.Now(), ts.Nano()
	c.started.Store(true)
	var evs [32]unix.EpollEvent
	busy := 0
	for !c.stopped.Load() {
		next := min(c.s.Next(), end)
		if next <= sim.Time(time.Since(c.t0)) {
			c.runDue(next)
			if next == end {
				return false, nil
			}
			// Behind the clock: still look at the descriptors now and
			// then, so that arrivals are not starved.
			if busy++; busy < 64 {
				continue
			}
		}
		busy = 0
		timeout := -1
		if next <= sim.Time(time.Since(c.t0)) {
			timeout = 0
		} else if err := c.arm(next); err != nil {
			return false, err
		}
		n, err := unix.EpollWait(c.epfd, evs[:], timeout)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return false, fmt.Errorf("epoll wait: %w", err)
		}
		for _, ev := range evs[:n] {
			switch int(ev.Fd) {
			case c.tfd, c.efd:
				var b [8]byte
				unix.Read(int(ev.Fd), b[:])
			default:
				if f := c.ready[ev.Fd]; f != nil {
					c.catchUp(min(sim.Time(time.Since(c.t0)), end))
					f()
				}
			}
		}
	}
	return true, nil
}

// runDue runs the events due at next (none if a stale entry made Next
// early), counting each with the group's lateness.
func (c *Clock) runDue(next sim.Time) {
	late := time.Since(c.t0) - time.Duration(next)
	before := c.s.Events()
	c.s.RunUntil(next)
	c.hist.add(late, c.s.Events()-before)
}

// catchUp runs every event due by now, then moves time to now.
func (c *Clock) catchUp(now sim.Time) {
	for next := c.s.Next(); next <= now; next = c.s.Next() {
		c.runDue(next)
	}
	c.s.RunUntil(now)
}

// arm sets the timerfd to fire at simulated time t.
func (c *Clock) arm(t sim.Time) error {
	if t == sim.Never {
		return nil // only a descriptor or Interrupt will wake the loop
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(c.base + int64(t))}
	if err := unix.TimerfdSettime(c.tfd, unix.TFD_TIMER_ABSTIME, &spec, nil); err != nil {
		return fmt.Errorf("timerfd settime: %w", err)
	}
	return nil
}

// Lateness summarises how late events ran.
func (c *Clock) Lateness() Lateness { return c.hist.summary(c.Bound) }

// Close releases the clock's descriptors (not the watched ones).
func (c *Clock) Close() error {
	for _, fd := range []int{c.tfd, c.efd, c.epfd} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	c.tfd, c.efd, c.epfd = -1, -1, -1
	return nil
}
