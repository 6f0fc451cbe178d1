//go:build linux

package kernel

import (
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/sim"
)

// Bulk is a kernel TCP connection from Src to Dst: the receiver listens in
// Dst's namespace from the start of the run and reads everything; the
// sender connects from Src's at Start with congestion control CC and
// writes as fast as the socket takes (Size bytes, or until Stop). Its
// TCP_INFO is sampled every SampleEvery.
type Bulk struct {
	flowBase
	CC          string
	MSS         int   // TCP_MAXSEG; 0: the kernel's
	Size        int64 // 0: unbounded
	SampleEvery time.Duration

	ln        net.Listener
	received  atomic.Int64
	doneAt    atomic.Int64 // simulated time the last of Size arrived
	delivered int64        // received when it stopped

	mu      sync.Mutex
	conn    *net.TCPConn
	peer    net.Conn // the receiver's side
	closed  bool
	err     error
	stop    chan struct{}
	stopped bool
	wg      sync.WaitGroup

	info              metrics.KernelInfo
	rows              []metrics.Row // TCP_INFO samples for trace.tcp
	cwndSum, rttSum   float64
	rateSum           float64
	timeouts, fastRtx int64 // the namespace's counters, if the only sender
	only              bool  // the flow is its host's only sender
}

// ports: the receiver listens on listenBase+flow, the sender binds
// senderBase+flow, so that a packet's ports name its flow.
const (
	listenBase = 5000
	senderBase = 40000
)

// NewBulk makes flow i's receiver (listening at once) and sender.
func (e *Emulation) NewBulk(i int32, name string, src, dst *Host, cc string, mss int, size int64, start, stop sim.Time) (*Bulk, error) {
	if i >= senderBase-listenBase || int(i) >= 65535-senderBase {
		return nil, fmt.Errorf("flow %s: too many kernel flows for distinct ports", name)
	}
	b := &Bulk{flowBase: flowBase{Flow: i, Name: name, Src: src, Dst: dst, Start: start, Stop: stop},
		CC: cc, MSS: mss, Size: size, SampleEvery: 100 * time.Millisecond, stop: make(chan struct{})}
	b.info.CongestionControl = cc
	b.info.SampleSeconds = b.SampleEvery.Seconds()
	addr := net.JoinHostPort(dst.Addr.String(), strconv.Itoa(listenBase+int(i)))
	err := dst.Run(func() error {
		var err error
		b.ln, err = net.Listen("tcp4", addr)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("flow %s: listen at %s: %w", name, addr, err)
	}
	b.bind(e)
	e.bindFlow(i, src.Node.ID, dst.Node.ID, uint16(senderBase+int(i)))
	e.apps = append(e.apps, b)
	b.wg.Add(1)
	go b.sink()
	return b, nil
}

// sink accepts the sender's connection and counts what arrives.
func (b *Bulk) sink() {
	defer b.wg.Done()
	c, err := b.ln.Accept()
	if err != nil {
		return // closed at the end of the run
	}
	b.mu.Lock()
	b.peer = c
	closed := b.closed
	b.mu.Unlock()
	if closed {
		c.Close()
		return
	}
	buf := make([]byte, 256<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			got := b.received.Add(int64(n))
			if b.Size > 0 && got >= b.Size && b.doneAt.Load() == 0 {
				b.doneAt.Store(int64(b.e.Clock.Now()))
			}
		}
		if err != nil {
			return
		}
	}
}

func (b *Bulk) schedule(e *Emulation) {
	e.net.Sched.At(b.Start, func() {
		b.wg.Add(1)
		go b.send()
	})
	if b.Stop < sim.Never {
		e.net.Sched.At(b.Stop, func() { b.halt(e.net.Now()) })
	}
}

// halt stops the sender at simulated time now: what arrived by then is
// the flow's.
func (b *Bulk) halt(now sim.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	b.stopped, b.delivered = true, b.received.Load()
	b.flowBase.stopped(now)
	close(b.stop)
	if b.conn != nil {
		b.conn.SetWriteDeadline(time.Now()) // a blocked write returns
	}
}

// send connects from the source's namespace and writes until stopped.
func (b *Bulk) send() {
	defer b.wg.Done()
	var conn *net.TCPConn
	dst := net.JoinHostPort(b.Dst.Addr.String(), strconv.Itoa(listenBase+int(b.Flow)))
	err := b.Src.Run(func() error {
		d := net.Dialer{
			LocalAddr: &net.TCPAddr{IP: net.IP(b.Src.Addr.AsSlice()), Port: senderBase + int(b.Flow)},
			Timeout:   time.Minute,
			Control:   b.options,
		}
		c, err := d.Dial("tcp4", dst)
		if err != nil {
			return err
		}
		conn = c.(*net.TCPConn)
		return nil
	})
	b.mu.Lock()
	if err != nil || b.stopped {
		if err != nil {
			b.err = fmt.Errorf("flow %s: connect to %s: %w", b.Name, dst, err)
		}
		b.mu.Unlock()
		if conn != nil {
			conn.Close()
		}
		return
	}
	b.conn = conn
	b.mu.Unlock()

	b.wg.Add(1)
	go b.sample(conn)
	buf := make([]byte, 64<<10)
	left := b.Size
	for {
		n := len(buf)
		if b.Size > 0 {
			if left <= 0 {
				conn.CloseWrite()
				return
			}
			n = int(min(int64(n), left))
		}
		w, err := conn.Write(buf[:n])
		left -= int64(w)
		if err != nil {
			return
		}
	}
}

