#![no_main]
//! `vidcc_net::fuzzing::receiver` under libFuzzer (`make fuzz`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| vidcc_net::fuzzing::receiver(data));
