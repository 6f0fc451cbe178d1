# TCP over an 802.11b chain in ns-2.35 with DSR or with DSDV frozen after
# convergence (ns-2.35 compiles no static routing agent for wireless nodes),
# to measure the effect of routing: goodput(DSR) / goodput(static).
#   hops+1 nodes on a line 200 m apart; TwoRayGround with RXThresh_ =
#   CSThresh_ = the power at 250 m, so neighbours decode each other and
#   nodes two hops apart (400 m) neither decode nor sense each other.
#   802.11b DSSS at 11 Mbit/s data, 1 Mbit/s basic rate (ACKs), no RTS.
#   FLOWS bulk TCP (Sack1 or Newreno) n0 -> n(hops), starting 0.1 s apart
#   at T0, 1024-byte payload, window_ 32, an ACK for every segment.
#   Optional random loss LOSS at the destination's radio above the MAC
#   (an ErrorModel between its Mac/802_11 and its LL).
# Goodput per flow = (sender's ack_ T s after the flow's start) x 1024 x 8 / T (ack_ counts
# data segments acknowledged in order; segment 0 is the 40-byte SYN).
# usage: ns wifi-chain-routing.tcl ROUTING HOPS FLOWS SEED [LOSS T T0 TRACEFILE TCPVAR IFQ]
# then: mawk -v T0=T0 -f wifi-chain-routing.awk TRACEFILE (control packets by kind).
# Reference data: compare/testdata/ns2-dsr.txt (Sack1, 60 s, T0 100 s, seeds 1-5).
#   IFQ: CMUPriQueue (default, for both: DSR requires it; 50 packets per priority class,
#        routing > TCP ACKs > data) or Queue/DropTail/PriQueue (DSDV only; limit 50)
#   ROUTING: DSR | DSDV      TRACEFILE: path, or "none" (no trace)
lassign $argv rp hops flows seed loss T T0 tracefile tcpvar ifq
if {$ifq eq ""} { set ifq CMUPriQueue }
if {$loss eq ""} { set loss 0 }
if {$T eq ""} { set T 60.0 }
if {$T0 eq ""} { set T0 100.0 }
if {$tracefile eq ""} { set tracefile none }
if {$tcpvar eq ""} { set tcpvar Sack1 }
set pktsize 1024
set nn [expr {$hops + 1}]

# --- 802.11b DSSS, 250 m ranges
source [file join [file dirname [info script]] wifi-80211b.tcl]

# --- DSDV as static routes: converge fast, then freeze. Settling time wst0_ 0.1 s instead
# of 6 s (a new route may be advertised 2 x wst after it is learnt: 12 s a hop by default);
# full (periodic) updates every 0.75-1 s (perup_ 1) until T0 - 5 s, then perup_ 1e6, so
# none after the next; neighbour timeouts (min_update_periods_ x perup_) never fire.
# use_mac_ stays 0: a MAC retry drop loses the packet but does not break the route.
# (With perup_ huge from the start, triggered updates alone left routes missing:
# DSDVTriggerHandler cancels pending triggers that a rescheduled one was to cover.)
Agent/DSDV set wst0_ 0.1
Agent/DSDV set perup_ 1.0
Agent/DSDV set min_update_periods_ 1000000
Agent/DSDV set use_mac_ 0

set ns [new Simulator]
$defaultRNG seed $seed
# ns-2 wireless nodes need a trace channel; "none" = /dev/null and agent, router and MAC traces off
set tron OFF
if {$tracefile ne "none"} {
    set tf [open $tracefile w]
    set tron ON
} else {
    set tf [open /dev/null w]
}
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid [expr {200 * $hops + 100}] 100
create-god $nn
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 \
    -ifqType $ifq -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel $chan -topoInstance $topo \
    -agentTrace $tron -routerTrace $tron -macTrace $tron -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
    set n($i) [$ns node]
    $n($i) random-motion 0
    $n($i) set X_ [expr {200.0 * $i + 10}]
    $n($i) set Y_ 50.0
    $n($i) set Z_ 0.0
}

# loss above the MAC at the destination: Mac/802_11 -> ErrorModel -> (MAC recv trace ->) LL
if {$loss > 0} {
    # dropped packets are traced as "D ... PHY" lines of the destination (no PHY trace otherwise)
    if {$tracefile ne "none"} { set lossdrops [$n($hops) mobility-trace Drop "PHY"] } else { set lossdrops [new Agent/Null] }
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ $loss
    $em ranvar [new RandomVariable/Uniform]
    $em drop-target $lossdrops
    set mac [$n($hops) set mac_(0)]
    $em target [$mac up-target]
    $mac up-target $em
}

if {$rp eq "DSDV"} {
    for {set i 0} {$i < $nn} {incr i} {
        $ns at [expr {$T0 - 5.0}] "[$n($i) set ragent_] set perup_ 1000000"
    }
}

set flowlist {}
for {set i 0} {$i < $flows} {incr i} {
    set tcp [new Agent/TCP/$tcpvar]
    $tcp set packetSize_ $pktsize
    $tcp set window_ 32
    $tcp set fid_ $i
    $ns attach-agent $n(0) $tcp
    if {$tcpvar eq "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
    $ns attach-agent $n($hops) $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set st [expr {$T0 + 0.1 * $i}]
    $ns at $st "$ftp start"
    # each flow's in-order acknowledged segments after exactly T seconds of its own
    set acked($i) -1
    $ns at [expr {$st + $T}] "set acked($i) \[$tcp set ack_\]"
    lappend flowlist [list $tcp $sink $st $i]
}

set wall0 [clock milliseconds]
proc finish {} {
    global ns flowlist pktsize T T0 rp hops flows seed loss tracefile wall0 tcpvar acked ifq
    set sum 0.0
    set segs 0
    set rtos 0
    set rx 0
    set per {}
    foreach f $flowlist {
        lassign $f tcp sink st i
        set a $acked($i)
        if {$a < 0} { set a 0 }
        incr segs $a
        set g [expr {$a * $pktsize * 8.0 / $T / 1000.0}]
        lappend per [format %.1f $g]
        set sum [expr {$sum + $g}]
        incr rtos [$tcp set nrexmit_]
        incr rx [$tcp set nrexmitpack_]
    }
    $ns flush-trace
    puts "RESULT sim=ns2 rt=$rp tcp=$tcpvar ifq=$ifq hops=$hops flows=$flows seed=$seed loss=$loss T=$T T0=$T0\
goodput_sum_kbps=[format %.2f $sum] goodput_per_flow_kbps=[join $per ,] segs=$segs rtos=$rtos rexmits=$rx\
simwall_s=[format %.2f [expr {([clock milliseconds] - $wall0) / 1000.0}]]"
    exit 0
}
# each flow is measured over T seconds from its own start
$ns at [expr {$T0 + 0.1 * ($flows - 1) + $T + 0.001}] "finish"
$ns run
