// Package version reports which tcplab is running: the module version and
// the commit it was built from, as the Go toolchain recorded them in the
// binary (runtime/debug.ReadBuildInfo). Results and reports carry it so a
// number can be traced to the code that produced it.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Info is what the build recorded.
type Info struct {
	Module   string // module version: v1.2.3, or (devel) for a checkout build
	Revision string // VCS commit, empty if the build had no VCS data
	Time     string // commit time, RFC 3339
	Modified bool   // the work tree had uncommitted changes
	Go       string // toolchain version
}

// Get reads the build information of the running binary.
func Get() Info {
	in := Info{Module: "(unknown)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	if bi.Main.Version != "" {
		in.Module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is one line: version, commit (short, "+dirty" when modified),
// commit time and Go version, leaving out what the build did not record.
func (in Info) String() string {
	s := in.Module
	if in.Revision != "" {
		rev := in.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if in.Modified {
			rev += "+dirty"
		}
		s += " commit " + rev
		if in.Time != "" {
			s += " (" + in.Time + ")"
		}
	}
	return fmt.Sprintf("%s, %s", s, in.Go)
}
