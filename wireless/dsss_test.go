package wireless

import (
	"math"
	"testing"
)

// The error curves give the frame success rates the reference documents
// for an 1100-byte frame (8800 bits): CCK 11 Mbit/s 0.39 at 6 dB, 0.99 at
// 8 dB, about 0 at 3 dB; DQPSK 2 Mbit/s 0.18 at 0 dB, 0.998 at 3 dB.
func TestErrorCurvesMatchTheReference(t *testing.T) {
	for _, tc := range []struct {
		rate, db, want, tol float64
	}{
		{11e6, 6, 0.39, 0.01}, {11e6, 8, 0.99, 0.01}, {11e6, 3, 0, 1e-6},
		{2e6, 0, 0.18, 0.01}, {2e6, 3, 0.998, 0.001},
		{1e6, 0, 1, 1e-5}, // DBPSK's 11x processing gain: 0 dB is plenty
	} {
		if got := chunkSuccess(math.Pow(10, tc.db/10), 8800, tc.rate); math.Abs(got-tc.want) > tc.tol {
			t.Errorf("%g Mbit/s at %g dB: %.4f, want %.3f", tc.rate/1e6, tc.db, got, tc.want)
		}
	}
	// Success never rises as SINR falls.
	for _, rate := range Rates {
		prev := 1.0
		for db := 12.0; db >= -5; db -= 0.25 {
			p := chunkSuccess(math.Pow(10, db/10), 8800, rate)
			if p > prev+1e-12 {
				t.Fatalf("%g Mbit/s: success rises from %.4f to %.4f as SINR falls to %g dB", rate/1e6, prev, p, db)
			}
			prev = p
		}
	}
}

func TestPropagationProfilesGiveTheReferencePowers(t *testing.T) {
	friis := Friis{Frequency: 2.412e9, SystemLoss: 1}
	two := TwoRay{Frequency: 914e6, Height: 1.5, SystemLoss: 1}
	for _, tc := range []struct {
		p    Propagation
		d    float64
		want float64
	}{
		{friis, 200, -70.10}, {friis, 250, -72.03}, {friis, 400, -76.12}, {friis, 550, -78.88}, {friis, 600, -79.64},
		{two, 200, -68.98}, {two, 250, -72.85}, {two, 400, -81.02}, {two, 550, -86.55}, {two, 600, -88.06},
		{Range{Max: 250}, 250, 16.0206}, {Range{Max: 250}, 250.001, none},
	} {
		if got := tc.p.RxPower(16.0206, tc.d); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("%s at %g m: %.2f dBm, want %.2f", tc.p.Name(), tc.d, got, tc.want)
		}
	}
	if r := Reach(friis, 16.0206, ThresholdAt(friis, 16.0206, 550)); math.Abs(r-550) > 1 {
		t.Errorf("friis reach %g m, want 550", r)
	}
}

// The tabulated symbol error probability stays within 0.5% (relative) of
// the integral wherever it matters (above 1e-12).
func TestSEPTableFollowsTheIntegral(t *testing.T) {
	for e2 := 0.002; e2 < 150; e2 *= 1.013 {
		exact, got := sep16Exact(e2), sep16(e2)
		if exact > 1e-12 && math.Abs(got/exact-1) > 0.005 {
			t.Fatalf("e2 %g: table %g, integral %g", e2, got, exact)
		}
	}
}
