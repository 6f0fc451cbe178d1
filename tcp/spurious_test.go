package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// A delay spike on the bottleneck (50 ms to 1.5 s for 3 s, as after a
// route change or a long link-layer retransmission) makes the timer fire
// although nothing was lost. Without detection the sender goes back N and
// resends what the receiver already holds; F-RTO and Eifel recognise the
// spurious timeout and resume with new data.
func TestSpuriousTimeoutDetection(t *testing.T) {
	cases := []struct {
		spurious   Spurious
		timestamps bool
		detects    bool
	}{
		{SpuriousNone, false, false},
		{FRTO, false, true},
		{Eifel, true, true},
	}
	var noneSpuriousRetx int64
	for _, c := range cases {
		t.Run(c.spurious.String(), func(t *testing.T) {
			cfg := lineConfig(t, "newreno", 4)
			cfg.Segments.Window = 20
			cfg.Timer.Spurious, cfg.TS.Enabled = c.spurious, c.timestamps
			n, f := dumbbell(t, 1, cfg, nil)
			for _, l := range n.Links {
				if l.From.Name == "R1" && l.To.Name == "R2" {
					l.SetDelayProcess(&network.Schedule{Initial: 50 * sim.Millisecond, Steps: []network.Step{
						{At: 10 * sim.Second, Delay: 1500 * sim.Millisecond},
						{At: 13 * sim.Second, Delay: 50 * sim.Millisecond},
					}})
				}
			}
			n.Run(30 * sim.Second)
			r := f.Result(n.Now())
			if r.SpuriousTimeouts == 0 {
				t.Fatalf("no spurious timeout happened (timeouts %d): the spike is too small", r.Timeouts)
			}
			got := f.Result(n.Now()).SpuriousTimeoutsDetected
			switch {
			case c.detects && got == 0:
				t.Fatalf("%s detected none of %d spurious timeouts", c.spurious, r.SpuriousTimeouts)
			case !c.detects && got != 0:
				t.Fatalf("detection off but %d detected", got)
			case got > r.SpuriousTimeouts:
				t.Fatalf("%d detected, only %d were spurious", got, r.SpuriousTimeouts)
			}
			t.Logf("%s: timeouts %d (spurious %d, detected %d), fast retx %d, retx %d, spurious retx %d, delivered %d", c.spurious, r.Timeouts, r.SpuriousTimeouts, got, r.FastRetransmits, r.RetransmittedPackets, r.SpuriousRetransmits, r.DeliveredBytes)
			if c.spurious == SpuriousNone {
				noneSpuriousRetx = r.SpuriousRetransmits
			} else if r.SpuriousRetransmits >= noneSpuriousRetx {
				t.Fatalf("%s: %d spurious retransmissions, no fewer than without detection (%d)", c.spurious, r.SpuriousRetransmits, noneSpuriousRetx)
			}
			if r.DeliveredBytes == 0 {
				t.Fatal("nothing delivered")
			}
		})
	}
}
