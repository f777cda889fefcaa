# ns-2 2.35 PLM (Legout's tcl/plm, built into Debian's ns) on the tree of crates/vidcc-sim/tests/plm.rs:
# 1.05 Mbit/s, 20 ms bottleneck, 100 Mbit/s / 1 ms access, 20 layers of 50 kbit/s, 1000 B packets, k NewReno
# flows (overhead_ 1 ms). Usage: ns tools/ns2/plm_tree.tcl DRR|DropTail k  (prints the subscription every 10 s).
# The first, hand-written comparison; `make validate` now generates these cases from vidcc's scenarios
# (plm-drr-tcp1/3, plm-drr-tcp1-two-receivers, plm-fifo-tcp1/3: python/vidcc/validate/cases.py) and compares them. Kept as the minimal
# example of loading ns-2's PLM library (PLMTopology, place_source/place_receiver). See docs/validation.md, "PLM".
set packetSize 1000
set rates {}
for {set i 0} {$i < 20} {incr i} { lappend rates 50e3 }
set rates_cum [calc_cum $rates]
set check_estimate 1
set Queue_sched_ [lindex $argv 0]
set ntcp [lindex $argv 1]
set PP_burst_length 2
set PP_estimation_length 3
set plm_debug_flag 0
Class T -superclass PLMTopology
T instproc init {} {
  $self instvar ns node
  set ns [new Simulator -multicast on]
  $self next $ns
  Queue/DRR set blimit_ 25000
  Queue/DropTail set limit_ 26
  $self build_link 0 1 20ms 1.05e6
  $self build_link 2 0 1ms 100e6
  $self build_link 1 3 1ms 100e6
  for {set i 0} {$i < $::ntcp} {incr i} {
    $self build_link [expr 10+$i] 0 1ms 100e6
    $self build_link 1 [expr 20+$i] 1ms 100e6
  }
  set id [$self place_source 2 0]
  $self place_receiver 3 $id 0.1 $::check_estimate 1
  for {set i 0} {$i < $::ntcp} {incr i} {
    set tcp [new Agent/TCP/Newreno]
    $tcp set window_ 1000
    $tcp set packetSize_ 1000
    $tcp set overhead_ 0.001
    $tcp set fid_ [expr 100+$i]
    set sink [new Agent/TCPSink]
    $ns attach-agent $node([expr 10+$i]) $tcp
    $ns attach-agent $node([expr 20+$i]) $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]; $ftp attach-agent $tcp
    $ns at 0.0 "$ftp start"
  }
  DM set PruneTimeout 1000
  $ns mrtproto DM {}
  for {set t 20} {$t <= 120} {incr t 10} { $ns at $t "puts \"t=$t sub=\[\$::PLMrcvr(1) set subscription_\]\"" }
  $ns at 120.1 "exit 0"
}
T instproc run {} { $self instvar ns; $ns run }
set t [new T]
$t run
