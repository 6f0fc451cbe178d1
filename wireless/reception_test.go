package wireless

import (
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// ns-2.35's reception (thresholdReception), worked by hand from
// WirelessPhy::sendUp and Mac802_11::recv/capture/collision: each case
// puts signals on one radio's air (dBm relative to the decode threshold,
// first bit and last bit in µs, all arriving before the first leaves) and
// says which frame the radio ends up receiving and whether it survives.
func TestThresholdReceptionLocksOnTheFirstBitAndLosesBothFramesOfAnOverlap(t *testing.T) {
	type sig struct {
		dB         float64 // above the decode threshold
		start, end int64   // µs
	}
	for _, tc := range []struct {
		name      string
		sigs      []sig
		sending   int64 // the radio sends until this µs (0: it does not)
		respondAt int64 // the radio starts a response at this µs (0: no)
		rx        int   // index of the frame received at the end
		ok, coll  bool
		navEnd    int64 // µs; 0: untouched
	}{
		{name: "a lone frame survives", sigs: []sig{{10, 0, 1000}}, rx: 0, ok: true},
		{name: "a lone frame at the threshold survives", sigs: []sig{{0, 0, 1000}}, rx: 0, ok: true},
		{name: "an overlap loses both, the later end holds the radio", sigs: []sig{{10, 0, 1000}, {10, 400, 1500}}, rx: 1, coll: true},
		{name: "a shorter overlap loses both, the first holds the radio", sigs: []sig{{10, 0, 1000}, {10, 400, 700}}, rx: 0, coll: true},
		{name: "a stronger later frame is lost too (no capture by the newcomer)", sigs: []sig{{0, 0, 1000}, {30, 400, 900}}, rx: 0, coll: true},
		{name: "9 dB weaker: collision", sigs: []sig{{20, 0, 1000}, {11, 400, 900}}, rx: 0, coll: true},
		{name: "10 dB weaker: captured, EIFS after it", sigs: []sig{{20, 0, 1000}, {10, 400, 1200}}, rx: 0, ok: true, navEnd: 1200 + (364 - 50)},
		{name: "a sensed frame below the threshold is locked in error", sigs: []sig{{-3, 0, 1000}}, rx: 0},
		{name: "and spoils a decodable one that follows", sigs: []sig{{-3, 0, 1000}, {10, 300, 800}}, rx: 0, coll: true},
		{name: "a frame arriving while sending is received in error", sigs: []sig{{10, 100, 1000}}, sending: 200, rx: 0},
		{name: "a response sent during a reception spoils it", sigs: []sig{{10, 0, 1000}}, respondAt: 500, rx: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := network.New(1)
			cfg := DefaultConfig()
			cfg.Reception = "threshold"
			cfg.Propagation, cfg.Sensitivity, cfg.CCAThreshold = Range{Max: 550}, -95, -95
			ch, err := NewChannel(net, cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := ch.Attach(net.AddNode("r"), 0, 0)
			r.txEnd = tc.sending * 1000
			var sigs []*signal
			for _, s := range tc.sigs {
				sg := &signal{mw: ch.rxMW * dBmToMW(s.dB) / dBmToMW(0), start: s.start * 1000, end: s.end * 1000, to: r}
				sigs = append(sigs, sg)
				net.Sched.At(sim.Time(sg.start), func() {
					r.power += sg.mw
					r.nsig++
					ch.recv.arrived(r, sg)
				})
			}
			if tc.respondAt > 0 {
				net.Sched.At(sim.Time(tc.respondAt*1000), func() { ch.recv.sending(r) })
			}
			net.Run(sim.Time(2 * sim.Millisecond))
			if r.rx != sigs[tc.rx] {
				t.Fatalf("receiving %v, want frame %d", r.rx, tc.rx)
			}
			ok, coll := ch.recv.decode(r, r.rx)
			if ok != tc.ok || coll != tc.coll {
				t.Errorf("decoded ok=%v collided=%v, want ok=%v collided=%v", ok, coll, tc.ok, tc.coll)
			}
			if r.navEnd != tc.navEnd*1000 {
				t.Errorf("NAV ends at %d µs, want %d", r.navEnd/1000, tc.navEnd)
			}
		})
	}
}
