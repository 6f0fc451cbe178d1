package scenariotest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/tcp"
)

// delaySpike is a path whose delay steps up and down (Abouzeid & Roy's
// two-state process), with the spurious-timeout machinery of each kind.
const delaySpike = `name: delay-spike
duration: 60s
seed: 3
nodes: [A, B, C]
links:
  - {name: a, from: A, to: B, bandwidth: 10Mbps, delay: 5ms}
  - name: b
    from: B
    to: C
    bandwidth: 2Mbps
    delay: 40ms
    loss: {rate: 1%, direction: forward}
    delay_process: {model: two_state, delay2: 400ms, mean1: 5s, mean2: 1s, direction: forward}
flows:
  - {name: f, src: A, dst: C, transport: {profile: PROFILE, spurious: SPUR}}
  - {name: t, src: A, dst: C, start: 1s, app: {type: transfer, size: 300KiB}, transport: {profile: PROFILE}}
`

func load(t *testing.T, file string, sets ...string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Load(file, sets)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOutputsUnchanged pins every example and a spread of variants,
// profiles and mechanisms (see the package comment).
func TestOutputsUnchanged(t *testing.T) {
	got := map[string]Case{}
	files, _ := filepath.Glob("../../examples/*.yaml")
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "sweep-") {
			continue
		}
		s := load(t, f)
		if len(s.KernelHosts()) > 0 {
			continue // kernel hosts run in real time: no golden can pin them
		}
		got["example/"+filepath.Base(f)] = Run(t, s)
	}
	// On-demand routing on the 802.11b chain (the manet example moves).
	got["wifi-chain/aodv"] = Run(t, load(t, "../../examples/wifi-chain.yaml", "routing=aodv"))
	got["wifi-chain/dsr"] = Run(t, load(t, "../../examples/wifi-chain.yaml", "routing=dsr"))
	for _, v := range tcp.VariantNames() {
		for _, seed := range []string{"1", "2"} {
			got["variants/"+v+"/seed"+seed] = Run(t, load(t, "../../examples/dumbbell-lossy-variants.yaml",
				"flows.ftp.transport.variant="+v, "links.lossy.loss.0.rate=2%", "seed="+seed, "duration=100s"))
		}
	}
	for _, v := range []string{"newreno", "cubic", "vegas", "veno", "westwood", "reno", "tahoe"} {
		got["ns3/"+v] = Run(t, load(t, "../../examples/dumbbell-lossy-ns3.yaml",
			"flows.ftp.transport.variant="+v, "flows.ftp.transport.rtt_sampling=every_ack", "links.lossy.loss.rate=2%", "duration=100s"))
	}
	for _, p := range []string{"ns2", "ns3", "linux"} {
		got["linux-profile-on-A/"+p] = Run(t, load(t, "../../examples/dumbbell-lossy.yaml",
			"flows.ftp.transport.profile="+p, "links.lossy.loss.rate=3%", "duration=100s"))
		for _, spur := range []string{"none", "frto", "eifel"} {
			if spur == "eifel" && p == "ns2" {
				continue // needs timestamps
			}
			y := strings.NewReplacer("PROFILE", p, "SPUR", spur).Replace(delaySpike)
			s, err := scenario.Parse("delay-spike.yaml", []byte(y), nil)
			if err != nil {
				t.Fatal(err)
			}
			got[fmt.Sprintf("delay-spike/%s/%s", p, spur)] = Run(t, s)
		}
	}
	got["reno-delack-3way"] = Run(t, load(t, "../../examples/chain-4hop.yaml", "flows.ftp.transport.variant=reno",
		"flows.ftp.transport.delack_count=2", "flows.ftp.transport.handshake=3way", "links.h1.loss.rate=3%"))
	Check(t, "testdata/outputs.json", got)
}
