# ns-2.35 scenarios for the check of tcplab's ns-2 Vegas (compare/vegas_test.go).
# usage: ns vegas.tcl SCEN VARIANT P SEED [DROPFILE]
#   A: the anchors' dumbbell-lossy: S -100Mb,6ms- R1 -2Mb,50ms- R2 -9Mb,1ms- D,
#      1024-byte packets, window_ 32, loss p on R2->D (or DROPFILE: the
#      0-based numbers of the packets R2->D drops, SYN = 0);
#   B: the anchors' chain-4hop: 4 links of 1Mb, 100ms, loss p on each,
#      1000-byte packets, window_ 50;
#   C: 10 flows over a 6Mb, 50ms bottleneck with loss p (the anchors'
#      dumbbell-flows), 1000-byte packets, window_ 64, starts 0.1 s apart.
# DropTail 50 everywhere, 200 s (C: 100 s). Goodput is payload delivered in
# order: the sink's bytes_ over the on-wire packet size (Vegas's packets are
# packetSize_ bytes, not packetSize_ + 40), less the SYN. stalls= counts
# the times ns-2's Vegas set cwnd_ to 0 (its deflation to v_newcwnd_ = 0 on
# the first new ACK after a timeout and more than three duplicate ACKs),
# after which it sends nothing until the next timeout.
lassign $argv scen variant p seed dropfile
Queue set limit_ 50
set ns [new Simulator]
$defaultRNG seed $seed
proc loss {from to} {
    global ns p
    if {$p <= 0} { return }
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ $p
    $em ranvar [new RandomVariable/Uniform]
    $em drop-target [new Agent/Null]
    $ns link-lossmodel $em $from $to
}
set cwndlog [file tempfile cwndpath]
proc flow {src dst pktsize window start} {
    global ns variant cwndlog
    set tcp [new Agent/TCP/$variant]
    $tcp attach $cwndlog
    $tcp trace cwnd_
    $tcp set packetSize_ $pktsize
    $tcp set window_ $window
    $ns attach-agent $src $tcp
    set sink [new Agent/TCPSink]
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at $start "$ftp start"
    return [list $tcp $sink]
}
set T 200.0
switch $scen {
    A {
        set pktsize 1024
        set S [$ns node]; set R1 [$ns node]; set R2 [$ns node]; set D [$ns node]
        $ns duplex-link $S  $R1 100Mb 6ms  DropTail
        $ns duplex-link $R1 $R2 2Mb   50ms DropTail
        $ns duplex-link $R2 $D  9Mb   1ms  DropTail
        if {$dropfile ne ""} {
            set fh [open $dropfile r]
            set em [new ErrorModel/List]
            $em droplist [string trim [read $fh]]
            close $fh
            $em drop-target [new Agent/Null]
            $ns link-lossmodel $em $R2 $D
        } else {
            loss $R2 $D
        }
        set flows [list [flow $S $D $pktsize 32 0.0]]
    }
    B {
        set pktsize 1000
        for {set i 0} {$i <= 4} {incr i} { set n($i) [$ns node] }
        for {set i 0} {$i < 4} {incr i} {
            $ns duplex-link $n($i) $n([expr {$i + 1}]) 1Mb 100ms DropTail
            loss $n($i) $n([expr {$i + 1}])
        }
        set flows [list [flow $n(0) $n(4) $pktsize 50 0.0]]
    }
    C {
        set pktsize 1000
        set T 100.0
        set R1 [$ns node]; set R2 [$ns node]
        $ns duplex-link $R1 $R2 6Mb 50ms DropTail
        loss $R1 $R2
        set flows {}
        for {set i 0} {$i < 10} {incr i} {
            set s [$ns node]; set d [$ns node]
            $ns duplex-link $s $R1 100Mb 1ms DropTail
            $ns duplex-link $R2 $d 100Mb 1ms DropTail
            lappend flows [flow $s $d $pktsize 64 [expr {$i * 0.1}]]
        }
    }
}
proc finish {} {
    global flows pktsize T variant scen p seed cwndlog cwndpath
    flush $cwndlog
    set fh [open $cwndpath r]
    set stalls [regexp -all {cwnd_ 0\.000} [read $fh]]
    close $fh
    file delete $cwndpath
    set wire [expr {$variant eq "Vegas" ? $pktsize : $pktsize + 40}]
    set sum 0.0; set rtos 0
    foreach f $flows {
        lassign $f tcp sink
        set npkts [expr {[$sink set bytes_] / $wire}]
        if {$variant eq "Vegas" && $npkts > 0} { incr npkts -1 }
        set sum [expr {$sum + $npkts * $pktsize * 8.0 / $T / 1000.0}]
        incr rtos [$tcp set nrexmit_]
    }
    puts "RESULT scen=$scen var=$variant p=$p seed=$seed goodput_kbps=[format %.2f $sum] rtos=$rtos stalls=$stalls"
    exit 0
}
$ns at $T "finish"
$ns run
