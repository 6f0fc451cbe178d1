#!/usr/bin/env bash
# Regenerates cmd/tcplab/default.pgo, the profile the Go compiler uses to
# inline and devirtualise the hot path (profile-guided optimisation), from
# CPU profiles of the runs the speed goals are measured on: C-big, C-big
# with the linux profile on a 1 Gbps bottleneck (SACK), 1 000 flows, the
# 10-hop 802.11b chain, dumbbell-lossy and ALL-TCP's background.
#
#   scripts/pgo.sh
#
# The runs are long enough for about 4 000 samples (the profiler takes 100
# a second): with a few hundred, the compiler's inlining choices change
# from one profile to the next and the binary's speed by a per cent or two.
# Rebuild and compare against the old build (paired, whole processes)
# before keeping a new profile.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
bin=$dir/tcplab
go build -o "$bin" ./cmd/tcplab
n=0
prof() { # scenario, flags...
	n=$((n + 1))
	"$bin" run "$@" --cpuprofile "$dir/$n.prof" >/dev/null
}
prof examples/c-big.yaml --set duration=3000s
prof examples/c-big.yaml --set duration=100s --set links.bottleneck.bandwidth=1Gbps \
	--set links.bottleneck.loss.rate=0.1% --set 'flows.f{i}.transport={profile: linux}' \
	--set 'links.in{i}.bandwidth=1Gbps' --set 'links.out{i}.bandwidth=1Gbps'
prof examples/c-big.yaml --set duration=200s --set 'nodes[2].count=1000' --set 'nodes[3].count=1000' \
	--set 'links[1].count=1000' --set 'links[2].count=1000' --set 'flows[0].count=1000' \
	--set 'flows[0].start_step=1ms'
prof examples/wifi-chain.yaml --set duration=600s
prof examples/dumbbell-lossy.yaml --set duration=20000s
prof examples/alltcp-background.yaml --set duration=300s
go tool pprof -proto "$dir"/*.prof > cmd/tcplab/default.pgo
rm -r "$dir"
echo "cmd/tcplab/default.pgo: $(wc -c < cmd/tcplab/default.pgo) bytes from $n profiles"
