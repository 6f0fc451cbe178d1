//go:build linux

package kernel

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/sim"
)

// Command is a user's program run as flow i: Argv in the source's
// namespace from Start to Stop, Server (if any) in the destination's for
// the whole run. What the network carried from Src to Dst is the flow's
// result (payload bytes delivered, retransmitted copies included: the
// program's own figures are in its output).
type Command struct {
	flowBase
	Argv, Server []string
	out          io.WriteCloser // where both programs' output goes

	mu             sync.Mutex
	client, server *exec.Cmd
	err            error
}

// stopGrace is how long a stopped program has between SIGTERM and SIGKILL.
const stopGrace = time.Second

// NewCommand makes flow i's programs; the server starts at once. log, if
// not empty, is a file for their output.
func (e *Emulation) NewCommand(i int32, name string, src, dst *Host, argv, server []string, log string, start, stop sim.Time) (*Command, error) {
	c := &Command{flowBase: flowBase{Flow: i, Name: name, Src: src, Dst: dst, Start: start, Stop: stop}}
	expand := func(args []string) []string {
		r := strings.NewReplacer("{src}", src.Addr.String(), "{dst}", dst.Addr.String())
		out := make([]string, len(args))
		for k, a := range args {
			out[k] = r.Replace(a)
		}
		return out
	}
	c.Argv, c.Server = expand(argv), expand(server)
	if log != "" {
		f, err := os.Create(log)
		if err != nil {
			return nil, fmt.Errorf("flow %s: log: %w", name, err)
		}
		c.out = f
	}
	c.bind(e)
	e.bindFlow(i, src.Node.ID, dst.Node.ID, 0)
	e.apps = append(e.apps, c)
	if len(c.Server) > 0 {
		cmd, err := c.startIn(dst, c.Server, "server")
		if err != nil {
			c.close()
			return nil, err
		}
		c.server = cmd
	}
	return c, nil
}

// startIn starts args inside host h's namespace, in a process group of
// its own (stopped as a whole).
func (c *Command) startIn(h *Host, args []string, role string) (*exec.Cmd, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if c.out != nil {
		w := prefixed(c.out, role)
		cmd.Stdout, cmd.Stderr = w, w
	}
	// Forked from a thread inside the namespace, the program is in it.
	if err := h.Run(cmd.Start); err != nil {
		return nil, fmt.Errorf("flow %s: start %s %q in %s: %w", c.Name, role, args[0], h.Node.Name, err)
	}
	go cmd.Wait()
	return cmd, nil
}

func (c *Command) schedule(e *Emulation) {
	e.net.Sched.At(c.Start, func() {
		go func() {
			cmd, err := c.startIn(c.Src, c.Argv, "client")
			c.mu.Lock()
			c.client, c.err = cmd, err
			c.mu.Unlock()
		}()
	})
	if c.Stop < sim.Never {
		e.net.Sched.At(c.Stop, func() {
			c.stopped(e.net.Now())
			c.mu.Lock()
			cmd := c.client
			c.mu.Unlock()
			go terminate(cmd)
		})
	}
}

// terminate stops a program's process group: SIGTERM, then SIGKILL.
func terminate(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	pgid := -cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	deadline := time.Now().Add(stopGrace)
	for time.Now().Before(deadline) {
		if syscall.Kill(pgid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pgid, syscall.SIGKILL)
}

func (c *Command) finish(e *Emulation) {
	if c.stoppedAt == 0 {
		c.stopped(e.net.Now())
	}
}

func (c *Command) close() {
	c.mu.Lock()
	client, server := c.client, c.server
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, cmd := range []*exec.Cmd{client, server} {
		wg.Add(1)
		go func() { defer wg.Done(); terminate(cmd) }()
	}
	wg.Wait()
	if c.out != nil {
		c.out.Close()
	}
}

func (c *Command) traceRows() []metrics.Row { return nil }

// Err is why the program could not start, if it could not.
func (c *Command) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Result implements the scenario's flow result.
func (c *Command) Result(now sim.Time) metrics.Flow {
	delivered := c.e.wire[c.Flow].deliveredPayload
	if c.stoppedAt > 0 {
		delivered = c.atStop.deliveredPayload
	}
	r := c.result(now, delivered)
	r.Variant = "command"
	return r
}

// prefixed writes each line of a program's output to w after "role: ".
func prefixed(w io.Writer, role string) io.Writer {
	return &prefixWriter{w: w, prefix: []byte(role + ": "), start: true}
}

type prefixWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix []byte
	start  bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		if p.start {
			if _, err := p.w.Write(p.prefix); err != nil {
				return 0, err
			}
			p.start = false
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			_, err := p.w.Write(b)
			return n, err
		}
		if _, err := p.w.Write(b[:i+1]); err != nil {
			return 0, err
		}
		b = b[i+1:]
		p.start = true
	}
	return n, nil
}
