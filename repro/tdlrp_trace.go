package repro

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// lostRetransmitTrace reads a TCP trace (trace.tcp) and shows, for the
// first timeout that follows a fast retransmission of the segment the
// timer fires for, what the sender did in between: T-DLRP's FRL can see
// a lost fast retransmission only through a duplicate ACK whose echoed
// timestamp is later than the retransmission's (§4.1), so it needs a new
// segment sent after it. The lines say whether one was.
func lostRetransmitTrace(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, n := range []string{"time_s", "event", "seq", "ack", "una", "high", "flight_bytes", "cwnd_bytes", "retx"} {
		if _, ok := col[n]; !ok {
			return nil, fmt.Errorf("%s: no column %s", path, n)
		}
	}
	type row []string
	var rows []row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, rec)
	}
	num := func(rw row, c string) float64 { x, _ := strconv.ParseFloat(rw[col[c]], 64); return x }
	for i, rw := range rows {
		if rw[col["event"]] != "t" {
			continue
		}
		una := rw[col["una"]]
		// The last retransmission of that segment before the timeout,
		// sent while duplicate ACKs held it (a fast retransmission).
		fr := -1
		for j := i - 1; j >= 0; j-- {
			if rows[j][col["event"]] == "s" && rows[j][col["retx"]] == "true" && rows[j][col["seq"]] == una {
				fr = j
				break
			}
		}
		if fr < 0 {
			continue
		}
		highAtFR := num(rows[fr], "high")
		var dup, newSent int
		for j := fr + 1; j < i; j++ {
			switch rows[j][col["event"]] {
			case "a":
				if rows[j][col["ack"]] == una {
					dup++
				}
			case "s":
				if num(rows[j], "seq") >= highAtFR {
					newSent++
				}
			}
		}
		lines := []string{
			"packet trace (T-DLRP, window 32, first timeout after a lost fast retransmission; " + path + "):",
			fmt.Sprintf("  t = %s s: fast retransmission of seq %s; flight %s B, cwnd %s B (window 32 × 1024 B = 32768 B)",
				rows[fr][col["time_s"]], una, rows[fr][col["flight_bytes"]], rows[fr][col["cwnd_bytes"]]),
			fmt.Sprintf("  then %d duplicate ACKs for seq %s and %d new segments sent", dup, una, newSent),
			fmt.Sprintf("  t = %s s: the timer fires for seq %s", rw[col["time_s"]], una),
		}
		if newSent == 0 {
			lines = append(lines, "  nothing new was sent after the retransmission (the window was full), so no later segment's timestamp could come back on a duplicate ACK to reveal the loss: FRL cannot fire, and only the timer repairs it")
		} else {
			lines = append(lines, "  new segments followed the retransmission, yet the timer fired first: their duplicate ACKs did not reveal the loss in time")
		}
		return lines, nil
	}
	return []string{"packet trace: no timeout after a lost fast retransmission in the first run (" + path + ")"}, nil
}
