# T-DLRP's mixed wired-wireless topology (Sreekumari et al. 2013, Fig. 8) in
# ns-2.35, for the comparators ns-2 has (Newreno, Vegas): the independent
# check of tcplab's examples/tdlrp-mixed.yaml behind T-DLRP Fig. 11b.
#   S --100Mb,6ms-- R1 --2Mb,50ms,DropTail 50-- R2 --9Mb,1ms, loss p-- D
# FLOWS FTP flows S->D 100 ms apart (1024-byte payload, window_ 32,
# timestamps on as tcplab's entries run them), and with CBR 1 a 500 kbit/s
# UDP source of 1052-byte packets from 1 s. Random loss p on every packet
# R2->D (after the link, as tcplab and ns-3's receive error model). No
# retransmission-targeted loss: ns-2 has no model that sees fast
# retransmissions, so only entries without it (Fig. 11b) are checked here.
# Built on the shared anchors' common.tcl (its path is the first argument).
# usage: ns tdlrp-mixed.tcl ANCHORS_NS2_DIR VARIANT FLOWS P CBR SEED [T]
lassign $argv anchors variant flows p cbr seed T
if {$T eq ""} { set T 200.0 }
source [file join $anchors common.tcl]
set pktsize 1024

set ns [new Simulator]
$defaultRNG seed $seed
set S [$ns node]; set R1 [$ns node]; set R2 [$ns node]; set D [$ns node]
$ns duplex-link $S  $R1 100Mb 6ms  DropTail
$ns duplex-link $R1 $R2 2Mb   50ms DropTail
$ns duplex-link $R2 $D  9Mb   1ms  DropTail
$ns queue-limit $R1 $R2 50
add_loss $R2 $D $p

set flowlist {}
for {set i 0} {$i < $flows} {incr i} {
    lassign [bulk_flow $variant $S $D $pktsize 32 [expr {0.1 * $i}]] tcp sink
    $tcp set timestamps_ true
    $tcp set fid_ $i
    lappend flowlist [list $tcp $sink [expr {0.1 * $i}]]
}
if {$cbr} {
    set udp [new Agent/UDP]
    $ns attach-agent $S $udp
    set null [new Agent/Null]
    $ns attach-agent $D $null
    $ns connect $udp $null
    set c [new Application/Traffic/CBR]
    $c set packetSize_ 1052
    $c set rate_ 500Kb
    $c attach-agent $udp
    $ns at 1.0 "$c start"
}

proc finish {} {
    global flowlist pktsize T variant flows p cbr seed
    set sum 0.0
    set rtos 0
    foreach f $flowlist {
        lassign $f tcp sink start
        set npkts [expr {[$sink set bytes_] / ($pktsize + 40)}]
        set sum [expr {$sum + $npkts * $pktsize * 8.0 / ($T - $start) / 1000.0}]
        incr rtos [$tcp set nrexmit_]
    }
    puts "RESULT sim=ns2 scen=tdlrp-mixed var=$variant flows=$flows p=$p cbr=$cbr seed=$seed\
goodput_per_conn_kbps=[format %.2f [expr {$sum / $flows}]] rtos=$rtos"
    exit 0
}
$ns at $T "finish"
$ns run
