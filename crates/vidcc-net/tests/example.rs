//! The library example of docs/real-network.md runs and moves data.
#[path = "../examples/drive_tfrc.rs"]
#[allow(dead_code)]
mod drive_tfrc;

#[test]
fn the_drive_tfrc_example_streams() {
    let bytes = drive_tfrc::run(1);
    assert!(bytes > 50_000, "{bytes} bytes in 1 s over loopback");
}
