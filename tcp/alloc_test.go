package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// TestSteadyStateDoesNotAllocate: once windows, rings and pools have grown
// to their working size, simulating more time allocates nothing — packets,
// events, ACK events and scoreboard entries are all reused.
func TestSteadyStateDoesNotAllocate(t *testing.T) {
	// bbr: rate samples and pacing; paced: NewReno paced by cwnd/SRTT;
	// tdlrp: its recovery's retransmission marks, under SACK.
	for _, variant := range []string{"newreno", "sack", "bbr", "paced", "tdlrp"} {
		t.Run(variant, func(t *testing.T) {
			mk := func() Config {
				v := variant
				if v == "paced" {
					v = "newreno"
				}
				c := ns2Config(t, v, 1000, 64)
				if v == "tdlrp" {
					c.TS.Enabled, c.TS.Echo = true, EchoLatest
				}
				c.Recovery.SACK = variant == "sack" || variant == "bbr" || variant == "tdlrp"
				c.Pacing.Enabled = variant == "paced"
				return c
			}
			n, _ := dumbbellN(t, 1, 10, 6e6, 0.02, mk, 100*sim.Millisecond)
			// Long enough that buffers sized by the largest window and
			// reordering seen (BBR's are larger) have stopped growing.
			end := 300 * sim.Second
			n.Run(end) // warm up
			allocs := testing.AllocsPerRun(3, func() {
				end += 10 * sim.Second
				n.Run(end)
			})
			if allocs > 0 {
				t.Fatalf("%.0f allocations per 10 simulated seconds in steady state", allocs)
			}
		})
	}
}