// options sets the socket's congestion control and segment size before it
// connects.
func (b *Bulk) options(_, _ string, rc syscall.RawConn) error {
	var serr error
	err := rc.Control(func(fd uintptr) {
		if serr = unix.SetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION, b.CC); serr != nil {
			serr = fmt.Errorf("TCP_CONGESTION %q: %w", b.CC, serr)
			return
		}
		if b.MSS > 0 {
			if serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_MAXSEG, b.MSS); serr != nil {
				serr = fmt.Errorf("TCP_MAXSEG %d: %w", b.MSS, serr)
			}
		}
	})
	if err != nil {
		return err
	}
	return serr
}

// sample reads the sender's TCP_INFO every SampleEvery until it stops.
func (b *Bulk) sample(conn *net.TCPConn) {
	defer b.wg.Done()
	t := time.NewTicker(b.SampleEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.read(conn, true)
		}
	}
}

// read takes one TCP_INFO reading (counted in the means if sample).
func (b *Bulk) read(conn *net.TCPConn, sample bool) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return
	}
	var ti *unix.TCPInfo
	rc.Control(func(fd uintptr) {
		ti, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	})
	if err != nil || ti == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if sample {
		// A row of the run's TCP time series (trace.tcp), event 'k': the
		// kernel's view, in the simulated flows' columns.
		mss := float64(ti.Snd_mss)
		b.rows = append(b.rows, metrics.Row{
			Time: b.e.Clock.Now().Seconds(), Flow: b.Name, Event: 'k',
			Una: 1 + int64(ti.Bytes_acked), High: 1 + int64(ti.Bytes_acked) + int64(ti.Unacked)*int64(ti.Snd_mss),
			Cwnd: float64(ti.Snd_cwnd) * mss, Ssthresh: float64(ti.Snd_ssthresh) * mss,
			Flight: int64(ti.Unacked-ti.Sacked-ti.Lost+ti.Retrans) * int64(ti.Snd_mss),
			RTO:    float64(ti.Rto) / 1e6, SRTT: float64(ti.Rtt) / 1e6,
		})
		b.info.Samples++
		b.cwndSum += float64(ti.Snd_cwnd)
		b.rttSum += float64(ti.Rtt) / 1000
		b.rateSum += float64(ti.Delivery_rate) * 8
	}
	b.info.CwndLast = int(ti.Snd_cwnd)
	b.info.MinRTTMs = float64(ti.Min_rtt) / 1000
	b.info.TotalRetrans = int64(ti.Total_retrans)
}

func (b *Bulk) finish(e *Emulation) {
	b.halt(e.net.Now())
	b.mu.Lock()
	conn := b.conn
	b.mu.Unlock()
	if conn != nil {
		b.read(conn, false)
	}
	if b.only {
		if c, err := b.Src.netstat(); err == nil {
			b.timeouts, b.fastRtx = c["TCPTimeouts"], c["TCPFastRetrans"]
		}
	}
}

func (b *Bulk) close() {
	b.mu.Lock()
	conn, peer := b.conn, b.peer
	b.closed = true
	if !b.stopped {
		b.stopped = true
		close(b.stop)
	}
	b.mu.Unlock()
	if conn != nil {
		conn.SetLinger(0) // no FIN to wait for: the network has stopped
		conn.Close()
	}
	if peer != nil {
		peer.Close()
	}
	if b.ln != nil {
		b.ln.Close()
	}
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

func (b *Bulk) traceRows() []metrics.Row {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rows
}

// Err is why the sender could not run, if it could not.
func (b *Bulk) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Result implements the scenario's flow result.
func (b *Bulk) Result(now sim.Time) metrics.Flow {
	delivered := b.delivered
	if b.Size > 0 && b.doneAt.Load() > 0 {
		delivered = min(b.received.Load(), b.Size)
	}
	r := b.result(now, delivered)
	if d := sim.Time(b.doneAt.Load()); d > 0 {
		r.CompletionSeconds = d.Seconds()
		if active := (d - b.Start).Seconds(); active > 0 {
			r.GoodputBps = float64(b.Size) * 8 / active
			r.StopSeconds = d.Seconds()
		}
	}
	r.Variant = b.CC
	b.mu.Lock()
	info := b.info
	if n := float64(info.Samples); n > 0 {
		info.CwndMean, info.RTTMeanMs, info.DeliveryRateMeanBps = b.cwndSum/n, b.rttSum/n, b.rateSum/n
	}
	b.mu.Unlock()
	r.Kernel = &info
	r.RetransmittedPackets = info.TotalRetrans
	if b.only {
		r.Timeouts, r.FastRetransmits = b.timeouts, b.fastRtx
	}
	return r
}
