package repro

import (
	"fmt"
	"strings"

	"github.com/tcplab/tcplab/plot"
)

// T-DLRP's multihop evaluation (§5.3, Figs. 13-15) on the 11-node 802.11b
// chain of examples/tdlrp-chain.yaml. The loss models sit at the
// destination's radio above the MAC (TCP sees them); the marker is every
// radio's interface queue.

// tdlrpChainVariants are the seven variants with NewJersey's own marking
// threshold, set on the radios' queues instead of the wired bottleneck.
var tdlrpChainVariants = strings.ReplaceAll(tdlrpVariants, "links.bottleneck.queue.fraction", "wireless.queue.fraction")

// tdlrpRouting runs the chain entries under DSR with the paper's 50-packet
// buffer (§5.1: "DSR is the main routing protocol in our simulation with
// a maximum message buffer size set to 50 packets"), which decides, and
// under static shortest paths, a sensitivity line (what earlier versions
// ran: routing that never breaks).
var tdlrpRouting = &settingAxis{param: "routing", label: "routing", values: []string{"dsr", "static"},
	stated: func(v string) bool { return v == "dsr" }}

// tdlrpChainSetup is what the chain entries add to or change from the
// paper's text (docs/tdlrp.md, docs/routing.md).
var tdlrpChainSetup = []Deviation{
	{"routing", "DSR (QualNet 4.5), message buffer 50 packets", "DSR with ns-2.35's choices where RFC 4728 leaves one, send buffer 50 (decides); static shortest paths (sensitivity)", "QualNet's DSR settings are not given; ns-2.35's is the DSR of most TCP-over-MANET studies (compared with it: go test ./compare -run DSRAsNS2)"},
	{"error model", "QualNet's exponential error model", "Bernoulli loss of packets at n11's radio above the MAC, every packet", "the paper does not say at which layer; at the PHY the MAC repairs nearly all of it"},
	{"interface queue", "not stated", "a 50-packet marker queue at every radio (congestion warnings at 90% of its average)", "the paper's buffer and threshold"},
	{"TCP below the variant", "Qualnet 4.5's TCP", "ns-2.35's defaults (profile ns2)", "a simulator difference; the ns2 profile is checked against ns-2.35"},
}

const tdlrpRoutingAxis = `  - name: routing
    cases:
      dsr: {}
      static: {routing: static}
`

// tdlrpHops are the hop counts of Fig. 14a as cases: the flows start
// farther up the chain, the lossy destination stays n11.
func tdlrpHops() string {
	var b strings.Builder
	b.WriteString("  - name: hops\n    cases:\n")
	for h := 1; h <= 10; h++ {
		fmt.Fprintf(&b, "      \"%d\": {\"flows.f{i}.src\": n%d}\n", h, 11-h)
	}
	return b.String()
}

func init() {
	for _, e := range []*Entry{
		{
			Name: "tdlrp-fig14a", Quoted: []string{"47%", "50%"}, Title: "Goodput per connection vs hops on the 802.11b chain, 3 flows, 3% loss, 1% retransmission loss",
			Claim: "Throughput falls with the hops and T-DLRP's stays the highest; at 10 hops it is 47% above NewJersey's and more than 50% above NewReno's.",
			Sweep: `name: tdlrp-fig14a
scenario: examples/tdlrp-chain.yaml
set: {"flows.f{i}.count": 3}
grid:
` + tdlrpHops() + tdlrpRoutingAxis + tdlrpChainVariants + `replications: 5
metrics: [goodput_bps, timeouts]
`,
			Short: tdlrpShort,
			Report: func(c *Context) (*Outcome, error) {
				return goodputFigure(c, goodputClaims{x: "hops", xLabel: "hops", xScale: 1, fig: "Fig. 14a", highest: everyPoint,
					claimAt: "10", gains: []gainClaim{{"newjersey", 0.47}, {"newreno", 0.50}}, falls: "throughput falls as the hops increase",
					axis: tdlrpRouting})
			},
		},
		{
			Name: "tdlrp-fig14b", Quoted: []string{"10"}, Title: "Goodput vs retransmission loss on the 10-hop chain, 2% loss",
			Claim: "T-DLRP achieves better throughput than DAC and the other variants at every retransmission loss rate from 0.01% to 0.1%.",
			Sweep: `name: tdlrp-fig14b
scenario: examples/tdlrp-chain.yaml
set: {wireless.loss.0.rate: 2%}
grid:
  - path: wireless.loss.1.rate
    values: [0.01%, 0.025%, 0.05%, 0.075%, 0.1%]
` + tdlrpRoutingAxis + tdlrpChainVariants + `replications: 5
metrics: [goodput_bps, timeouts]
`,
			Short: tdlrpShort,
			Report: func(c *Context) (*Outcome, error) {
				return goodputFigure(c, goodputClaims{x: "wireless.loss.1.rate", xLabel: "retransmission loss rate (% of the packets reaching n11)", xScale: 100, fig: "Fig. 14b", highest: everyPoint, axis: tdlrpRouting})
			},
		},
		{
			Name: "tdlrp-fig15", Quoted: []string{"85%", "10", "300kbit/s"}, Title: "Goodput and timeouts vs packet loss on the 10-hop chain, 0.05% retransmission loss",
			Claim: "At 5% loss every variant but T-DLRP stays below 300 kbit/s; T-DLRP is more than 85% above NewJersey, with fewer timeouts.",
			Sweep: `name: tdlrp-fig15
scenario: examples/tdlrp-chain.yaml
set: {wireless.loss.1.rate: 0.05%}
grid:
  - path: wireless.loss.0.rate
    values: [1%, 2%, 3%, 4%, 5%]
` + tdlrpRoutingAxis + tdlrpChainVariants + `replications: 5
metrics: [goodput_bps, timeouts]
`,
			Short:  tdlrpShort,
			Report: fig15Report,
		},
	} {
		e.Paper = "tdlrp"
		e.Source = tdlrpSource
		e.Setup = append(e.Setup, tdlrpChainSetup...)
		e.Alone = "T-DLRP, DAC, NewJersey and CERL exist in neither ns-2.35 nor ns-3.37; the chain's ns-3 program (scripts/ns3/wifi-chain) carries one NewReno+SACK flow and no loss that falls on fast retransmissions"
		Register(e)
	}
}

