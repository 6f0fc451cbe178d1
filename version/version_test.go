package version

import (
	"strings"
	"testing"
)

func TestStringNamesWhatTheBuildRecorded(t *testing.T) {
	cases := []struct {
		in   Info
		want string
	}{
		{Info{Module: "v1.2.0", Go: "go1.26"}, "v1.2.0, go1.26"},
		{Info{Module: "(devel)", Revision: "0123456789abcdef", Time: "2026-12-03T18:00:00Z", Go: "go1.26"},
			"(devel) commit 0123456789ab (2026-12-03T18:00:00Z), go1.26"},
		{Info{Module: "(devel)", Revision: "abc", Modified: true, Go: "go1.26"}, "(devel) commit abc+dirty, go1.26"},
	}
	for _, c := range cases {
		if got := c.in.String(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGetReadsTheTestBinary(t *testing.T) {
	in := Get()
	if in.Module == "" || !strings.HasPrefix(in.Go, "go") {
		t.Errorf("Get() = %+v", in)
	}
}
