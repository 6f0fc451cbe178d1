#!/bin/sh
# Regenerates the tables of README "Variants": 10 seeds per cell, means.
#   sh examples/variants-table.sh            (uses `go run ./cmd/tcplab`; TCPLAB=path to use a built binary)
set -e
cd "$(dirname "$0")/.."
if [ -z "$TCPLAB" ]; then go build -o /tmp/tcplab-variants ./cmd/tcplab; TCPLAB=/tmp/tcplab-variants; fi
SEEDS="1 2 3 4 5 6 7 8 9 10"
runs() { # FILE P LOSSKEY ARGS... -> one JSON flow per line
  f=$1; p=$2; k=$3; shift 3
  for s in $SEEDS; do "$TCPLAB" run "$f" --seed "$s" --set "$k=$p%" "$@" --format json; done |
    python3 -c 'import json,sys
dec=json.JSONDecoder(); t=sys.stdin.read(); i=0
while i < len(t):
    t2=t[i:].lstrip()
    if not t2: break
    o,n=dec.raw_decode(t2); i=len(t)-len(t2)+n; print(json.dumps(o["flows"][0]))'
}
summ() { # LABEL P -> goodput mean and timeouts mean (stdin: flows)
  python3 -c 'import json,sys
fs=[json.loads(l) for l in sys.stdin]
g=sum(f["goodput_bps"] for f in fs)/len(fs)/1e3; to=sum(f["timeouts"] for f in fs)/len(fs)
print("%s|%.1f|%.1f" % (sys.argv[1], g, to))' "$1 p=$2%"
}
echo "## ns-3 comparison: examples/dumbbell-lossy-ns3.yaml (ns3 profile, SACK), goodput kbit/s | timeouts"
for v in "vegas" "vegas loss_rule=1" "veno" "westwood" "cubic" "newreno"; do
  set -- $v; name=$1; extra=""
  [ -n "$2" ] && extra="--set flows.ftp.transport.params.${2%%=*}=${2#*=}"
  for p in 0 1 2 5; do
    runs examples/dumbbell-lossy-ns3.yaml $p links.lossy.loss.rate --set flows.ftp.transport.variant=$name \
      --set flows.ftp.transport.rtt_sampling=every_ack $extra | summ "$v" $p
  done
done
echo "## ns-2 comparison: examples/dumbbell-lossy.yaml (ns2 profile), Vegas alpha 1 beta 3 gamma 1"
for lr in 0 2; do
  for p in 0 1 2 5; do
    runs examples/dumbbell-lossy.yaml $p links.lossy.loss.rate --set flows.ftp.transport.variant=vegas \
      --set flows.ftp.transport.rtt_sampling=every_ack --set flows.ftp.transport.params.alpha=1 \
      --set flows.ftp.transport.params.beta=3 --set flows.ftp.transport.params.loss_rule=$lr | summ "vegas-ns2 loss_rule=$lr" $p
  done
done
echo "## accuracy: examples/dumbbell-lossy-variants.yaml (p channel loss + 0.5% fast-retransmission loss)"
echo "variant p|goodput|timeouts|ld_wireless|rl_detected|a_rlwl|false det.|other lost rtx det.|lost FR"
for v in newreno vegas veno westwood cubic newjersey cerl dac ddlrp tdlrp; do
  frac=0.9; [ $v = newjersey ] && frac=0.3
  for p in 1 2 5; do
    runs examples/dumbbell-lossy-variants.yaml $p links.lossy.loss.0.rate --set flows.ftp.transport.variant=$v \
      --set links.bottleneck.queue.fraction=$frac | python3 -c 'import json,sys
fs=[json.loads(l) for l in sys.stdin]; n=len(fs)
A=lambda k: sum(f["accuracy"].get(k,0) for f in fs)
def pooled(pct, cnt):  # pool the ratio over seeds: sum of numerators / sum of denominators
    den=sum(f["accuracy"].get(cnt,0) for f in fs)
    num=sum(f["accuracy"].get(pct,0)*f["accuracy"].get(cnt,0)/100 for f in fs)
    return "%.0f" % (100*num/den) if den else "-"
lfr=A("n_lost_fr_wireless")+A("n_lost_fr_congestion")
print("%s p=%s%%|%.1f|%.1f|%s|%s|%s|%.1f|%.1f|%.1f" % (sys.argv[1], sys.argv[2], sum(f["goodput_bps"] for f in fs)/n/1e3,
  sum(f["timeouts"] for f in fs)/n, pooled("ld_wireless","n_losses_wireless"),
  pooled("rl_detected","n_lost_fr_wireless"), pooled("a_rlwl","n_lost_fr_wireless"), A("n_false_detections")/n,
  A("n_other_rl_detected")/n, lfr/n))' $v $p
  done
done
