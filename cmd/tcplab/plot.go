package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/tcplab/tcplab/plot"
)

var plotFlags struct {
	outs                  []string
	y, x, series, flow    string
	where                 []string
	title, xlabel, ylabel string
	event                 string
	logX                  bool
	width, height         string
	dpi                   int
	labels                []string
	legendOutside         bool
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
The format of each --out follows its extension: .png, .svg or .pdf. Parameters
are named for people on the axes (links.lossy.loss.rate: "loss rate on
lossy"; --label overrides), the values fixed with --where follow the title,
and a legend of more than five entries moves to the right of the plot.`,
	Example: `  tcplab plot loss.db --x links.lossy.loss.rate --series variant --y goodput_bps -o goodput.png -o goodput.svg
  tcplab plot loss.db --x variant --y timeouts --where links.lossy.loss.rate=2% -o timeouts.png
  tcplab plot tcp.csv --y cwnd_bytes -o cwnd.png
  tcplab plot lossy.pcap -o seq.png
  tcplab plot loss.db --series variant -o goodput.pdf --width 8.5cm --height 6cm
  tcplab plot loss.db --series variant -o goodput.png --dpi 300 --label links.lossy.loss.rate="packet loss"`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(plotFlags.outs) == 0 {
			return badInput(fmt.Errorf("give at least one --out FILE (%s)", strings.Join(plot.Formats, ", ")))
		}
		for _, o := range plotFlags.outs {
			if !slices.Contains(plot.Formats, strings.ToLower(filepath.Ext(o))) {
				return badInput(fmt.Errorf("--out %s: want a file ending in %s", o, strings.Join(plot.Formats, ", ")))
			}
		}
		if err := checkSize(); err != nil {
			return badInput(err)
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
	f.StringVar(&plotFlags.width, "width", "16cm", "figure width (cm, mm, in or pt)")
	f.StringVar(&plotFlags.height, "height", "11cm", "plot height, without the caption (cm, mm, in or pt)")
	f.IntVar(&plotFlags.dpi, "dpi", 96, "resolution of PNG output")
	f.StringArrayVar(&plotFlags.labels, "label", nil, "name a parameter on axes and title: PATH=TEXT (store; repeatable)")
	f.BoolVar(&plotFlags.legendOutside, "legend-outside", false, "draw the legend right of the plot (the default above five entries)")
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

// figureSize is --width and --height, checked by checkSize.
var figureSize struct{ w, h vg.Length }

func checkSize() error {
	for _, d := range []struct {
		flag, v string
		to      *vg.Length
	}{{"--width", plotFlags.width, &figureSize.w}, {"--height", plotFlags.height, &figureSize.h}} {
		l, err := vg.ParseLength(d.v)
		if err != nil || l < vg.Centimeter || l > vg.Length(200)*vg.Centimeter {
			return fmt.Errorf("%s %q: want a length from 1cm to 2m, e.g. 16cm, 6in, 400pt", d.flag, d.v)
		}
		*d.to = l
	}
	if plotFlags.dpi < 10 || plotFlags.dpi > 2400 {
		return fmt.Errorf("--dpi %d: want 10 to 2400", plotFlags.dpi)
	}
	return nil
}

// labelled applies the title, label, size and legend flags before drawing.
func labelled(c *plot.Chart, draw func(string) error) func(string) error {
	return func(path string) error {
		c.Width, c.Height, c.DPI = figureSize.w, figureSize.h, plotFlags.dpi
		c.LegendOutside = c.LegendOutside || plotFlags.legendOutside
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
	q := plot.Query{Metric: plotFlags.y, X: plotFlags.x, Series: plotFlags.series, Flow: plotFlags.flow,
		Where: map[string]string{}, Labels: map[string]string{}}
	for _, l := range plotFlags.labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("--label %q: want PATH=TEXT", l)
		}
		q.Labels[k] = v
	}
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
