# ECN over a RED bottleneck (ns-2.35), for tcplab's ECN check
# (compare/ecn_test.go; tcplab: examples/red-ecn.yaml).
#   S_i --100Mb,1ms-- R1 --5Mb,20ms, RED-- R2 --100Mb,1ms-- D_i
# N NewReno FTP flows with ecn_ ECN (1 or 0), 1000-byte payload, window_ 64,
# flow i starting at i*0.1 s, T seconds. RED: min 5, max 15, max_p 0.1,
# w_q 0.002, gentle, packet mode, limit 50, marking ECT packets (setbit_)
# wherever it would drop early (use_mark_p_ false), count spacing without
# wait_ (F&J §7's p/(1 - count p)).
# usage: ns red-ecn.tcl N ECN SEED T
lassign $argv nflows ecn seed T
set pktsize 1000
Queue set limit_ 50
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
Queue/RED set gentle_ true
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set mean_pktsize_ 1000
Queue/RED set wait_ false
Queue/RED set use_mark_p_ false
Queue/RED set setbit_ [expr {$ecn ? "true" : "false"}]
set ns [new Simulator]
$defaultRNG seed $seed
set R1 [$ns node]; set R2 [$ns node]
$ns duplex-link $R1 $R2 5Mb 20ms RED
for {set i 0} {$i < $nflows} {incr i} {
    set S($i) [$ns node]; set D($i) [$ns node]
    $ns duplex-link $S($i) $R1 100Mb 1ms DropTail
    $ns duplex-link $R2 $D($i) 100Mb 1ms DropTail
    set tcp($i) [new Agent/TCP/Newreno]
    $tcp($i) set packetSize_ $pktsize
    $tcp($i) set window_ 64
    $tcp($i) set ecn_ $ecn
    $ns attach-agent $S($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $D($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr {$i * 0.1}] "$ftp($i) start"
}
set redq [[$ns link $R1 $R2] queue]
proc finish {} {
    global tcp sink pktsize T nflows ecn seed redq
    set sum 0.0; set rtos 0; set rexmit 0
    for {set i 0} {$i < $nflows} {incr i} {
        set npkts [expr {[$sink($i) set bytes_] / ($pktsize + 40)}]
        set sum [expr {$sum + $npkts * $pktsize * 8.0 / $T / 1000.0}]
        incr rtos [$tcp($i) set nrexmit_]
        incr rexmit [$tcp($i) set nrexmitpack_]
    }
    puts "RESULT ecn=$ecn seed=$seed goodput_kbps=[format %.2f $sum] rtos=$rtos rexmits=$rexmit"
    exit 0
}
$ns at $T "finish"
$ns run
