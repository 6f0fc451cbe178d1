//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/vishvananda/netns"
)

// Every namespace tcplab makes is named prefix-PID-NODE, so that what a
// run left behind (killed with SIGKILL: no deferred clean-up ran) is told
// apart from anything else on the machine and removed by the next run.
const prefix = "tcplab-"

// Range is the one address range kernel hosts are numbered from. It is
// used only inside their namespaces: each has a route for it through its
// TUN device and no other, and a packet for any other address is dropped
// and counted.
var Range = netip.MustParsePrefix("10.213.0.0/16")

// nsDir is where named namespaces are bind-mounted (iproute2's place).
const nsDir = "/run/netns"

func nsName(pid int, node string) string {
	return fmt.Sprintf("%s%d-%s", prefix, pid, node)
}

// ownerOf is the pid a namespace name of ours carries, or 0 if the name is
// not ours.
func ownerOf(name string) int {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0
	}
	pid, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// alive reports whether process pid runs: it exists and is not a zombie
// (a killed run whose parent has not reaped it, common under a container's
// init, has left its namespaces for good).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// Leftovers lists the namespaces of runs that are no longer running.
func Leftovers() []string {
	ents, _ := os.ReadDir(nsDir)
	var out []string
	for _, e := range ents {
		if pid := ownerOf(e.Name()); pid > 0 && pid != os.Getpid() && !alive(pid) {
			out = append(out, e.Name())
		}
	}
	return out
}

// RemoveLeftovers removes what runs that died left behind: their
// processes still inside those namespaces are killed, then the namespaces
// (and the devices in them) removed. Only names of tcplab's form whose
// run is gone are touched. It returns the names removed.
func RemoveLeftovers() ([]string, error) {
	var removed []string
	var errs []error
	for _, name := range Leftovers() {
		if err := removeNamespace(name); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}

// removeNamespace kills the processes inside the named namespace and
// removes it; its TUN device goes with it.
func removeNamespace(name string) error {
	killInside(filepath.Join(nsDir, name))
	if err := netns.DeleteNamed(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove namespace %s: %w", name, err)
	}
	return nil
}

// killInside kills every process whose network namespace is the one bound
// at path (a user's program of a run killed before it could stop them).
func killInside(path string) {
	var want syscall.Stat_t
	if syscall.Stat(path, &want) != nil {
		return
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat(filepath.Join("/proc", p.Name(), "ns", "net"), &st) != nil {
			continue
		}
		if st.Ino == want.Ino && st.Dev == want.Dev {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
