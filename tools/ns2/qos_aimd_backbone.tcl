# ns-2 2.35 on the QoS-AIMD suite's Fig. 2 backbone with every ns-2 default the suite takes
# (python/vidcc/papers/ns2.py): N TCP NewReno flows, each source and sink on its own node with a
# 100 Mb/s, 1 ms DropTail access link; r1-r2 100 Mb/s, 35 ms with ns-2's default RED (byte mode,
# 25 000-byte limit under automatic thresholds); 1250 B on the wire (packetSize_ 1210 + 40 B
# header); window_ W packets; starts uniform in [0, 1] s; throughput over 5-20 s. With "cbr", a
# randomised CBR of 125 B packets at 180 kb/s (0.9 packets per 5 ms slot) on its own access
# links stands in for the paced AIMD flow, whose agent ns-2 does not have, and its loss is printed.
# Usage: ns tools/ns2/qos_aimd_backbone.tcl N W [cbr]
#   10 800   -> 78.9 Mb/s (the suite's B1 with 1 MB windows: normalised 0.79; vidcc 0.84)
#   10 20    -> 1.346 packets per slot per flow (Fig. 6 at N = 10, window-limited; vidcc 1.31)
#   100 20 cbr -> CBR loss 7.6 %, backbone arrivals 2.3 %, TCP 0.470 per slot (vidcc at N = 100: AIMD 6.9-12.9 %, TCP 2.3 %, 0.470)
set N [lindex $argv 0]
set W [lindex $argv 1]
set with_cbr [expr {[lindex $argv 2] eq "cbr"}]
set ns [new Simulator]
ns-random 1
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 100Mb 35ms RED
set rng [new RNG]
$rng seed 7
for {set i 0} {$i < $N} {incr i} {
  set s($i) [$ns node]
  set d($i) [$ns node]
  $ns duplex-link $s($i) $r1 100Mb 1ms DropTail
  $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
  set t($i) [new Agent/TCP/Newreno]
  $t($i) set packetSize_ 1210
  $t($i) set window_ $W
  set k($i) [new Agent/TCPSink]
  $ns attach-agent $s($i) $t($i)
  $ns attach-agent $d($i) $k($i)
  $ns connect $t($i) $k($i)
  set f($i) [new Application/FTP]
  $f($i) attach-agent $t($i)
  $ns at [$rng uniform 0 1] "$f($i) start"
}
set qm [$ns monitor-queue $r1 $r2 [open /dev/null w]]
if {$with_cbr} {
  set cs [$ns node]
  set cd [$ns node]
  $ns duplex-link $cs $r1 100Mb 1ms DropTail
  $ns duplex-link $r2 $cd 100Mb 1ms DropTail
  set u [new Agent/UDP]
  set lm [new Agent/LossMonitor]
  $ns attach-agent $cs $u
  $ns attach-agent $cd $lm
  $ns connect $u $lm
  set c [new Application/Traffic/CBR]
  $c set packetSize_ 125
  $c set rate_ 180Kb
  $c set random_ 1
  $c attach-agent $u
  $ns at 0 "$c start"
}
proc mark {} {
  global N t a with_cbr lm c0 l0 qm d0 p0
  for {set i 0} {$i < $N} {incr i} { set a($i) [$t($i) set ack_] }
  set d0 [$qm set pdrops_]
  set p0 [$qm set parrivals_]
  if {$with_cbr} { set c0 [$lm set npkts_]; set l0 [$lm set nlost_] }
}
proc done {} {
  global N W t a with_cbr lm c0 l0 qm d0 p0
  set tot 0
  for {set i 0} {$i < $N} {incr i} { set tot [expr {$tot + [$t($i) set ack_] - $a($i)}] }
  set mbps [expr {$tot * 1250 * 8 / 15.0 / 1e6}]
  puts "N $N window_ $W: TCP total [format %.2f $mbps] Mb/s, [format %.3f [expr {$mbps / $N / 2.0}]] packets of 1250 B per 5 ms slot per flow"
  puts "backbone: [format %.4f [expr {double([$qm set pdrops_] - $d0) / ([$qm set parrivals_] - $p0)}]] of arrivals dropped"
  if {$with_cbr} {
    set rx [expr {[$lm set npkts_] - $c0}]
    set lost [expr {[$lm set nlost_] - $l0}]
    puts "CBR 125 B at 180 kb/s: loss [format %.4f [expr {double($lost) / ($rx + $lost)}]]"
  }
  exit 0
}
$ns at 5 "mark"
$ns at 20 "done"
$ns run
