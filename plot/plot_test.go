package plot

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/store"
)

func fill(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.SetMeta("axes", `["loss","variant"]`)
	k := 0
	for _, loss := range []string{"1%", "2%"} {
		for _, v := range []string{"reno", "sack"} {
			for rep := range 3 {
				k++
				st.Put(&store.Run{Key: string(rune('a' + k)), Replication: rep, Result: json.RawMessage("{}"),
					Params:  []store.Param{{Name: "loss", Value: loss, Num: lossNum(loss)}, {Name: "variant", Value: v}},
					Metrics: []store.Metric{{Flow: "f", Name: "goodput_bps", Value: 1e6 + float64(rep)*1e4}}})
			}
		}
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// lossNum mirrors experiment.ParseNumber for the labels used here.
func lossNum(s string) *float64 {
	x := map[string]float64{"1%": 0.01, "2%": 0.02}[s]
	return &x
}

func TestFromStoreLaysOutLinesAndBars(t *testing.T) {
	st := fill(t)
	cases := []struct {
		name    string
		q       Query
		bars    bool
		series  int
		xLabel  string
		wantErr string
	}{
		{"numeric x gives lines", Query{Metric: "goodput_bps", X: "loss", Series: "variant"}, false, 2, "loss (%)", ""},
		{"categorical x gives bars", Query{Metric: "goodput_bps", X: "variant", Where: map[string]string{"loss": "2%"}}, true, 1, "variant", ""},
		{"unfixed parameter", Query{Metric: "goodput_bps", X: "loss"}, false, 0, "", "--where variant=VALUE"},
		{"unknown metric", Query{Metric: "nope", X: "loss"}, false, 0, "", `no values of metric "nope"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fig, err := FromStore(st, c.q)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (fig.Bars != nil) != c.bars || len(fig.Chart.Series) != c.series || fig.Chart.XLabel != c.xLabel {
				t.Fatalf("bars=%v series=%d xlabel=%q", fig.Bars != nil, len(fig.Chart.Series), fig.Chart.XLabel)
			}
			s := fig.Chart.Series[0]
			// Three replications of 1.00, 1.01, 1.02 Mbit/s: mean 1010 kbit/s,
			// CI = t(0.975,2)·10/√3.
			if math.Abs(s.Y[0]-1010) > 1e-9 || math.Abs(s.Err[0]-4.302653*10/math.Sqrt(3)) > 1e-4 {
				t.Fatalf("first point %v ± %v", s.Y[0], s.Err[0])
			}
			dir := t.TempDir()
			for _, ext := range []string{".png", ".svg"} {
				if err := fig.Save(filepath.Join(dir, "f"+ext)); err != nil {
					t.Fatal(err)
				}
			}
			b, _ := os.ReadFile(filepath.Join(dir, "f.png"))
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Fatalf("png: %v", err)
			}
			svg, _ := os.ReadFile(filepath.Join(dir, "f.svg"))
			if !bytes.Contains(svg, []byte("<svg")) {
				t.Fatal("svg file has no <svg element")
			}
		})
	}
}

func TestSeriesCSVGroupsByFlow(t *testing.T) {
	in := "time_s,flow,event,cwnd_bytes\n0.1,a,a,1000\n0.2,b,a,2000\n0.3,a,s,3000\n"
	ts, err := FromSeriesCSV(strings.NewReader(in), "cwnd_bytes", "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Series) != 2 || len(ts.Series[0].X) != 1 || ts.Series[0].Y[0] != 1 || ts.YLabel != "cwnd (kbytes)" {
		t.Fatalf("%+v", ts)
	}
	if _, err := FromSeriesCSV(strings.NewReader(in), "srtt_s", ""); err == nil {
		t.Fatal("a missing column was accepted")
	}
}

func TestParamLabelsNameListItemsAndRadios(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"links.lossy.loss.0.rate", "loss rate on lossy"},
		{"wireless.loss.1.rate", "loss rate at the radios"},
		{"wireless.rate", "802.11b rate at the radios"},
		{"links.lossy.loss.rate", "loss rate on lossy"},
	} {
		if got := ParamLabel(c.path, nil); got != c.want {
			t.Errorf("ParamLabel(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
