# The 50-node random-waypoint field of examples/manet-waypoint.yaml in ns-2.35:
# 50 nodes in 1500 m x 300 m moving as a setdest movement file says
# (compare/testdata/manet/seedN.ns_movements, the trajectories tcplab and ns-3
# read too), 802.11b DSSS (11 Mbit/s data, 1 Mbit/s basic rate, no RTS) with
# TwoRayGround thresholds at 250 m for decoding and sensing (as
# wifi-chain-routing.tcl), DSR (CMUPriQueue) or AODV (Queue/DropTail/PriQueue),
# 50-packet interface queues.
# Traffic (node i is tcplab's m(i+1)): 10 CBR flows over UDP, node i -> node i+25
# for i = 0..9, 540-byte packets at 17 280 bit/s (4 a second), starting at 10+i s;
# 5 bulk TCP flows (Sack1, 1024-byte payload, window_ 32, an ACK a segment)
# node i -> node i+25 for i = 10..14, starting at 10+i s; all run to 300 s.
# usage: ns manet-field.tcl ROUTING MOVEFILE SEED
# prints: RESULT sim=ns2 rt=... seed=... cbr_sent=N cbr_recv=N cbr_pdr=X tcp_goodput_kbps=X
#         (TCP goodput: each flow's in-order acknowledged segments x 1024 x 8 over
#         its time to 300 s, summed over the flows)
lassign $argv rp movefile seed
set ifq Queue/DropTail/PriQueue
if {$rp eq "DSR"} { set ifq CMUPriQueue }
set nn 50
set stop 300.0

source [file join [file dirname [info script]] wifi-80211b.tcl]

set ns_ [new Simulator]
$defaultRNG seed $seed
set tf [open /dev/null w]
$ns_ trace-all $tf
set topo [new Topography]
$topo load_flatgrid 1500 300
set god_ [create-god $nn]
set chan [new Channel/WirelessChannel]
$ns_ node-config -adhocRouting $rp -llType LL -macType Mac/802_11 \
    -ifqType $ifq -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel $chan -topoInstance $topo \
    -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
    set node_($i) [$ns_ node]
    $node_($i) random-motion 0
}
source $movefile

set cbrs {}
for {set i 0} {$i < 10} {incr i} {
    set udp [new Agent/UDP]
    $ns_ attach-agent $node_($i) $udp
    set sink [new Agent/LossMonitor]
    $ns_ attach-agent $node_([expr {$i + 25}]) $sink
    $ns_ connect $udp $sink
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 540
    $cbr set rate_ 17280
    $cbr attach-agent $udp
    $ns_ at [expr {10.0 + $i}] "$cbr start"
    lappend cbrs [list $cbr $sink [expr {10.0 + $i}]]
}
set tcps {}
for {set i 10} {$i < 15} {incr i} {
    set tcp [new Agent/TCP/Sack1]
    $tcp set packetSize_ 1024
    $tcp set window_ 32
    $ns_ attach-agent $node_($i) $tcp
    set sink [new Agent/TCPSink/Sack1]
    $ns_ attach-agent $node_([expr {$i + 25}]) $sink
    $ns_ connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns_ at [expr {10.0 + $i}] "$ftp start"
    lappend tcps [list $tcp [expr {10.0 + $i}]]
}

proc finish {} {
    global cbrs tcps rp seed stop
    set sent 0
    set recv 0
    foreach c $cbrs {
        lassign $c cbr sink st
        # a CBR source sends every 0.25 s from its start (the first at once)
        incr sent [expr {int(ceil(($stop - $st) / 0.25))}]
        incr recv [$sink set npkts_]
    }
    set g 0.0
    foreach t $tcps {
        lassign $t tcp st
        set a [$tcp set ack_]
        if {$a < 0} { set a 0 }
        set g [expr {$g + $a * 1024 * 8.0 / ($stop - $st) / 1000.0}]
    }
    puts "RESULT sim=ns2 rt=$rp seed=$seed cbr_sent=$sent cbr_recv=$recv cbr_pdr=[format %.4f [expr {double($recv) / $sent}]] tcp_goodput_kbps=[format %.1f $g]"
    exit 0
}
$ns_ at $stop "finish"
$ns_ run
