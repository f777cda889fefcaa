#![no_main]
//! `vidcc_net::fuzzing::relay` under libFuzzer (`make fuzz`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| vidcc_net::fuzzing::relay(data));
