package scenario

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

func TestUnits(t *testing.T) {
	bw := []struct {
		in   string
		want Bandwidth
		err  string
	}{
		{"2Mbps", 2e6, ""},
		{"100kbps", 1e5, ""},
		{"1Gbps", 1e9, ""},
		{"1.5Mbps", 1.5e6, ""},
		{"9600bps", 9600, ""},
		{"-2Mbps", 0, `negative bandwidth "-2Mbps"`},
		{"0Mbps", 0, `zero bandwidth "0Mbps"`},
		{"2MB/s", 0, `bad bandwidth "2MB/s": want a number and a unit (Gbps, Mbps, kbps, Kbps, bps), e.g. "2Mbps"`},
		{"NaNMbps", 0, `bad bandwidth "NaNMbps": want a number and a unit (Gbps, Mbps, kbps, Kbps, bps), e.g. "2Mbps"`},
	}
	for _, c := range bw {
		got, err := parseBandwidth(c.in)
		if msg := errText(err); msg != c.err || got != c.want {
			t.Errorf("parseBandwidth(%q) = %v, %q; want %v, %q", c.in, got, msg, c.want, c.err)
		}
	}
	dur := []struct {
		in   string
		want sim.Time
		err  string
	}{
		{"50ms", 50 * sim.Millisecond, ""},
		{"1.5s", 1500 * sim.Millisecond, ""},
		{"200us", 200 * sim.Microsecond, ""},
		{"0.1s", 100 * sim.Millisecond, ""},
		{"2min", 120 * sim.Second, ""},
		{"0", 0, ""},
		{"10", 0, `bad duration "10": want a number and a unit (min, ms, us, µs, ns, s), e.g. "50ms"`},
		{"-1s", 0, `negative duration "-1s"`},
		{"2000000s", 0, `duration "2000000s" is longer than 10^6 s`},
	}
	for _, c := range dur {
		got, err := parseDuration(c.in)
		if msg := errText(err); msg != c.err || got != c.want {
			t.Errorf("parseDuration(%q) = %v, %q; want %v, %q", c.in, got, msg, c.want, c.err)
		}
	}
	size := []struct {
		in   string
		want Bytes
		err  string
	}{
		{"1024B", 1024, ""},
		{"64KB", 64000, ""},
		{"64KiB", 65536, ""},
		{"1.5MiB", 1572864, ""},
		{"1GB", 1e9, ""},
		{"1.5B", 0, `size "1.5B" is not a whole number of bytes`},
		{"64", 0, `bad size "64": want a number and a unit (GiB, MiB, KiB, GB, MB, KB, kB, B), e.g. "64KiB"`},
	}
	for _, c := range size {
		got, err := parseBytes(c.in)
		if msg := errText(err); msg != c.err || got != c.want {
			t.Errorf("parseBytes(%q) = %v, %q; want %v, %q", c.in, got, msg, c.want, c.err)
		}
	}
	frac := []struct {
		in   string
		want Fraction
		err  string
	}{
		{"2%", 0.02, ""},
		{"0.02", 0.02, ""},
		{"1e-6", 1e-6, ""},
		{"100%", 1, ""},
		{"0", 0, ""},
		{"101%", 0, `rate "101%" outside [0, 1]`},
		{"two", 0, `bad rate "two": want a fraction (0.02) or a percentage ("2%")`},
	}
	for _, c := range frac {
		got, err := parseFraction("rate", c.in)
		if msg := errText(err); msg != c.err || got != c.want {
			t.Errorf("parseFraction(%q) = %v, %q; want %v, %q", c.in, got, msg, c.want, c.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
