//go:build linux

package kernel

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/sim"
)

// needHosts skips a test where kernel hosts cannot be made, saying why.
func needHosts(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("kernel hosts unavailable here: %v", err)
	}
}

// emulate runs a scenario written in YAML with its kernel hosts.
func emulate(t *testing.T, src string) *scenario.Result {
	t.Helper()
	s, err := scenario.Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	e, err := Attach(run)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	}()
	res, err := run.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ours() []string {
	m, _ := filepath.Glob(filepath.Join(nsDir, nsName(os.Getpid(), "*")))
	return m
}

// Kernel TCP between two kernel hosts crosses the simulated link: it gets
// no more than the link's rate, its RTT is the link's, its losses are the
// link's error model's (the kernel retransmits each: the sender stops
// writing a second before the end, so that the last losses are repaired
// too).
func TestKernelTCPCrossesTheSimulatedLink(t *testing.T) {
	needHosts(t)
	for _, c := range []struct {
		name string
		loss string
	}{{"clean", "0"}, {"lossy", "2%"}} {
		t.Run(c.name, func(t *testing.T) {
			series := filepath.Join(t.TempDir(), "tcp.csv")
			res := emulate(t, fmt.Sprintf(`duration: 3s
trace: {tcp: %q}
nodes:
  - {name: K1, kernel: true}
  - {name: K2, kernel: true}
links:
  - {name: l, from: K1, to: K2, bandwidth: 10Mbps, delay: 10ms, queue: {limit: 200}, loss: {rate: %s, direction: forward, packets: data}}
flows:
  - {name: k, src: K1, dst: K2, transport: {variant: reno}, stop: 2s}
`, series, c.loss))
			f := res.Flows[0]
			info := f.Kernel
			if f.Stack != "kernel" || info == nil || info.CongestionControl != "reno" || info.Samples < 15 {
				t.Fatalf("flow %+v, kernel %+v", f, info)
			}
			t.Logf("goodput %.2f Mbit/s, min RTT %.2f ms, retrans %d, drops %v, lateness %+v",
				f.GoodputBps/1e6, info.MinRTTMs, f.RetransmittedPackets, f.Dropped, res.Emulation.(Report).Lateness)
			if f.GoodputBps > 10e6 || f.GoodputBps < 2e6 {
				t.Errorf("goodput %.2f Mbit/s over a 10 Mbit/s link", f.GoodputBps/1e6)
			}
			if info.MinRTTMs < 20 || info.MinRTTMs > 25 {
				t.Errorf("min RTT %.2f ms; the link's two ways are 20 ms", info.MinRTTMs)
			}
			lost := f.Dropped["channel_error"] + f.Dropped["queue_overflow"]
			if c.loss == "0" && f.Dropped["channel_error"] != 0 {
				t.Errorf("no loss model, yet %d channel errors", f.Dropped["channel_error"])
			}
			if c.loss != "0" && f.Dropped["channel_error"] < 10 {
				t.Errorf("%d lost on a link losing 2%%", f.Dropped["channel_error"])
			}
			if f.RetransmittedPackets < lost {
				t.Errorf("%d lost in the network, %d retransmitted by the kernel", lost, f.RetransmittedPackets)
			}
			// The sampled TCP_INFO is in the run's TCP time series too.
			csv, _ := os.ReadFile(series)
			if n := strings.Count(string(csv), ",k,k,"); n != info.Samples {
				t.Errorf("trace.tcp holds %d kernel samples, the result %d", n, info.Samples)
			}
			rep := res.Emulation.(Report)
			// Lateness is reported, not held here: go test runs other
			// packages on the same cores (the fidelity test holds it).
			if rep.Lateness.Events == 0 {
				t.Errorf("lateness %+v", rep.Lateness)
			}
			if h := rep.Hosts["K1"]; h.Sent < f.SentPackets || h.Foreign != 0 || rep.Hosts["K2"].Delivered == 0 {
				t.Errorf("hosts %+v", rep.Hosts)
			}
		})
	}
	if left := ours(); len(left) > 0 {
		t.Errorf("namespaces left after Close: %v", left)
	}
}

