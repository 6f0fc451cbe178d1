package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// Pacing shows in a pcap of the sender's access link: with BBR under
// profile ns3 (one segment per pacing step, as ns-3.37) consecutive data
// segments leave the 100 Mbit/s access link spaced at the pacing rate, so
// almost none leave back to back and the typical gap is a segment's time at
// the 10 Mbit/s bottleneck; under profile linux (TSO-sized bursts: at
// 1.2 MB/s, two segments) they leave in pairs, a pair per two segments'
// time; unpaced NewReno, clocked by ACKs that each release two segments in
// slow start and after losses, sends many back to back.
func TestPacingShowsInPcap(t *testing.T) {
	cases := []struct {
		name, profile, variant string
		pacing                 bool
		// The share of gaps of back-to-back segments (under 0.2 ms: one
		// segment takes 0.09 ms at 100 Mbit/s), at most or at least.
		maxBackToBack, minBackToBack float64
		// The median gap over the gaps that are not back to back, in
		// segments' times at the bottleneck, within 15%.
		gapSegments float64
	}{
		{name: "bbr ns3: every segment paced", profile: "ns3", variant: "bbr", maxBackToBack: 0.05, gapSegments: 1},
		{name: "bbr linux: pairs", profile: "linux", variant: "bbr", minBackToBack: 0.35, maxBackToBack: 0.65, gapSegments: 2},
		{name: "newreno ns3 paced by cwnd/srtt", profile: "ns3", variant: "newreno", pacing: true, maxBackToBack: 0.05},
		{name: "newreno ns3 unpaced", profile: "ns3", variant: "newreno", minBackToBack: 0.3, maxBackToBack: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pcap := filepath.Join(dir, "access.pcap")
			yaml := fmt.Sprintf(`name: pacing
duration: 20s
seed: 1
nodes: [S, R, D]
links:
  - {name: access, from: S, to: R, bandwidth: 100Mbps, delay: 1ms}
  - {name: bottleneck, from: R, to: D, bandwidth: 10Mbps, delay: 20ms, queue: {limit: 100}}
flows:
  - name: f
    src: S
    dst: D
    transport: {profile: %s, variant: %s, mss: 1000, pacing: %t}
    app: bulk
trace:
  pcap:
    - {link: access, direction: forward, file: %s, events: "+"}
`, c.profile, c.variant, c.pacing, pcap)
			file := filepath.Join(dir, "pacing.yaml")
			if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Run()
			if err != nil {
				t.Fatal(err)
			}
			if res.Flows[0].DeliveredBytes == 0 {
				t.Fatal("nothing delivered")
			}
			gaps, segBytes := dataGaps(t, pcap, 5*time.Second)
			// A segment's time at the bottleneck, by its payload (its
			// headers add 5% on the wire, within the tolerance).
			segTime := float64(segBytes) * 8 / 10e6
			var b2b int
			var spaced []float64
			for _, g := range gaps {
				if g < 0.2e-3 {
					b2b++
				} else {
					spaced = append(spaced, g)
				}
			}
			share := float64(b2b) / float64(len(gaps))
			t.Logf("%d gaps, %.1f%% back to back, median spaced gap %.3f ms (a segment at the bottleneck: %.3f ms)",
				len(gaps), 100*share, 1e3*median(spaced), 1e3*segTime)
			if share > c.maxBackToBack || share < c.minBackToBack {
				t.Errorf("%.1f%% of the gaps back to back, want %.0f%% to %.0f%%", 100*share, 100*c.minBackToBack, 100*c.maxBackToBack)
			}
			if c.gapSegments > 0 {
				got := median(spaced) / segTime
				if got < 0.85*c.gapSegments || got > 1.15*c.gapSegments {
					t.Errorf("median spaced gap %.2f segments' times, want %.0f ± 15%%", got, c.gapSegments)
				}
			}
		})
	}
}

// dataGaps reads a pcap and returns the gaps in seconds between
// consecutive data segments after skip, and the wire size of the payload of
// a full one (payload bytes; the pacing rate counts payload).
func dataGaps(t *testing.T, file string, skip time.Duration) ([]float64, int) {
	t.Helper()
	r := openPcap(t, file)
	var times []time.Time
	var start time.Time
	full := 0
	for {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			break
		}
		if start.IsZero() {
			start = ci.Timestamp
		}
		p := gopacket.NewPacket(data, r.LinkType(), gopacket.Default)
		tcp, ok := p.Layer(layers.LayerTypeTCP).(*layers.TCP)
		if !ok || len(tcp.Payload) == 0 {
			continue
		}
		full = max(full, len(tcp.Payload))
		if ci.Timestamp.Sub(start) >= skip {
			times = append(times, ci.Timestamp)
		}
	}
	var gaps []float64
	for i := 1; i < len(times); i++ {
		gaps = append(gaps, times[i].Sub(times[i-1]).Seconds())
	}
	if len(gaps) < 100 {
		t.Fatalf("only %d data gaps in %s", len(gaps), file)
	}
	return gaps, full
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// openPcap opens a pcap file for reading; the file closes with the test.
func openPcap(t *testing.T, file string) *pcapgo.Reader {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
