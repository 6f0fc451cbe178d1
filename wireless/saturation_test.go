package wireless

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/traffic"
)

// saturation runs n saturated UDP senders 5 m around one receiver, as
// the reference ns-3 program does, and returns the payload throughput over
// [2 s, 22 s) and the share of frames (RTSs) whose ACK (CTS) never came.
func saturation(t testing.TB, n int, rate float64, rts bool, seed uint64) (mbps, p float64) {
	net, ch := saturatedNet(t, n, rate, rts, seed)
	cbrs := ch.cbrs
	count := func() (bytes, frames, missed int64) {
		for _, c := range cbrs {
			bytes += c.Sink.Bytes
		}
		for _, r := range ch.Radios() {
			missed += r.Stats.MissedACKs
			if rts {
				frames += r.Stats.RTS
			} else {
				frames += r.Stats.DataFrames
			}
		}
		return
	}
	net.Run(2 * sim.Second)
	b0, f0, m0 := count()
	net.Run(22 * sim.Second)
	b1, f1, m1 := count()
	return float64(b1-b0) * 8 / 20 / 1e6, float64(m1-m0) / float64(f1-f0)
}

type satChannel struct {
	*Channel
	cbrs []*traffic.CBR
}

// saturatedNet builds the cell: n senders 5 m around a receiver, each
// offering the data rate from 1 s (+ i ms).
func saturatedNet(t testing.TB, n int, rate float64, rts bool, seed uint64) (*network.Net, satChannel) {
	net := network.New(seed)
	cfg := DefaultConfig()
	cfg.Rate = rate
	if rts {
		cfg.RTSThreshold = 0
	}
	ch, err := NewChannel(net, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rx := net.AddNode("rx")
	ch.Attach(rx, 0, 0)
	var cbrs []*traffic.CBR
	for i := range n {
		s := net.AddNode(fmt.Sprintf("s%d", i))
		a := 2 * math.Pi * float64(i) / float64(n)
		ch.Attach(s, 5*math.Cos(a), 5*math.Sin(a))
		c := traffic.NewCBR(net, int32(i), s, rx, rate, 1024+traffic.UDPHeader)
		c.Start(sim.Second + sim.Time(i)*sim.Millisecond)
		cbrs = append(cbrs, c)
	}
	if err := ch.Build(); err != nil {
		t.Fatal(err)
	}
	net.ComputeRoutes()
	return net, satChannel{ch, cbrs}
}

// Saturated single-hop throughput within 2% of ns-3.37 and collision
// probability within 0.02, for 1-20 senders, 2 and 11 Mbit/s, basic access
// and RTS/CTS (testdata/ns3-saturation.csv).
func TestSaturationMatchesNS3(t *testing.T) {
	f, err := os.Open("testdata/ns3-saturation.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.Comment = '#'
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	var report strings.Builder
	for _, r := range rows[1:] {
		rts, rate, n := r[0] == "rts", num(r[1])*1e6, int(num(r[2]))
		want, wantP := num(r[3]), num(r[5])
		got, p := saturation(t, n, rate, rts, 1)
		fmt.Fprintf(&report, "%s %g Mbps n=%2d: %.3f vs ns-3 %.3f (%+.1f%%), p %.3f vs %.3f\n", r[0], num(r[1]), n, got, want, 100*(got/want-1), p, wantP)
		if math.Abs(got/want-1) > 0.02 || math.Abs(p-wantP) > 0.02 {
			t.Errorf("%s %g Mbps n=%d: %.3f Mbit/s (ns-3 %.3f), p %.3f (ns-3 %.3f)", r[0], num(r[1]), n, got, want, p, wantP)
		}
	}
	t.Log("\n" + report.String())
}