// A packet for an address no host of the scenario has goes nowhere: with
// no route for it the kernel refuses to send; with one forced through the
// device it is dropped there and counted, and no host receives it.
func TestForeignAddressesAreDroppedAndCounted(t *testing.T) {
	needHosts(t)
	net0 := network.New(1)
	a, b := net0.AddNode("A"), net0.AddNode("B")
	net0.Connect("ab", a, b, network.LinkConfig{Bandwidth: 10e6, Delay: sim.Millisecond}, func() network.Queue { return network.NewDropTail(100, 0) })
	net0.ComputeRoutes()
	e, err := New(net0, []*network.Node{a, b})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ha := e.Host(a)
	send := func(to string) error {
		return ha.Run(func() error {
			c, err := net.Dial("udp4", to)
			if err != nil {
				return err
			}
			defer c.Close()
			_, err = c.Write([]byte("hello"))
			return err
		})
	}
	if err := send("192.0.2.1:9"); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("sent outside the range without a route: %v", err)
	}
	// Force a default route through the device, as a user's program might.
	nl, err := netlink.NewHandleAt(ha.ns)
	if err != nil {
		t.Fatal(err)
	}
	defer nl.Close()
	link, _ := nl.LinkByName(tunName)
	if err := nl.RouteAdd(&netlink.Route{LinkIndex: link.Attrs().Index, Scope: netlink.SCOPE_LINK, Dst: &net.IPNet{IP: net.IPv4zero, Mask: net.CIDRMask(0, 32)}}); err != nil {
		t.Fatal(err)
	}
	if err := send("192.0.2.1:9"); err != nil {
		t.Fatal(err)
	}
	if err := send("10.213.9.9:9"); err != nil { // in the range, no host has it
		t.Fatal(err)
	}
	if _, err := e.Run(100 * sim.Millisecond); err != nil {
		t.Fatal(err)
	}
	sa, sb := e.Host(a).Stats, e.Host(b).Stats
	if sa.Foreign != 2 || sa.Sent != 0 || sb.Delivered != 0 {
		t.Errorf("A %+v, B %+v: want 2 foreign at A, nothing sent or delivered", sa, sb)
	}
}

// A user's program runs inside its host's namespace, and its traffic
// crosses the simulated network: the test binary itself serves and sends.
func TestACommandRunsInsideItsHost(t *testing.T) {
	needHosts(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "log")
	res := emulate(t, fmt.Sprintf(`duration: 3s
nodes:
  - {name: K1, kernel: true}
  - {name: K2, kernel: true}
links:
  - {name: l, from: K1, to: K2, bandwidth: 20Mbps, delay: 5ms}
flows:
  - name: prog
    src: K1
    dst: K2
    start: 200ms
    app:
      type: command
      argv: [%[1]q, -test.run=TestHelperProgram, --, client, "{dst}:7000", "1000000"]
      server: [%[1]q, -test.run=TestHelperProgram, --, server, "{dst}:7000"]
      log: %[2]q
`, self, log))
	f := res.Flows[0]
	out, _ := os.ReadFile(log)
	t.Logf("flow %+v\nlog:\n%s", f, out)
	if f.Stack != "kernel" || f.Variant != "command" {
		t.Errorf("stack %q variant %q", f.Stack, f.Variant)
	}
	if f.DeliveredBytes < 1000000 {
		t.Errorf("the network delivered %d payload bytes; the client sent 1000000", f.DeliveredBytes)
	}
	if !strings.Contains(string(out), "server: received 1000000 from 10.213.0.1") {
		t.Errorf("the server did not see the client's bytes from K1's address")
	}
}

