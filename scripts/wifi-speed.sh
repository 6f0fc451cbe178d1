#!/bin/sh
# wifi-speed.sh ANCHORS_DIR [N]: the 60 s TCP transfer over the 10-hop
# 11 Mbit/s chain, tcplab against ns-3.37, whole processes, alternating,
# N times each (default 3); prints each wall time and the median ratio.
set -e
A=${1:?usage: wifi-speed.sh ANCHORS_DIR [N]}
N=${2:-3}
cd "$(dirname "$0")/.."
sh scripts/ns3/build.sh "$A" >/dev/null
go build -o /tmp/tcplab-speed ./cmd/tcplab
t() { s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
for i in $(seq "$N"); do
	a=$(t /tmp/tcplab-speed run examples/wifi-chain.yaml)
	b=$(t scripts/ns3/wifi-chain --hops=10 --rate=11 --prop=range --time=60)
	echo "run $i: tcplab $a s, ns-3 $b s, ratio $(echo "$b / $a" | bc -l | cut -c1-6)"
done | tee /tmp/wifi-speed.txt
sort -t' ' -k10 -n /tmp/wifi-speed.txt | awk '{r[NR]=$NF} END {print "median ratio " r[int((NR+1)/2)]}'
