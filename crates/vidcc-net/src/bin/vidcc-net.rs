//! `vidcc-net send | recv | link`: the real-network commands. The Python CLI (`vidcc send`,
//! `vidcc recv`, `vidcc link`) resolves scenarios and writes tables around this binary;
//! see docs/real-network.md.
//!
//! Exit codes as every vidcc command: 0 success, 2 bad usage or input (one `error: ...` line),
//! 1 a failure while running (a socket error, no answer from the receiver).

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use vidcc_core::{parse_duration, parse_rate, parse_size, Duration};
use vidcc_net::auth::Key;
use vidcc_net::driver::NoObserver;
use vidcc_net::link::{DirectionSpec, Link, LinkOptions, LossSpec};
use vidcc_net::payload::{Bitstream, PayloadSource};
use vidcc_net::record::tables_json;
use vidcc_net::session::{self, Offer, RecvOptions, Security, SendOptions};
use vidcc_net::socket::Socket;

const USAGE: &str = "usage:
  vidcc-net send --config FILE.json --to HOST:PORT [--bind ADDR] [--max-rate RATE] [--report FILE]
                 [--key-file FILE | --key-env VAR] [--payload-map FRAMES.json] [--plain-copy HOST:PORT]
                 [--feedback-timeout TIME (default 15s)] [--circuit-breaker on|off (default: on unless
                 the protocol is udp, udp-cbr or udp-pareto)] [--realtime (SCHED_FIFO, where permitted)]
                 [--spin-margin TIME (default 40us; busy-wait this long before each departure, at most 1ms)]
  vidcc-net recv --listen HOST:PORT --out FILE.json [--idle 5s] [--wait 60s] [--log ARRIVALS.csv]
                 [--key-file FILE | --key-env VAR] [--max-state SIZE (default 64MB)]
                 [--report-interval TIME (default 1s)]
  vidcc-net link --listen HOST:PORT --to HOST:PORT --bandwidth RATE --delay TIME --queue N|SIZE [--red]
                 [--loss MODEL:k=v,...] [--reverse \"bandwidth=.. delay=.. queue=.. loss=..\"] [--seed N]
                 [--duration TIME] [--stats FILE] [--routes CLIENT=FAR,...] [--protocol-sizes]";

enum Failure {
    Usage(String),
    Run(String),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match run(&args) {
        Ok(()) => 0,
        Err(Failure::Usage(m)) => {
            eprintln!("error: {m}");
            2
        }
        Err(Failure::Run(m)) => {
            eprintln!("error: {m}");
            1
        }
    };
    std::process::exit(code);
}

/// `--name value` options, each at most once; flags listed in `flags` take no value.
struct Opts {
    pairs: Vec<(String, Option<String>)>,
}

impl Opts {
    fn parse(args: &[String], valued: &[&str], flags: &[&str]) -> Result<Opts, Failure> {
        let mut pairs: Vec<(String, Option<String>)> = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let name =
                a.strip_prefix("--").ok_or_else(|| Failure::Usage(format!("unexpected argument {a:?}\n{USAGE}")))?;
            if pairs.iter().any(|(n, _)| n == name) {
                return Err(Failure::Usage(format!("--{name} given twice")));
            }
            if flags.contains(&name) {
                pairs.push((name.into(), None));
            } else if valued.contains(&name) {
                let v = it.next().ok_or_else(|| Failure::Usage(format!("--{name} needs a value")))?;
                pairs.push((name.into(), Some(v.clone())));
            } else {
                return Err(Failure::Usage(format!("unknown option --{name}\n{USAGE}")));
            }
        }
        Ok(Opts { pairs })
    }
    fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }
    fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }
    fn need(&self, name: &str) -> Result<&str, Failure> {
        self.get(name).ok_or_else(|| Failure::Usage(format!("--{name} is required\n{USAGE}")))
    }
}

fn addr(what: &str, s: &str) -> Result<SocketAddr, Failure> {
    s.to_socket_addrs()
        .map_err(|e| Failure::Usage(format!("--{what} {s:?}: {e}")))?
        .next()
        .ok_or_else(|| Failure::Usage(format!("--{what} {s:?}: no address")))
}

fn duration(what: &str, s: &str) -> Result<Duration, Failure> {
    parse_duration(s).map_err(|e| Failure::Usage(format!("--{what}: {e}")))
}

