package traffic

import (
	"strings"

	"github.com/tcplab/tcplab/component"
)

// CommandParams: app "command", a user's program (iperf3, a web server
// and its client) run inside a kernel host's network namespace under
// tcplab emulate (package kernel starts and stops it). Argv is the client,
// started in the source's namespace at the flow's start and stopped
// (SIGTERM, then SIGKILL a second later) at its stop; Server, if given,
// runs in the destination's namespace from the run's start. In both,
// {src} and {dst} stand for the two hosts' addresses. Log, if given, is a
// file for the programs' output (both, prefixed); otherwise it is dropped.
type CommandParams struct {
	Argv   []string `yaml:"argv" required:"true"`
	Server []string `yaml:"server"`
	Log    string   `yaml:"log"`
}

func init() {
	Apps.Register("command", func() AppParams { return &CommandParams{} })
}

// Validate implements component.Params.
func (p *CommandParams) Validate() error {
	var es component.Errors
	if len(p.Argv) == 0 || strings.TrimSpace(p.Argv[0]) == "" {
		es = append(es, component.Errorf("argv", "a program to run, e.g. [iperf3, -c, \"{dst}\", -t, \"10\"]"))
	}
	if len(p.Server) > 0 && strings.TrimSpace(p.Server[0]) == "" {
		es = append(es, component.Errorf("server", "the server's program is empty"))
	}
	return es.Err()
}

// Datagrams implements AppParams: what a program sends is its own
// business; the flow is not a simulated one either way.
func (p *CommandParams) Datagrams() bool { return false }
