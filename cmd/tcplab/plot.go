package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/plot"
)

var plotFlags struct {
	outs                  []string
	y, x, series, flow    string
	where                 []string
	title, xlabel, ylabel string
	event                 string
	logX                  bool
}

var plotCmd = &cobra.Command{
	Use:   "plot FILE",
	Short: "Draw PNG/SVG charts from a result store or a trace",
	Long: `FILE is one of:
  a result store (tcplab sweep --out): a metric (--y) against a parameter (--x),
    one series per value of --series, mean over replications with 95%
    confidence-interval error bars; a line chart when the parameter is numeric
    (1%, 10ms, 0.5), a grouped bar chart otherwise (reno, newreno).
  a TCP time series CSV (a scenario's trace.tcp): column --y over time per
    flow, e.g. cwnd_bytes, srtt_s, or seq with --event s.
  a pcap file (a scenario's trace.pcap): the time-sequence graph of every
    direction carrying data.
The format of each --out follows its extension: .png or .svg.`,
	Example: `  tcplab plot loss.db --x links.lossy.loss.rate --series variant --y goodput_bps -o goodput.png -o goodput.svg
  tcplab plot loss.db --x variant --y timeouts --where links.lossy.loss.rate=2% -o timeouts.png
  tcplab plot tcp.csv --y cwnd_bytes -o cwnd.png
  tcplab plot lossy.pcap -o seq.png`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(plotFlags.outs) == 0 {
			return badInput(fmt.Errorf("give at least one --out FILE.png or FILE.svg"))
		}
		for _, o := range plotFlags.outs {
			if !strings.HasSuffix(o, ".png") && !strings.HasSuffix(o, ".svg") {
				return badInput(fmt.Errorf("--out %s: want a .png or .svg file", o))
			}
		}
		kind, err := sniff(args[0])
		if err != nil {
			return badInput(err)
		}
		var draw func(string) error
		switch kind {
		case "sqlite":
			draw, err = plotStore(args[0])
		case "pcap":
			var ts plot.TimeSeries
			ts, err = plot.SeqFromPcap(args[0])
			draw = labelled(&ts.Chart, ts.Draw)
		default:
			var f *os.File
			if f, err = os.Open(args[0]); err != nil {
				return badInput(err)
			}
			defer f.Close()
			y := plotFlags.y
			if y == "" {
				y = "cwnd_bytes"
			}
			var ts plot.TimeSeries
			ts, err = plot.FromSeriesCSV(f, y, plotFlags.event)
			draw = labelled(&ts.Chart, ts.Draw)
		}
		if err != nil {
			return badInput(fmt.Errorf("%s: %w", args[0], err))
		}
		for _, o := range plotFlags.outs {
			if err := draw(o); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "wrote", o)
		}
		return nil
	},
}

func init() {
	f := plotCmd.Flags()
	f.StringArrayVarP(&plotFlags.outs, "out", "o", nil, "output file, .png or .svg (repeatable)")
	f.StringVar(&plotFlags.y, "y", "", "metric (store; default goodput_bps) or column (time series; default cwnd_bytes)")
	f.StringVar(&plotFlags.x, "x", "", "parameter on the x axis (store; default: the first grid axis)")
	f.StringVar(&plotFlags.series, "series", "", "parameter giving one series per value (store)")
	f.StringVar(&plotFlags.flow, "flow", "", "flow whose metric is drawn (store; needed when there are several)")
	f.StringArrayVar(&plotFlags.where, "where", nil, "fix another parameter: NAME=VALUE (store; repeatable)")
	f.StringVar(&plotFlags.event, "event", "", "time series: only rows of this event (s sent, a ACK, t timeout)")
	f.StringVar(&plotFlags.title, "title", "", "chart title")
	f.StringVar(&plotFlags.xlabel, "xlabel", "", "x axis label (default: the parameter and its unit)")
	f.StringVar(&plotFlags.ylabel, "ylabel", "", "y axis label (default: the metric and its unit)")
	f.BoolVar(&plotFlags.logX, "logx", false, "logarithmic x axis")
	rootCmd.AddCommand(plotCmd)
}

// sniff tells a SQLite store and a pcap file from text by their magic
// numbers.
func sniff(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return "sqlite", nil
	case n >= 4 && (bytes.Equal(head[:4], []byte{0xd4, 0xc3, 0xb2, 0xa1}) || bytes.Equal(head[:4], []byte{0xa1, 0xb2, 0xc3, 0xd4}) ||
		bytes.Equal(head[:4], []byte{0x4d, 0x3c, 0xb2, 0xa1}) || bytes.Equal(head[:4], []byte{0xa1, 0xb2, 0x3c, 0x4d})):
		return "pcap", nil
	}
	return "csv", nil
}

// labelled applies the title and label flags before drawing.
func labelled(c *plot.Chart, draw func(string) error) func(string) error {
	return func(path string) error {
		if plotFlags.title != "" {
			c.Title = plotFlags.title
		}
		if plotFlags.xlabel != "" {
			c.XLabel = plotFlags.xlabel
		}
		if plotFlags.ylabel != "" {
			c.YLabel = plotFlags.ylabel
		}
		return draw(path)
	}
}

func plotStore(path string) (func(string) error, error) {
	st, err := openStore(path)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	q := plot.Query{Metric: plotFlags.y, X: plotFlags.x, Series: plotFlags.series, Flow: plotFlags.flow, Where: map[string]string{}}
	if q.Metric == "" {
		q.Metric = "goodput_bps"
	}
	if q.X == "" {
		names, err := st.ParamNames()
		if err != nil {
			return nil, err
		}
		if len(names) > 0 {
			q.X = names[0]
		}
	}
	for _, w := range plotFlags.where {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("--where %q: want NAME=VALUE", w)
		}
		q.Where[k] = v
	}
	fig, err := plot.FromStore(st, q)
	if err != nil {
		return nil, err
	}
	fig.Chart.LogX = plotFlags.logX
	return labelled(&fig.Chart, fig.Save), nil
}
