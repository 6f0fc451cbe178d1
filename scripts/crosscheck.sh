#!/bin/sh
# Reruns in ns-2.35 (Debian's ns2; shared anchors' common.tcl) the
# comparators behind tcplab's refutations, and stores the RESULT lines
# under repro/crosscheck/, where `tcplab repro` reads them (built in).
# usage: scripts/crosscheck.sh ANCHORS_DIR      (e.g. ../shared/anchors)
# Needs: apt-get install -y ns2
set -e
A=$(cd "${1:?usage: crosscheck.sh ANCHORS_DIR}" && pwd)
cd "$(dirname "$0")/.."
out=repro/crosscheck/tdlrp-fig11b.txt
{
	echo "# T-DLRP Fig. 11b in ns-2.35: goodput per connection, N connections + 500 kbit/s CBR, 1% random loss R2->D, 200 s"
	echo "# made by: scripts/crosscheck.sh ANCHORS_DIR (ns scripts/ns2/tdlrp-mixed.tcl ANCHORS_DIR/ns2 VARIANT FLOWS 0.01 1 SEED)"
	for v in Newreno Vegas; do
		for n in 1 2 4 6 8 10; do
			for s in 1 2 3 4 5 6 7 8 9 10; do
				ns scripts/ns2/tdlrp-mixed.tcl "$A/ns2" "$v" "$n" 0.01 1 "$s"
			done
		done
	done
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out" >&2
