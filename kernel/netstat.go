//go:build linux

package kernel

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// netstat reads the host namespace's TCP extension counters (TcpExt in
// /proc/net/netstat: TCPTimeouts, TCPFastRetrans, ...): a namespace counts
// its own, so with one sender they are that sender's.
func (h *Host) netstat() (map[string]int64, error) {
	var out map[string]int64
	err := h.Run(func() error {
		f, err := os.Open("/proc/thread-self/net/netstat")
		if err != nil {
			return err
		}
		defer f.Close()
		out = parseNetstat(f)
		return nil
	})
	return out, err
}

// parseNetstat reads pairs of lines "TcpExt: names..." / "TcpExt: values...".
func parseNetstat(f *os.File) map[string]int64 {
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var names []string
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] != "TcpExt:" {
			continue
		}
		if names == nil {
			names = fields[1:]
			continue
		}
		for i, v := range fields[1:] {
			if i < len(names) {
				n, _ := strconv.ParseInt(v, 10, 64)
				out[names[i]] = n
			}
		}
		names = nil
	}
	return out
}
