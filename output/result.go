package output

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/scenario"
)

// WriteResult writes one run's result: table (kbit/s, with the network's
// drops and the run's cost below), json (scenario.Result as documented in
// docs/json.md) or csv (one row per flow, bit/s).
func WriteResult(w io.Writer, f Format, res *scenario.Result) error {
	switch f {
	case JSON:
		return WriteJSON(w, res)
	case CSV:
		return resultCSV(w, res)
	case Table:
		return resultTable(w, res)
	}
	return fmt.Errorf("unknown format %q", f)
}

// column is one column of the table and CSV forms of a result.
type column struct {
	table, csv string // headers
	number     bool   // right-aligned in the table
	table1     func(f *metrics.Flow) string
	csv1       func(f *metrics.Flow) string
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func kbps(x float64) string { return strconv.FormatFloat(x/1000, 'f', 1, 64) }

func i64(x int64) string { return strconv.FormatInt(x, 10) }

var columns = func() []column {
	text := func(t, c string, get func(f *metrics.Flow) string) column {
		return column{table: t, csv: c, table1: get, csv1: get}
	}
	num := func(t, c string, get func(f *metrics.Flow) int64) column {
		s := func(f *metrics.Flow) string { return i64(get(f)) }
		return column{table: t, csv: c, number: true, table1: s, csv1: s}
	}
	secs := func(t, c string, get func(f *metrics.Flow) float64) column {
		return column{table: t, csv: c, number: true,
			table1: func(f *metrics.Flow) string { return strconv.FormatFloat(get(f), 'f', 3, 64) },
			csv1:   func(f *metrics.Flow) string { return g(get(f)) }}
	}
	rate := func(t, c string, get func(f *metrics.Flow) float64) column {
		return column{table: t, csv: c, number: true,
			table1: func(f *metrics.Flow) string { return kbps(get(f)) },
			csv1:   func(f *metrics.Flow) string { return g(get(f)) }}
	}
	return []column{
		text("flow", "id", func(f *metrics.Flow) string { return f.ID }),
		text("transport", "transport", func(f *metrics.Flow) string { return f.Transport }),
		text("variant", "variant", func(f *metrics.Flow) string { return f.Variant }),
		text("src", "src", func(f *metrics.Flow) string { return f.Src }),
		text("dst", "dst", func(f *metrics.Flow) string { return f.Dst }),
		secs("start s", "start_seconds", func(f *metrics.Flow) float64 { return f.StartSeconds }),
		secs("stop s", "stop_seconds", func(f *metrics.Flow) float64 { return f.StopSeconds }),
		rate("goodput kbit/s", "goodput_bps", func(f *metrics.Flow) float64 { return f.GoodputBps }),
		rate("throughput kbit/s", "throughput_bps", func(f *metrics.Flow) float64 { return f.ThroughputBps }),
		num("delivered B", "delivered_bytes", func(f *metrics.Flow) int64 { return f.DeliveredBytes }),
		num("sent", "sent_packets", func(f *metrics.Flow) int64 { return f.SentPackets }),
		num("retx", "retransmitted_packets", func(f *metrics.Flow) int64 { return f.RetransmittedPackets }),
		num("fast retx", "fast_retransmits", func(f *metrics.Flow) int64 { return f.FastRetransmits }),
		num("timeouts", "timeouts", func(f *metrics.Flow) int64 { return f.Timeouts }),
		num("drops", "dropped", func(f *metrics.Flow) int64 { return totalDrops(f.Dropped) }),
	}
}()

func totalDrops(m map[string]int64) int64 {
	var n int64
	for _, c := range network.DropCauses() {
		n += m[c.String()]
	}
	return n
}

func resultTable(w io.Writer, res *scenario.Result) error {
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = c.table
	}
	rows := make([][]string, len(res.Flows))
	for i := range res.Flows {
		rows[i] = make([]string, len(columns))
		for j, c := range columns {
			rows[i][j] = c.table1(&res.Flows[i])
		}
	}
	if err := WriteTable(w, header, rows, func(j int) bool { return columns[j].number }); err != nil {
		return err
	}
	// A UDP source's "throughput" is what it offered, not what a channel
	// carried (an 11 Mbit/s CBR on an 11 Mbit/s radio reads 11000): say so
	// beside the numbers.
	if slices.ContainsFunc(res.Flows, func(f metrics.Flow) bool { return f.Transport == "udp" }) {
		if _, err := fmt.Fprintln(w, "(udp: throughput is the offered load, what the source sent; goodput is what arrived)"); err != nil {
			return err
		}
	}
	if q := queueSummary(res.Queues); q != "" {
		if _, err := fmt.Fprintf(w, "\nqueueing delay, mean / p99 ms: %s", q); err != nil {
			return err
		}
	}
	var drops []string
	for _, c := range network.DropCauses() {
		if n := res.Drops[c.String()]; n > 0 {
			drops = append(drops, fmt.Sprintf("%s %d", c, n))
		}
	}
	if len(drops) == 0 {
		drops = []string{"none"}
	}
	_, err := fmt.Fprintf(w, "\ndrops: %s\n%d events, %s s simulated in %.3f s (seed %d)\n",
		strings.Join(drops, ", "), res.Events, g(res.SimSeconds), res.WallSeconds, res.Seed)
	return err
}

// queueSummary names the (at most three) links whose packets waited
// longest on average, with their mean and 99th percentile; "" when none
// waited as long as a microsecond.
func queueSummary(qs map[string]network.QueueStats) string {
	names := slices.Collect(maps.Keys(qs))
	names = slices.DeleteFunc(names, func(n string) bool { return qs[n].MeanMs < 0.001 })
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(qs[b].MeanMs, qs[a].MeanMs); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, n := range names[:min(len(names), 3)] {
		parts = append(parts, fmt.Sprintf("%s %s / %s", n, g3(qs[n].MeanMs), g3(qs[n].P99Ms)))
	}
	return strings.Join(parts, ", ")
}

// g3 prints a delay in ms with three significant digits.
func g3(ms float64) string { return strconv.FormatFloat(ms, 'g', 3, 64) }

func resultCSV(w io.Writer, res *scenario.Result) error {
	// A routing protocol's drop causes are columns only where one runs.
	causes := slices.DeleteFunc(network.DropCauses(), func(c network.DropCause) bool { return c.Routing() && res.Routing == nil })
	header := make([]string, 0, len(columns)+len(causes)+1)
	for _, c := range columns {
		header = append(header, c.csv)
	}
	for _, c := range causes {
		header = append(header, "dropped_"+c.String())
	}
	header = append(header, "completion_seconds")
	rows := make([][]string, len(res.Flows))
	for i := range res.Flows {
		f := &res.Flows[i]
		row := make([]string, 0, len(header))
		for _, c := range columns {
			row = append(row, c.csv1(f))
		}
		for _, c := range causes {
			row = append(row, i64(f.Dropped[c.String()]))
		}
		rows[i] = append(row, g(f.CompletionSeconds))
	}
	return WriteCSV(w, header, rows)
}
