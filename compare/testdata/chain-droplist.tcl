# Scenario B "chain-4hop" of the shared anchors for ns-2.35, with the random
# loss replaced by fixed drop lists so that tcplab can be run on exactly
# the same losses: n0 -- n1 -- n2 -- n3 -- n4, 1Mb, 100ms, DropTail 50, one
# FTP flow n0->n4, 1000-byte payload, window_ 50, 200 s.
# usage: ns chain-droplist.tcl VARIANT DROPFILE
# DROPFILE has four lines, one per forward link: the 0-based numbers of
# the packets (SYN = 0) that link's ErrorModel/List drops.
lassign $argv variant dropfile
set T 200.0
set pktsize 1000
Queue set limit_ 50

set ns [new Simulator]
set fh [open $dropfile r]
set dl [split [string trim [read $fh]] "\n"]
close $fh
for {set i 0} {$i <= 4} {incr i} { set n($i) [$ns node] }
for {set i 0} {$i < 4} {incr i} {
    $ns duplex-link $n($i) $n([expr {$i + 1}]) 1Mb 100ms DropTail
    set em [new ErrorModel/List]
    $em droplist [lindex $dl $i]
    $em drop-target [new Agent/Null]
    $ns link-lossmodel $em $n($i) $n([expr {$i + 1}])
}
set tcp [new Agent/TCP/$variant]
$tcp set packetSize_ $pktsize
$tcp set window_ 50
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(4) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

proc finish {} {
    global tcp sink pktsize T
    set npkts [expr {[$sink set bytes_] / ($pktsize + 40)}]
    puts "RESULT goodput_kbps=[format %.2f [expr {$npkts * $pktsize * 8.0 / $T / 1000.0}]]\
rtos=[$tcp set nrexmit_] rexmits=[$tcp set nrexmitpack_]"
    exit 0
}
$ns at $T "finish"
$ns run
