#!/usr/bin/env bash
# Times tcplab, ns-2.35 and ns-3.37 on the anchors' scenarios in the same
# run, as whole processes (wall clock), and prints the median wall
# seconds and the ratios as a Markdown table.
#
#   scripts/speed.sh [ANCHORS_DIR] [RUNS]
#
# ANCHORS_DIR is a writable copy of the shared anchors folder whose ns-3
# programs were built with its ns3/build.sh (apt-get install -y ns2 ns3
# libns3-dev g++). Without ns-2 or the ns-3 programs, their columns
# stay empty. RUNS (default 5) is the number of timed runs per cell; ns-3
# on C-big runs once (it takes over a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
anchors=${1:-}
runs=${2:-5}
bin=$(mktemp -d)/tcplab
go build -o "$bin" ./cmd/tcplab

# median_wall N CMD...: median of N wall-clock times, in seconds.
median_wall() {
	local n=$1; shift
	local ts=() t0 t1
	for _ in $(seq "$n"); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1 || true
		t1=$EPOCHREALTIME
		ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b-a}')")
	done
	printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

have_ns2=false; command -v ns >/dev/null && [ -n "$anchors" ] && have_ns2=true
have_ns3=false; [ -n "$anchors" ] && [ -x "$anchors/ns3/dumbbell-flows" ] && have_ns3=true

echo "| scenario | tcplab s | ns-2 s | ns-3 s | ns-2 / tcplab | ns-3 / tcplab |"
echo "|---|---|---|---|---|---|"
row() { # name, tcplab args, ns-2 args, ns-3 args, ns-3 runs
	local name=$1 targs=$2 n2args=$3 n3args=$4 n3runs=$5
	local t n2="" n3="" r2="" r3=""
	# shellcheck disable=SC2086
	t=$(median_wall "$runs" "$bin" run $targs)
	if $have_ns2; then
		# shellcheck disable=SC2086
		n2=$(median_wall "$runs" ns $n2args)
		r2=$(awk -v a="$n2" -v b="$t" 'BEGIN {printf "%.1f", a/b}')
	fi
	if $have_ns3; then
		# shellcheck disable=SC2086
		n3=$(median_wall "$n3runs" $n3args)
		r3=$(awk -v a="$n3" -v b="$t" 'BEGIN {printf "%.0f", a/b}')
	fi
	echo "| $name | $t | $n2 | $n3 | $r2 | $r3 |"
}
A=$anchors
row "A dumbbell-lossy p=1% (200 s)" "examples/dumbbell-lossy.yaml" \
	"$A/ns2/dumbbell-lossy.tcl Newreno 0.01 1" "$A/ns3/dumbbell-lossy --p=0.01 --seed=1 --sack=1" "$runs"
row "B chain-4hop p=1% (200 s)" "examples/chain-4hop.yaml" \
	"$A/ns2/chain-4hop.tcl Newreno 0.01 1" "$A/ns3/chain-4hop --p=0.01 --seed=1 --sack=1" "$runs"
row "C 10 flows, 6 Mbps (100 s)" "examples/dumbbell-10flows.yaml" \
	"$A/ns2/dumbbell-flows.tcl 10 6 0.02 1" "$A/ns3/dumbbell-flows --n=10 --bw=6 --p=0.02 --seed=1 --sack=1" "$runs"
row "C-big 100 flows, 100 Mbps (100 s)" "examples/c-big.yaml" \
	"$A/ns2/dumbbell-flows.tcl 100 100 0.02 1" "$A/ns3/dumbbell-flows --n=100 --bw=100 --p=0.02 --seed=1 --sack=1" 1
