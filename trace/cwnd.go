package trace

import (
	"bufio"
	"io"
	"strconv"

	"tcplab/sim"
)

// WindowSource is a flow whose congestion state can be sampled
// (tcp.Flow).
type WindowSource interface {
	Cwnd() float64
	Ssthresh() float64
}

// Sampled names a flow to sample.
type Sampled struct {
	Name string
	Flow WindowSource
}

// Cwnd samples the congestion window and slow-start threshold of flows
// every interval and writes CSV: time_s,flow,cwnd_bytes,ssthresh_bytes.
// Sampling on a timer, rather than at every change, keeps the file size
// proportional to the run's length, whatever the packet rate.
type Cwnd struct {
	w        *bufio.Writer
	flows    []Sampled
	interval sim.Time
	end      sim.Time
	sched    *sim.Scheduler
	tm       sim.Timer
	line     []byte
	err      error
}

// NewCwnd starts sampling at time 0 and stops after end.
func NewCwnd(w io.Writer, s *sim.Scheduler, interval, end sim.Time, flows []Sampled) *Cwnd {
	c := &Cwnd{w: bufio.NewWriter(w), flows: flows, interval: interval, end: end, sched: s}
	c.w.WriteString("time_s,flow,cwnd_bytes,ssthresh_bytes\n")
	c.tm.Init(s, c.sample)
	c.tm.Arm(s.Now())
	return c
}

func (c *Cwnd) sample() {
	now := c.sched.Now()
	for _, f := range c.flows {
		b := c.line[:0]
		b = strconv.AppendFloat(b, now.Seconds(), 'f', 6, 64)
		b = append(b, ',')
		b = append(b, f.Name...)
		b = append(b, ',')
		b = strconv.AppendFloat(b, f.Flow.Cwnd(), 'f', -1, 64)
		b = append(b, ',')
		ss := f.Flow.Ssthresh()
		if ss > 1e15 {
			ss = -1 // "no threshold yet": a readable marker instead of 1.8e308
		}
		b = strconv.AppendFloat(b, ss, 'f', -1, 64)
		b = append(b, '\n')
		c.line = b
		if _, err := c.w.Write(b); err != nil && c.err == nil {
			c.err = err
		}
	}
	if next := now + c.interval; next <= c.end {
		c.tm.Arm(next)
	}
}

// Flush writes buffered samples and returns the first error.
func (c *Cwnd) Flush() error {
	if c.err != nil {
		return c.err
	}
	return c.w.Flush()
}
