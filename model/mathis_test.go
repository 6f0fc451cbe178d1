package model

import (
	"math"
	"testing"
)

func TestMathisMatchesSquareRootLaw(t *testing.T) {
	cases := []struct {
		name string
		m    MathisParams
		want float64 // hand-computed packets/s
	}{
		// C = sqrt(3/2) = 1.224745; 1.224745/(0.1·sqrt(0.01)) = 122.4745.
		{"b=1", MathisParams{P: 0.01, RTT: 0.1, B: 1}, 122.4745},
		// C = sqrt(3/4) = 0.866025; 0.866025/(0.2·sqrt(0.0004)) = 216.5064.
		{"b=2", MathisParams{P: 0.0004, RTT: 0.2, B: 2}, 216.5064},
		{"b unset means 1", MathisParams{P: 0.01, RTT: 0.1}, 122.4745},
	}
	for _, c := range cases {
		if got := Mathis(c.m); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("%s: Mathis = %.4f, want %.4f", c.name, got, c.want)
		}
	}
	if !math.IsInf(Mathis(MathisParams{P: 0, RTT: 0.1}), 1) {
		t.Error("p = 0 must give +Inf (the law has no window limit)")
	}
	if got := BitsPerSecond(100, 1460); got != 1_168_000 {
		t.Errorf("BitsPerSecond(100, 1460) = %v", got)
	}
}
