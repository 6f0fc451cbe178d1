# Abouzeid & Roy (GLOBECOM 2001), Figs. 3-4 in ns-2.35: the independent
# check of tcplab's abouzeid-fig3-4 (examples/abouzeid-step.yaml).
#   S --1Mb, one-way delay 192 ms forward, 0 back-- D
# One Reno bulk flow (960-byte payload, 1000-byte packets, window_ W), no
# loss; at instant AT the forward delay drops to 92 ms (RTT 0.2 -> 0.1 s):
# packets sent after it overtake those still in flight. With no loss every
# retransmission is false; one without a timeout is a false fast
# retransmit. Built on the shared anchors' common.tcl.
# usage: ns abouzeid-step.tcl ANCHORS_NS2_DIR W AT
lassign $argv anchors w at
source [file join $anchors common.tcl]
set T 15.0
set ns [new Simulator]
set S [$ns node]; set D [$ns node]
$ns simplex-link $S $D 1Mb 192ms DropTail
$ns simplex-link $D $S 1Mb 0ms DropTail
$ns queue-limit $S $D 1000
lassign [bulk_flow Reno $S $D 960 $w 0.0] tcp sink
$ns at $at "[[$ns link $S $D] link] set delay_ 0.092"
proc finish {} {
    global tcp w at
    set rtos [$tcp set nrexmit_]
    set rx [$tcp set nrexmitpack_]
    set ffr [expr {$rx > 0 && $rtos == 0 ? 1 : 0}]
    puts "RESULT sim=ns2 scen=abouzeid-step var=Reno w=$w at=$at rtos=$rtos rexmits=$rx false_fast_retransmit=$ffr"
    exit 0
}
$ns at $T "finish"
$ns run
