package store

import "testing"

func TestPlainNumbersHaveNoExponent(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{250612, "250612"}, {250.612, "250.6"}, {1.2345, "1.234"}, {0.000123, "0.0001230"}, {-62.97, "-62.97"}, {0, "0"}} {
		if got := plain(c.x); got != c.want {
			t.Errorf("plain(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}