// TestHelperProgram is the program TestACommandRunsInsideItsHost runs
// (a client that sends N bytes, a server that counts them); it does
// nothing as a test.
func TestHelperProgram(t *testing.T) {
	args := flagArgs()
	if len(args) < 2 {
		t.Skip("a helper process for other tests")
	}
	switch args[0] {
	case "server":
		ln, err := net.Listen("tcp4", args[1])
		if err != nil {
			fmt.Println("listen:", err)
			os.Exit(1)
		}
		c, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		n, _ := io.Copy(io.Discard, c)
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		fmt.Printf("received %d from %s\n", n, host)
		os.Exit(0)
	case "client":
		n, _ := strconv.Atoi(args[2])
		var c net.Conn
		var err error
		for range 20 { // the server may still be starting
			if c, err = net.Dial("tcp4", args[1]); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(1)
		}
		w := bufio.NewWriter(c)
		w.Write(make([]byte, n))
		w.Flush()
		c.Close()
		fmt.Println("sent", n)
		os.Exit(0)
	case "hold":
		// The child of TestLeftoversOfAKilledRunAreRemoved.
		holdHosts()
	}
}

func flagArgs() []string {
	for i, a := range os.Args {
		if a == "--" {
			return os.Args[i+1:]
		}
	}
	return nil
}

// holdHosts makes two kernel hosts with a program inside one, says
// "ready", and waits to be killed.
func holdHosts() {
	n := network.New(1)
	a, b := n.AddNode("A"), n.AddNode("B")
	e, err := New(n, []*network.Node{a, b})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	cmd := exec.Command("sleep", "600")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := e.Host(a).Run(cmd.Start); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Printf("ready %d\n", cmd.Process.Pid)
	select {}
}

// A run killed with SIGKILL cleans nothing up; the next run finds its
// namespaces by their names, kills the programs inside them and removes
// them, and touches nothing else.
func TestLeftoversOfAKilledRunAreRemoved(t *testing.T) {
	needHosts(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A namespace that is not ours must survive.
	if err := exec.Command("ip", "netns", "add", "tcplabtest-other").Run(); err == nil {
		defer exec.Command("ip", "netns", "del", "tcplabtest-other").Run()
	}
	child := exec.Command(self, "-test.run=TestHelperProgram", "--", "hold", "x")
	out, _ := child.StdoutPipe()
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	var sleeper int
	line, err := bufio.NewReader(out).ReadString('\n')
	if _, err2 := fmt.Sscanf(line, "ready %d", &sleeper); err != nil || err2 != nil {
		child.Process.Kill()
		t.Fatalf("child said %q (%v)", line, err)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()

	left := Leftovers()
	var theirs []string
	for _, name := range left {
		if ownerOf(name) == child.Process.Pid {
			theirs = append(theirs, name)
		}
	}
	if len(theirs) != 2 {
		t.Fatalf("leftovers of the killed run: %v (all: %v)", theirs, left)
	}
	if syscall.Kill(sleeper, 0) != nil {
		t.Fatalf("the program inside is already gone: the test proves nothing")
	}
	removed, err := RemoveLeftovers()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range theirs {
		if _, err := os.Stat(filepath.Join(nsDir, name)); err == nil {
			t.Errorf("%s still there (removed %v)", name, removed)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(sleeper, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if syscall.Kill(sleeper, 0) == nil {
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", sleeper)); err != nil || !strings.Contains(string(st), ") Z ") {
			t.Errorf("the program inside the killed run's namespace (pid %d) still runs", sleeper)
		}
	}
	if _, err := os.Stat(filepath.Join(nsDir, "tcplabtest-other")); err != nil {
		t.Errorf("a namespace not of tcplab's form was touched: %v", err)
	}
}

func TestNamesOfOurNamespaces(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
	}{
		{"tcplab-123-K1", 123}, {"tcplab-7-a-b", 7}, {"tcplab-x-K1", 0}, {"tcplabtest-other", 0},
		{"other-123-K1", 0}, {"tcplab--K1", 0}, {"tcplab-0-K1", 0},
	} {
		if got := ownerOf(c.name); got != c.pid {
			t.Errorf("ownerOf(%q) = %d, want %d", c.name, got, c.pid)
		}
	}
	if got := nsName(42, sanitize("a b/c")); got != "tcplab-42-a_b_c" {
		t.Errorf("nsName = %q", got)
	}
}

// A run killed while its parent does not reap it is a zombie: its
// namespaces are leftovers all the same.
func TestAZombieRunIsNotAlive(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("exited, unreaped child %d reads as alive", pid)
	}
	cmd.Wait()
	if !alive(os.Getpid()) {
		t.Error("this process reads as dead")
	}
}
