#!/bin/sh
# Reruns in ns-2.35 (Debian's ns2; shared anchors' common.tcl) the
# comparators behind tcplab's refutations (T-DLRP Fig. 11b's NewReno and
# Vegas, Abouzeid Figs. 3-4's Reno), and stores the RESULT lines
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

out=repro/crosscheck/abouzeid-fig3-4.txt
{
	echo "# Abouzeid & Roy Figs. 3-4 in ns-2.35: Reno, RTT 0.2 -> 0.1 s at AT, no loss, 15 s (deterministic: one run a point)"
	echo "# made by: scripts/crosscheck.sh ANCHORS_DIR (ns scripts/ns2/abouzeid-step.tcl ANCHORS_DIR/ns2 W AT)"
	for w in 26 13; do
		for at in 6.00 6.02 6.04 6.06 6.07 6.08 6.10 6.12 6.14 6.16 6.18 6.20; do
			ns scripts/ns2/abouzeid-step.tcl "$A/ns2" "$w" "$at"
		done
	done
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out" >&2
