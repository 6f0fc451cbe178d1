//go:build linux

package realtime

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/sim"
)

// Every event runs at or after its time on the wall clock, never before,
// and the run lasts as long as its simulated time.
func TestEventsRunNoEarlierThanTheirTime(t *testing.T) {
	s := sim.NewScheduler()
	c, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var early int
	var tick *sim.Timer
	tick = sim.NewTimer(s, func() {
		if time.Since(c.t0) < time.Duration(s.Now()) {
			early++
		}
		tick.ArmAfter(sim.Millisecond)
	})
	tick.Arm(0)
	t0 := time.Now()
	if stopped, err := c.Run(200 * sim.Millisecond); err != nil || stopped {
		t.Fatalf("run: stopped %v, %v", stopped, err)
	}
	wall := time.Since(t0)
	l := c.Lateness()
	t.Logf("wall %v, lateness %+v", wall, l)
	if early > 0 {
		t.Errorf("%d events ran before their time", early)
	}
	if wall < 200*time.Millisecond || wall > 400*time.Millisecond {
		t.Errorf("200 ms of simulated time took %v", wall)
	}
	if l.Events != 201 {
		t.Errorf("lateness counted %d events, want 201 (0, 1, ..., 200 ms)", l.Events)
	}
	if s.Now() != 200*sim.Millisecond {
		t.Errorf("time left at %v", s.Now())
	}
}

// A watched descriptor's handler runs at the simulated time of its
// reading, after every event due by then.
func TestAWatchedDescriptorRunsAtTheClocksTime(t *testing.T) {
	s := sim.NewScheduler()
	c, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	ranAt30 := false
	s.At(30*sim.Millisecond, func() { ranAt30 = true })
	var seenAt sim.Time
	var sawEvent bool
	c.Watch(p[0], func() {
		var b [16]byte
		for {
			if _, err := unix.Read(p[0], b[:]); err != nil {
				break
			}
		}
		seenAt, sawEvent = s.Now(), ranAt30
	})
	go func() {
		time.Sleep(50 * time.Millisecond)
		unix.Write(p[1], []byte{1})
	}()
	if _, err := c.Run(100 * sim.Millisecond); err != nil {
		t.Fatal(err)
	}
	if seenAt < 50*sim.Millisecond || seenAt > 80*sim.Millisecond {
		t.Errorf("handler ran at simulated %v, written at about 50 ms", seenAt)
	}
	if !sawEvent {
		t.Error("the event due at 30 ms had not run when the handler ran")
	}
}

// Interrupt stops a run from another goroutine.
func TestInterruptStopsTheRun(t *testing.T) {
	s := sim.NewScheduler()
	c, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		time.Sleep(30 * time.Millisecond)
		c.Interrupt()
	}()
	t0 := time.Now()
	stopped, err := c.Run(10 * sim.Second)
	if err != nil || !stopped {
		t.Fatalf("stopped %v, err %v", stopped, err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("interrupted after %v", d)
	}
}

func TestLatencyPercentiles(t *testing.T) {
	var h histogram
	for i := 1; i <= 100; i++ {
		h.add(time.Duration(i)*time.Microsecond, 1)
	}
	h.add(300*time.Millisecond, 1)
	l := h.summary(time.Millisecond)
	if l.Events != 101 || l.P50us != 51 || l.P99us != 100 || l.MaxUs != 300000 || l.Exceeded {
		t.Errorf("%+v", l)
	}
	h.add(5*time.Millisecond, 10)
	if l := h.summary(time.Millisecond); !l.Exceeded || l.P99us != 5000 {
		t.Errorf("%+v: want p99 5000 µs, exceeded", l)
	}
}
