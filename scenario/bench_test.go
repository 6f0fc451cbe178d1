package scenario

import (
	"testing"
)

// BenchmarkExamples runs the anchors' scenarios end to end (parse, build,
// simulate). Reported per run: ns/op is the wall time of one whole
// simulation; Mevents/s and Mpkts/s are kernel events and link
// transmissions per wall second; Mdelivered/s is TCP data delivered in
// order, in full segments, per wall second (the unit of issue 18's goal
// and of htsim's figures); allocs/op counts every allocation of the
// run, set-up included (the per-packet path adds none: see
// TestSteadyStateDoesNotAllocate).
func BenchmarkExamples(b *testing.B) {
	// C-big's dumbbell with 10 000 flows: the regime in which an event
	// touches a flow's state cold (README, Speed, "Scaling").
	var many []string
	for _, k := range []string{"nodes.S{i}", "nodes.D{i}", "links.in{i}", "links.out{i}", "flows.f{i}"} {
		many = append(many, k+".count=10000")
	}
	many = append(many, "duration=5s", "flows.f{i}.start_step=0.00005s")
	cases := []struct {
		name, file string
		sets       []string
	}{
		{"A-dumbbell-lossy", "../examples/dumbbell-lossy.yaml", nil},
		{"B-chain-4hop", "../examples/chain-4hop.yaml", nil},
		{"C-dumbbell-10flows", "../examples/dumbbell-10flows.yaml", nil},
		{"C-big", "../examples/c-big.yaml", nil},
		{"C-big-10000flows-5s", "../examples/c-big.yaml", many},
		// Issue 32's yardstick: BBR's cost per delivered packet against
		// NewReno's with SACK, and pacing's own on NewReno (compare
		// Mdelivered/s; README "BBR", Speed).
		{"C-big-sack", "../examples/c-big.yaml", []string{"flows.f{i}.transport.sack=true"}},
		{"C-big-sack-paced", "../examples/c-big.yaml", []string{"flows.f{i}.transport.sack=true", "flows.f{i}.transport.pacing=true"}},
		{"C-big-bbr", "../examples/c-big.yaml", []string{"flows.f{i}.transport.sack=true", "flows.f{i}.transport.variant=bbr"}},
		{"wifi-chain-10hop-60s", "../examples/wifi-chain.yaml", nil},
		{"wifi-saturation-n10", "../examples/wifi-saturation.yaml", nil},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			sc, err := Load(c.file, c.sets)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var events, pkts, delivered float64
			for i := 0; i < b.N; i++ {
				run, err := sc.Build()
				if err != nil {
					b.Fatal(err)
				}
				res, err := run.Run()
				if err != nil {
					b.Fatal(err)
				}
				events += float64(res.Events)
				for _, l := range run.Net.Links {
					pkts += float64(l.Stats.TxPackets)
				}
				for j, f := range res.Flows {
					if mss := sc.Flows[j].Transport.TCP.Segments.MSS; mss > 0 {
						delivered += float64(f.DeliveredBytes / int64(mss))
					}
				}
			}
			b.ReportMetric(events/b.Elapsed().Seconds()/1e6, "Mevents/s")
			b.ReportMetric(pkts/b.Elapsed().Seconds()/1e6, "Mpkts/s")
			b.ReportMetric(delivered/b.Elapsed().Seconds()/1e6, "Mdelivered/s")
		})
	}
}
