package compare

import "fmt"

// Point is one cell of the comparison: a reference (simulator, scenario,
// variant, loss rate) and the tcplab scenario file and overrides that
// reproduce it.
type Point struct {
	Scen    string  // A, B or C
	Sim     string  // ns2 or ns3
	Var     string  // the anchors' variant label
	P       float64 // loss rate
	File    string  // tcplab scenario, relative to the repository root
	Sets    []string
	Flows   int // flows whose delivered bytes are summed (C: 10)
	Seconds float64
}

// Label names the point in tables.
func (p Point) Label() string { return fmt.Sprintf("%s %s %s p=%g", p.Scen, p.Sim, p.Var, p.P) }

func pct(p float64) string { return fmt.Sprintf("%g%%", p*100) }

// Points lists the comparisons the TCP engine is validated on (issue: A, B
// and C with NewReno and Reno against ns-2; NewReno+SACK with and without
// the timer restart against ns-3).
func Points() []Point {
	var ps []Point
	for _, p := range []float64{0, 0.01, 0.02, 0.05} {
		loss := "links.lossy.loss.rate=" + pct(p)
		for _, v := range []struct{ anchor, variant string }{{"Newreno", "newreno"}, {"Reno", "reno"}} {
			ps = append(ps, Point{Scen: "A", Sim: "ns2", Var: v.anchor, P: p, File: "examples/dumbbell-lossy.yaml",
				Sets: []string{loss, "flows.ftp.transport.variant=" + v.variant}, Flows: 1, Seconds: 200})
		}
		for _, v := range []struct {
			anchor  string
			restart bool
		}{{"NewReno+sack", false}, {"NewReno+sack+rtxrestart", true}} {
			ps = append(ps, Point{Scen: "A", Sim: "ns3", Var: v.anchor, P: p, File: "examples/dumbbell-lossy-ns3.yaml",
				Sets: []string{loss, fmt.Sprintf("flows.ftp.transport.rtx_restart=%t", v.restart)}, Flows: 1, Seconds: 200})
		}
	}
	for _, p := range []float64{0, 0.01, 0.02, 0.05, 0.1} {
		var loss []string
		for h := 1; h <= 4; h++ {
			loss = append(loss, fmt.Sprintf("links.h%d.loss.rate=%s", h, pct(p)))
		}
		for _, v := range []struct{ anchor, variant string }{{"Newreno", "newreno"}, {"Reno", "reno"}} {
			ps = append(ps, Point{Scen: "B", Sim: "ns2", Var: v.anchor, P: p, File: "examples/chain-4hop.yaml",
				Sets: append(loss[:4:4], "flows.ftp.transport.variant="+v.variant), Flows: 1, Seconds: 200})
		}
		for _, v := range []struct {
			anchor  string
			restart bool
		}{{"NewReno+sack", false}, {"NewReno+sack+rtxrestart", true}} {
			ps = append(ps, Point{Scen: "B", Sim: "ns3", Var: v.anchor, P: p, File: "examples/chain-4hop-ns3.yaml",
				Sets: append(loss[:4:4], fmt.Sprintf("flows.ftp.transport.rtx_restart=%t", v.restart)), Flows: 1, Seconds: 200})
		}
	}
	ps = append(ps,
		Point{Scen: "C", Sim: "ns2", Var: "n10_bw6_Newreno", P: 0.02, File: "examples/dumbbell-10flows.yaml", Flows: 10, Seconds: 100},
		Point{Scen: "C", Sim: "ns3", Var: "n10_bw6_NewReno+sack", P: 0.02, File: "examples/dumbbell-10flows-ns3.yaml",
			Sets: []string{"flows.f{i}.transport.rtx_restart=false"}, Flows: 10, Seconds: 100},
		Point{Scen: "C", Sim: "ns3", Var: "n10_bw6_NewReno+sack+rtxrestart", P: 0.02, File: "examples/dumbbell-10flows-ns3.yaml",
			Sets: []string{"flows.f{i}.transport.rtx_restart=true"}, Flows: 10, Seconds: 100},
	)
	return ps
}
