package scenario

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Kernel flows the emulator could not run are reported at their lines
// before anything is made.
func TestKernelFlowErrorsNameTheLineAndField(t *testing.T) {
	const head = "duration: 10s\nnodes:\n  - {name: K1, kernel: true}\n  - {name: K2, kernel: true}\n  - S\nlinks:\n  - {from: K1, to: S, bandwidth: 1Mbps, delay: 1ms}\n  - {from: S, to: K2, bandwidth: 1Mbps, delay: 1ms}\nflows:\n  - name: f\n"
	cases := []struct {
		name, flow string
		want       []string
	}{
		{"a kernel host to a simulated one", "    src: K1\n    dst: S\n",
			[]string{`x.yaml:12: flows[f].dst: K1 is a kernel host and S is simulated: a real socket and a simulated one share no packets (simulated packets carry headers only); make both kernel hosts`}},
		{"a simulated host to a kernel one", "    src: S\n    dst: K2\n",
			[]string{`x.yaml:11: flows[f].src: K2 is a kernel host and S is simulated: a real socket and a simulated one share no packets (simulated packets carry headers only); make both kernel hosts`}},
		{"a command on a simulated host", "    src: S\n    dst: K2\n    app: {type: command, argv: [iperf3, -c, \"{dst}\"]}\n",
			[]string{`x.yaml:13: flows[f].app: a command runs in a kernel host's namespace: S is simulated (write {name: S, kernel: true} under nodes)`}},
		{"a datagram source on a kernel host", "    src: K1\n    dst: K2\n    app: {type: cbr, rate: 1Mbps, packet_size: 500B}\n",
			[]string{`x.yaml:13: flows[f].app: a kernel host runs bulk, transfer or command, not cbr`}},
		{"a simulated TCP setting on a kernel socket", "    src: K1\n    dst: K2\n    transport: {variant: cubic, delack_count: 1, mss: 1000}\n",
			[]string{`x.yaml:13: flows[f].transport.delack_count: not applied to a kernel socket (it takes variant, mss, sack, timestamps, ecn, window; the rest is the kernel's own)`}},
		{"a command without a program", "    src: K1\n    dst: K2\n    app: {type: command}\n",
			[]string{`x.yaml:13: flows[f].app.argv: missing: application command needs it`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, parseErrors(t, head+c.flow), c.want)
		})
	}
}

// A scenario with kernel hosts does not simulate without them: run says
// where they are and what runs them.
func TestKernelHostsNeedTheEmulator(t *testing.T) {
	const src = "duration: 1s\nnodes:\n  - {name: K1, kernel: true}\n  - {name: K2, kernel: true}\nlinks:\n  - {from: K1, to: K2, bandwidth: 1Mbps, delay: 1ms}\nflows:\n  - {src: K1, dst: K2}\n"
	s, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.KernelHosts(); len(got) != 2 {
		t.Fatalf("kernel hosts %v", got)
	}
	_, err = s.Run()
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("got %v, want one scenario error", err)
	}
	want := `x.yaml:3: nodes[K1].kernel: kernel hosts run only under tcplab emulate (this scenario's: K1, K2)`
	if es[0].Error() != want {
		t.Errorf("got  %s\nwant %s", es[0], want)
	}
	run, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	ks := run.KernelFlows()
	if len(ks) != 1 || ks[0].CC != "cubic" || ks[0].Src != "K1" || ks[0].AppType != "bulk" {
		t.Fatalf("kernel flows %+v", ks)
	}
}

// A kernel flow's window sizes both namespaces' socket buffers: four
// times its bytes as the maximum, never below Linux's defaults.
func TestKernelFlowWindowSizesTheBuffers(t *testing.T) {
	for _, c := range []struct {
		window, mss int
		rmem, wmem  string
	}{
		{20000, 0, "4096 131072 115840000", "4096 16384 115840000"}, // the long path's 20 000 segments of 1448 bytes
		{64, 1000, "4096 131072 6291456", "4096 16384 4194304"},     // small: Linux's own maxima
	} {
		transport := fmt.Sprintf("{variant: bbr, window: %d, mss: %d}", c.window, c.mss)
		if c.mss == 0 {
			transport = strings.Replace(transport, ", mss: 0", "", 1)
		}
		k := kernelFlowOf(t, transport)
		if k.Sysctls["ipv4/tcp_rmem"] != c.rmem || k.Sysctls["ipv4/tcp_wmem"] != c.wmem {
			t.Errorf("window %d, mss %d: tcp_rmem %q, tcp_wmem %q; want %q, %q", c.window, c.mss, k.Sysctls["ipv4/tcp_rmem"], k.Sysctls["ipv4/tcp_wmem"], c.rmem, c.wmem)
		}
	}
}

// A kernel flow's transport becomes socket options and sysctls: newreno
// is the kernel's reno.
func TestKernelFlowTransportBecomesSocketSettings(t *testing.T) {
	k := kernelFlowOf(t, "{variant: newreno, mss: 1000, sack: false}")
	if k.CC != "reno" || k.MSS != 1000 || len(k.Sysctls) != 1 || k.Sysctls["ipv4/tcp_sack"] != "0" {
		t.Errorf("got cc %q mss %d sysctls %v; want reno, 1000, tcp_sack 0", k.CC, k.MSS, k.Sysctls)
	}
}

// kernelFlowOf builds a scenario of one flow between two kernel hosts
// with the given transport and returns the flow the emulator would run.
func kernelFlowOf(t *testing.T, transport string) *KernelFlow {
	t.Helper()
	src := "duration: 1s\nnodes:\n  - {name: K1, kernel: true}\n  - {name: K2, kernel: true}\nlinks:\n  - {from: K1, to: K2, bandwidth: 1Mbps, delay: 1ms}\nflows:\n  - {src: K1, dst: K2, transport: " + transport + "}\n"
	s, err := Parse("x.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	return run.KernelFlows()[0]
}
