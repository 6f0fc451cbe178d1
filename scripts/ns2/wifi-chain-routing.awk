# Summarise an ns-2.35 CMU (old-format) wireless trace of wifi-chain-routing.tcl
# (the TRACE lines of compare/testdata/ns2-dsr.txt and ns2-aodv.txt).
# usage: mawk -v T0=100 -f wifi-chain-routing.awk TRACE
# Counts events at time >= T0 (TCP start). DSR control packets (type "DSR") are
# classified by the flags the trace prints after the IP header:
#   nAddrs [rreq seq] [rrep seq len a->b] [rerr n tell from->to]
#   $19 = "[1" route request, $21 = "[1" route reply, $25 = "[1" route error
# "s RTR" = originated by this node, "f RTR" = forwarded. AODV packets (type "AODV":
# requests, replies, errors; a rebroadcast request is "s" at each node) are counted as
# sent by routers (aodv_sent) and as MAC transmissions.
{
  if ($2 + 0 < T0) next
  ev = $1; lay = $4; typ = $7
  if (typ == "DSR") {
    if (lay == "RTR" && (ev == "s" || ev == "f")) {
      k = (ev == "s") ? "orig" : "fwd"
      c["dsr_" k]++
      if ($19 == "[1") c["rreq_" k]++
      if ($21 == "[1") c["rrep_" k]++
      if ($25 == "[1") c["rerr_" k]++
      if ($19 == "[1" && ev == "s") { split($15, d, ":"); c["rreq_orig_by_" $3 "_for_" d[1]]++ }
    }
    if (lay == "MAC" && ev == "s") c["dsr_mac_tx"]++
  }
  if (typ == "AODV" && lay == "RTR" && (ev == "s" || ev == "f")) c["aodv_sent"]++
  if (typ == "AODV" && lay == "MAC" && ev == "s") c["aodv_mac_tx"]++
  if (typ == "message" && lay == "RTR" && ev == "s") c["dsdv_orig"]++
  if (typ == "message" && lay == "MAC" && ev == "s") c["dsdv_mac_tx"]++
  if (ev == "s" && lay == "MAC" && (typ == "tcp" || typ == "ack")) c[typ "_mac_tx"]++
  if (ev == "D") c["drop_" lay "_" $5 "_" typ]++
  if (ev == "r" && lay == "AGT" && typ == "tcp") {
    nf = $20 + 0
    if (!("hops_min" in c) || nf < c["hops_min"]) c["hops_min"] = nf
    if (nf > c["hops_max"] + 0) c["hops_max"] = nf
    c["tcp_agt_rx"]++
    if (!("first_rx_us" in c)) c["first_rx_us"] = int(($2 - T0) * 1e6)
  }
}
END { for (k in c) printf "%s=%d ", k, c[k]; printf "\n" }