fn security(o: &Opts) -> Result<Security, Failure> {
    let key = match (o.get("key-file"), o.get("key-env")) {
        (Some(_), Some(_)) => return Err(Failure::Usage("give --key-file or --key-env, not both".into())),
        (Some(f), None) => Some(Key::from_file(Path::new(f)).map_err(Failure::Usage)?),
        (None, Some(v)) => Some(Key::from_env(v).map_err(Failure::Usage)?),
        (None, None) => None,
    };
    Ok(Security { key })
}

fn stop_flag() -> Result<Arc<AtomicBool>, Failure> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| Failure::Run(format!("signal handler: {e}")))?;
    }
    Ok(stop)
}

/// Writes through a temporary file and a rename: a reader never sees half a file.
fn write_atomic(path: &Path, text: &str) -> Result<(), Failure> {
    let tmp = PathBuf::from(format!("{}.tmp", path.display()));
    std::fs::write(&tmp, text).map_err(|e| Failure::Run(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| Failure::Run(format!("{}: {e}", path.display())))
}

fn run(args: &[String]) -> Result<(), Failure> {
    let (cmd, rest) = args.split_first().ok_or_else(|| Failure::Usage(USAGE.into()))?;
    match cmd.as_str() {
        "send" => send(rest),
        "recv" => recv(rest),
        "link" => link(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(Failure::Usage(format!("unknown command {other:?}\n{USAGE}"))),
    }
}

fn send(args: &[String]) -> Result<(), Failure> {
    let o = Opts::parse(
        args,
        &[
            "config",
            "to",
            "bind",
            "max-rate",
            "report",
            "key-file",
            "key-env",
            "handshake",
            "payload-map",
            "plain-copy",
            "feedback-timeout",
            "circuit-breaker",
            "spin-margin",
        ],
        &["realtime"],
    )?;
    let path = o.need("config")?;
    let text = std::fs::read_to_string(path).map_err(|e| Failure::Usage(format!("--config {path}: {e}")))?;
    let offer = Offer::from_config_json(&text).map_err(|e| Failure::Usage(format!("{path}: {e}")))?;
    let to = addr("to", o.need("to")?)?;
    let bind = match o.get("bind") {
        Some(b) => addr("bind", b)?,
        None if to.is_ipv4() => "0.0.0.0:0".parse().expect("literal"),
        None => "[::]:0".parse().expect("literal"),
    };
    let max_rate_bps = o
        .get("max-rate")
        .map(|r| parse_rate(r).map(|r| r.as_bps()).map_err(|e| Failure::Usage(format!("--max-rate: {e}"))))
        .transpose()?;
    let handshake_timeout = duration("handshake", o.get("handshake").unwrap_or("10s"))?;
    let payload = match o.get("payload-map") {
        Some(p) => {
            Some(Box::new(Bitstream::from_map_file(Path::new(p)).map_err(Failure::Usage)?) as Box<dyn PayloadSource>)
        }
        None => None,
    };
    let plain_copy = o.get("plain-copy").map(|a| addr("plain-copy", a)).transpose()?;
    let feedback_timeout = o.get("feedback-timeout").map(|t| duration("feedback-timeout", t)).transpose()?;
    let opts = SendOptions {
        to,
        offer,
        security: security(&o)?,
        max_rate_bps,
        handshake_timeout,
        payload,
        plain_copy,
        feedback_timeout,
        circuit_breaker: match o.get("circuit-breaker") {
            None => None,
            Some("on") => Some(true),
            Some("off") => Some(false),
            Some(v) => return Err(Failure::Usage(format!("--circuit-breaker {v:?}: expected on or off"))),
        },
    };
    let spin_margin = o.get("spin-margin").map(|t| duration("spin-margin", t)).transpose()?;
    if let Some(m) = spin_margin.filter(|m| *m > Duration::from_millis(1)) {
        return Err(Failure::Usage(format!(
            "--spin-margin {m}: at most 1ms (the sender busy-waits that long per departure)"
        )));
    }
    let mut socket = Socket::bind(bind).map_err(|e| Failure::Run(format!("bind {bind}: {e}")))?;
    if let Some(m) = spin_margin {
        socket.set_spin_margin(m);
    }
    if o.has("realtime") {
        vidcc_net::clock::request_realtime(10).map_err(|e| Failure::Run(format!("--realtime: {e}")))?;
    }
    let stop = stop_flag()?;
    let report = session::run_sender(socket, opts, &stop, &mut NoObserver).map_err(Failure::Run)?;
    let text = serde_json::to_string_pretty(&report).expect("serialisable");
    match o.get("report") {
        Some(p) => write_atomic(Path::new(p), &text)?,
        None => eprintln!("{text}"),
    }
    Ok(())
}

fn recv(args: &[String]) -> Result<(), Failure> {
    let o = Opts::parse(
        args,
        &["listen", "out", "idle", "wait", "log", "key-file", "key-env", "max-state", "report-interval"],
        &[],
    )?;
    let listen = addr("listen", o.need("listen")?)?;
    let out = PathBuf::from(o.need("out")?);
    let opts = RecvOptions {
        security: security(&o)?,
        idle: duration("idle", o.get("idle").unwrap_or("5s"))?,
        wait_for_offer: o.get("wait").map(|w| duration("wait", w)).transpose()?,
        log: o.get("log").map(PathBuf::from),
        max_state_bytes: o
            .get("max-state")
            .map(|v| parse_size(v).map(|d| d.as_bytes()).map_err(|e| Failure::Usage(format!("--max-state {v:?}: {e}"))))
            .transpose()?,
        report_interval: o.get("report-interval").map(|t| duration("report-interval", t)).transpose()?,
    };
    let socket = Socket::bind(listen).map_err(|e| Failure::Run(format!("bind {listen}: {e}")))?;
    let stop = stop_flag()?;
    let Some(r) = session::run_receiver(socket, opts, &stop).map_err(Failure::Run)? else {
        return Err(Failure::Run("no session: stopped before any sender arrived".into()));
    };
    let doc = serde_json::json!({
        "offer": r.offer,
        "peer": r.peer.to_string(),
        "listen": listen.to_string(),
        "counters": r.counters,
        "rejected": r.counters.rejected(),
        "end_ns": r.end_ns,
        "ended_by": r.ended_by,
        "tables": tables_json(&r.tables),
    });
    write_atomic(&out, &serde_json::to_string(&doc).expect("serialisable"))
}

fn link(args: &[String]) -> Result<(), Failure> {
    let o = Opts::parse(
        args,
        &["listen", "to", "bandwidth", "delay", "queue", "loss", "reverse", "seed", "duration", "stats", "routes"],
        &["red", "protocol-sizes"],
    )?;
    let forward = DirectionSpec {
        bandwidth: parse_rate(o.need("bandwidth")?).map_err(|e| Failure::Usage(format!("--bandwidth: {e}")))?,
        delay: duration("delay", o.need("delay")?)?,
        limit: DirectionSpec::parse_limit(o.need("queue")?).map_err(Failure::Usage)?,
        red: o.has("red"),
        loss: o.get("loss").map(LossSpec::parse).transpose().map_err(Failure::Usage)?,
    };
    if forward.bandwidth.as_bps() == 0 {
        return Err(Failure::Usage("--bandwidth must be positive".into()));
    }
    let reverse = forward.with_overrides(o.get("reverse").unwrap_or("")).map_err(Failure::Usage)?;
    let seed = o
        .get("seed")
        .map_or(Ok(1), |s| s.parse().map_err(|_| Failure::Usage(format!("--seed {s:?}: not an integer"))))?;
    let opts = LinkOptions {
        listen: addr("listen", o.need("listen")?)?,
        to: addr("to", o.need("to")?)?,
        forward,
        reverse,
        seed,
        protocol_sizes: o.has("protocol-sizes"),
        routes: match o.get("routes") {
            None => Vec::new(),
            Some(r) => r
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|pair| {
                    let (c, f) = pair
                        .split_once('=')
                        .ok_or_else(|| Failure::Usage(format!("--routes: expected CLIENT=FAR, got {pair:?}")))?;
                    Ok((addr("routes", c.trim())?, addr("routes", f.trim())?))
                })
                .collect::<Result<_, Failure>>()?,
        },
    };
    let dur = o.get("duration").map(|d| duration("duration", d)).transpose()?;
    let mut l = Link::bind(&opts).map_err(Failure::Run)?;
    let stop = stop_flag()?;
    let stats = l.run(&stop, dur).map_err(Failure::Run)?;
    let text = serde_json::to_string_pretty(&stats).expect("serialisable");
    match o.get("stats") {
        Some(p) => write_atomic(Path::new(p), &text)?,
        None => eprintln!("{text}"),
    }
    Ok(())
}