// fig15Report adds to the goodput figure the paper's two other claims:
// the others under 300 kbit/s at 5% (Fig. 15a) and fewer timeouts than
// NewJersey (Fig. 15b), under each routing.
func fig15Report(c *Context) (*Outcome, error) {
	pts, err := perRun(c.Store, meanGoodput)
	if err != nil {
		return nil, err
	}
	tpts, err := perRun(c.Store, perConnection("timeouts"))
	if err != nil {
		return nil, err
	}
	return tdlrpRouting.each(c, pts, func(sub []*runPoint, suffix string) (*Outcome, error) {
		var tsub []*runPoint
		for _, p := range tpts {
			if p.params.Value(tdlrpRouting.param) == sub[0].params.Value(tdlrpRouting.param) {
				tsub = append(tsub, p)
			}
		}
		return fig15At(c, sub, tsub, suffix)
	})
}

// fig15At is Fig. 15 on the goodput runs pts and the timeout runs tpts of
// one routing.
func fig15At(c *Context, pts, tpts []*runPoint, suffix string) (*Outcome, error) {
	const x = "wireless.loss.0.rate"
	out, err := goodputAt(c, goodputClaims{x: x, xLabel: "packet loss rate (%)", xScale: 100, fig: "Fig. 15a", highest: claimPoint,
		claimAt: "5%", gains: []gainClaim{{"newjersey", 0.85}}}, pts, suffix)
	if err != nil {
		return nil, err
	}
	sums := summaries(pts)
	var below []comparison
	for _, s := range sums {
		if v := s.Params.Value("variant"); v != "tdlrp" && s.Params.Value(x) == "5%" {
			below = append(below, means(v, constant(300e3), sample(s), 1e-3, " kbit/s"))
			out.Measured = append(out.Measured, fmt.Sprintf("at 5%%: %s %s kbit/s", v, ciText(s, 1e-3, "")))
		}
	}
	bv, btest := aboveEverywhere(below)
	out.Claims = append(out.Claims, Claim{Figure: "Fig. 15a", Text: "at 5% loss every variant but T-DLRP is below 300 kbit/s", Paper: "< 300 kbit/s",
		Measured: fmt.Sprintf("%d variants against 300 kbit/s", len(below)), Verdict: bv,
		Test: "one-sample t-test of each variant's mean against 300 kbit/s, " + btest})

	tsums := summaries(tpts)
	ch := plot.Chart{Title: "T-DLRP Fig. 15b: timeouts vs packet loss on the 10-hop chain", XLabel: "packet loss rate (%)",
		YLabel: "timeouts per connection", Series: seriesChart(tsums, x, "variant", 100, 1),
		Caption: "Mean of the replications, 95% CI (Student's t); examples/tdlrp-chain.yaml, 0.05% retransmission loss. " +
			tdlrpRouting.caption(pts[0].params.Value(tdlrpRouting.param))}
	if suffix != "" {
		ch.Title += " (" + suffix[1:] + ")"
	}
	if err := addFigure(c, out, suffix+"-timeouts", ch, tsums, "timeouts"); err != nil {
		return nil, err
	}
	var fewer []comparison
	for _, r := range []string{"1%", "2%", "3%", "4%", "5%"} {
		t, ok1 := at(tsums, x, r, "tdlrp")
		j, ok2 := at(tsums, x, r, "newjersey")
		if ok1 && ok2 {
			out.Measured = append(out.Measured, fmt.Sprintf("timeouts at %s: T-DLRP %s, NewJersey %s", r, ciText(t, 1, ""), ciText(j, 1, "")))
			fewer = append(fewer, means(r, sample(j), sample(t), 1, " timeouts"))
		}
	}
	fv, ftest := aboveEverywhere(fewer)
	out.Claims = append(out.Claims, Claim{Figure: "Fig. 15b", Text: "T-DLRP has fewer timeouts than NewJersey at every loss rate", Paper: "fewer timeouts",
		Measured: fmt.Sprintf("%d loss rates", len(fewer)), Verdict: fv, Test: "Welch's t-test of NewJersey's timeouts per connection against T-DLRP's, " + ftest})
	return out, nil
}
