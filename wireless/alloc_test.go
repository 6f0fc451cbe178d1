package wireless

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Once queues, signal pools and tables have grown, the channel and MAC
// allocate nothing per frame.
func TestSaturatedChannelDoesNotAllocate(t *testing.T) {
	net, _ := saturatedNet(t, 5, 11e6, false, 1)
	end := 5 * sim.Second
	net.Run(end) // warm up
	allocs := testing.AllocsPerRun(3, func() {
		end += 2 * sim.Second
		net.Run(end)
	})
	if allocs > 0 {
		t.Fatalf("%.0f allocations per 2 simulated seconds of a saturated cell", allocs)
	}
}
