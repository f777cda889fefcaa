//! Python bindings: the only crate that knows about PyO3. Thin: it converts, releases the GIL,
//! calls vidcc-sim, and hands columnar results back as numpy arrays.

use numpy::PyArray1;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use vidcc_sim::metrics::Column;
use vidcc_sim::SimError;

/// `"10Mbps"` → 10_000_000 (bit/s). Raises ValueError naming the input and what was expected.
#[pyfunction]
fn parse_rate(s: &str) -> PyResult<u64> {
    vidcc_core::parse_rate(s).map(|r| r.as_bps()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `"35ms"` → 35_000_000 (ns).
#[pyfunction]
fn parse_duration(s: &str) -> PyResult<u64> {
    vidcc_core::parse_duration(s).map(|d| d.as_nanos()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `"64KB"` → 64_000 (bytes).
#[pyfunction]
fn parse_size(s: &str) -> PyResult<u64> {
    vidcc_core::parse_size(s).map(|d| d.as_bytes()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Parses a frame-size trace (`"evalvid"` or `"plain"`); returns its frame count. Raises
/// ValueError naming the line.
#[pyfunction]
fn parse_trace(text: &str, format: &str) -> PyResult<usize> {
    use vidcc_core::media::trace::{Trace, TraceFormat};
    let format = match format {
        "evalvid" => TraceFormat::Evalvid,
        "plain" => TraceFormat::Plain,
        other => {
            return Err(PyValueError::new_err(format!("unknown trace format {other:?}; expected evalvid or plain")))
        }
    };
    Trace::parse(text, format).map(|t| t.len()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Validates a GOP pattern (`"IBBPBBPBBPBB"`); returns its length.
#[pyfunction]
fn parse_gop(s: &str) -> PyResult<usize> {
    vidcc_core::media::gop::GopPattern::parse(s).map(|g| g.len()).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Every protocol a flow may name, in the registry's order (vidcc-core `proto::registry`).
#[pyfunction]
fn protocol_names() -> Vec<&'static str> {
    vidcc_core::proto::registry::PROTOCOLS.to_vec()
}

fn unknown_protocol(name: &str) -> PyErr {
    let known = vidcc_core::proto::registry::PROTOCOLS.join(", ");
    PyValueError::new_err(format!("unknown protocol {name:?}; expected one of: {known}"))
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py)?,
            (None, Some(i)) => i.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(a) => {
            PyList::new(py, a.iter().map(|x| json_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// The default configuration of protocol `name` in the resolved form (base units, the fields of
/// its Rust config, with `kind`). Fields the schema requires (a CBR flow's `rate_bps`) hold a
/// placeholder. Raises ValueError for an unknown protocol.
#[pyfunction]
fn protocol_defaults<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let config = vidcc_core::proto::registry::defaults(name).ok_or_else(|| unknown_protocol(name))?;
    let value = serde_json::to_value(&config).map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_to_py(py, &value)
}

/// Bytes of protocol `name`'s data header. Raises ValueError for an unknown protocol.
#[pyfunction]
fn protocol_header_bytes(name: &str) -> PyResult<usize> {
    vidcc_core::proto::registry::header_bytes(name).ok_or_else(|| unknown_protocol(name))
}

/// Whether protocol `name`'s flows have one receiver (`"unicast"`) or any number
/// (`"multicast"`). Raises ValueError for an unknown protocol.
#[pyfunction]
fn protocol_reach(name: &str) -> PyResult<&'static str> {
    let config = vidcc_core::proto::registry::defaults(name).ok_or_else(|| unknown_protocol(name))?;
    Ok(match config.reach() {
        vidcc_core::proto::registry::Reach::Unicast => "unicast",
        vidcc_core::proto::registry::Reach::Multicast => "multicast",
    })
}

/// SRAMT's own numbers for its paper's unit-level claims (C01–C03, C05–C07, C29):
/// `{name: value}` from `vidcc_core::proto::sramt::claims::unit_measurements`.
#[pyfunction]
fn sramt_unit_measurements() -> std::collections::BTreeMap<String, f64> {
    vidcc_core::proto::sramt::claims::unit_measurements().into_iter().collect()
}

/// SSVP's own numbers for its paper's unit-level claims (C3, C4, C6) and the TFRC sanity claim
/// C22: `{name: value}` from `vidcc_core::proto::ssvp::claims::unit_measurements`.
#[pyfunction]
fn ssvp_unit_measurements() -> std::collections::BTreeMap<String, f64> {
    vidcc_core::proto::ssvp::claims::unit_measurements().into_iter().collect()
}

fn column<'py>(py: Python<'py>, c: Column) -> PyResult<Bound<'py, PyAny>> {
    Ok(match c {
        Column::U64(v) => PyArray1::from_vec(py, v).into_any(),
        Column::I64(v) => PyArray1::from_vec(py, v).into_any(),
        Column::F64(v) => PyArray1::from_vec(py, v).into_any(),
        Column::Bool(v) => PyArray1::from_vec(py, v).into_any(),
        Column::Str(v) => PyList::new(py, v)?.into_any(),
    })
}

/// Runs one simulation from a resolved configuration (JSON, see `vidcc-sim/src/config.rs`).
///
/// The GIL is released while the simulator runs; `progress(fraction)` is called about every 1 %
/// of simulated time (with the GIL held briefly). Ctrl-C stops the run with KeyboardInterrupt.
/// Returns `{"tables": {name: {column: ndarray | list[str]}}, "stats": {...}}`.
#[pyfunction]
#[pyo3(signature = (config_json, progress=None))]
fn simulate<'py>(py: Python<'py>, config_json: &str, progress: Option<PyObject>) -> PyResult<Bound<'py, PyDict>> {
    let json = config_json.to_owned();
    // The exception that stopped the run (a signal handler's KeyboardInterrupt, or whatever the
    // progress callback raised), re-raised as is once the run has unwound.
    let mut stopped_by: Option<PyErr> = None;
    let result = py.allow_threads(|| {
        let mut report = |fraction: f64| -> bool {
            Python::with_gil(|py| {
                let outcome = py.check_signals().and_then(|_| match &progress {
                    Some(cb) => cb.call1(py, (fraction,)).map(|_| ()),
                    None => Ok(()),
                });
                match outcome {
                    Ok(()) => true,
                    Err(e) => {
                        stopped_by = Some(e);
                        false
                    }
                }
            })
        };
        vidcc_sim::run_json(&json, &mut report)
    });
    let out = match result {
        Ok(out) => out,
        Err(SimError::Config(e)) => return Err(PyValueError::new_err(e.to_string())),
        Err(SimError::Interrupted) => {
            return Err(stopped_by.unwrap_or_else(|| PyKeyboardInterrupt::new_err("simulation interrupted")))
        }
    };
    let tables = PyDict::new(py);
    for t in out.tables {
        let cols = PyDict::new(py);
        for (name, c) in t.columns {
            cols.set_item(name, column(py, c)?)?;
        }
        tables.set_item(t.name, cols)?;
    }
    let stats = PyDict::new(py);
    stats.set_item("events", out.stats.events)?;
    stats.set_item("packets_delivered", out.stats.packets_delivered)?;
    stats.set_item("bottleneck_packets", out.stats.bottleneck_packets)?;
    let d = PyDict::new(py);
    d.set_item("tables", tables)?;
    d.set_item("stats", stats)?;
    Ok(d)
}

/// QoS-AIMD cross-layer parameter selection (vidcc-core `proto::qos_aimd::model::select`):
/// W_max (one flow) or the eq. (4) windows (several), the BS buffer, α from β by eq. (10), and
/// the model's predictions. `rtt_slots` has one entry per flow; `burst_slots` switches from an
/// i.i.d. channel to a Gilbert channel with that mean bad burst. Raises ValueError on
/// out-of-range inputs.
#[pyfunction]
#[pyo3(signature = (error_rate, rtt_slots, delay_bound, outage_target=0.01, beta=0.875, burst_slots=None, shares=None, rounding="nearest"))]
#[allow(clippy::too_many_arguments)]
fn qos_aimd_select<'py>(
    py: Python<'py>,
    error_rate: f64,
    rtt_slots: Vec<u32>,
    delay_bound: u32,
    outage_target: f64,
    beta: f64,
    burst_slots: Option<f64>,
    shares: Option<Vec<f64>>,
    rounding: &str,
) -> PyResult<Bound<'py, PyDict>> {
    use vidcc_core::proto::qos_aimd::model::{select, Channel, Rounding, SelectRequest};
    let err = |e: String| PyValueError::new_err(e);
    let channel = match burst_slots {
        None => Channel::Iid { error_rate },
        Some(b) => Channel::Gilbert { error_rate, mean_burst_slots: b },
    };
    let req = SelectRequest {
        channel,
        rtt_slots: rtt_slots.clone(),
        shares,
        delay_bound_slots: delay_bound,
        outage_target,
        beta,
        rounding: Rounding::parse(rounding).map_err(err)?,
    };
    let s = py.allow_threads(|| select(&req)).map_err(err)?;
    let d = PyDict::new(py);
    d.set_item("channel", if burst_slots.is_some() { "gilbert" } else { "iid" })?;
    d.set_item("error_rate", s.error_rate)?;
    d.set_item("burst_slots", burst_slots)?;
    d.set_item("rtt_slots", rtt_slots)?;
    d.set_item("delay_bound_slots", delay_bound)?;
    d.set_item("outage_target", outage_target)?;
    d.set_item("rounding", req.rounding.name())?;
    d.set_item("alpha", s.alpha)?;
    d.set_item("beta", s.beta)?;
    d.set_item("windows", s.windows)?;
    d.set_item("exact_windows", s.exact_windows)?;
    d.set_item("shares", s.shares)?;
    d.set_item("max_window_sum", s.max_window_sum)?;
    d.set_item("window_sum", s.window_sum)?;
    d.set_item("buffer_packets", s.buffer_packets)?;
    d.set_item("outage", s.outage)?;
    d.set_item("outage_next", s.outage_next)?;
    d.set_item("overflow_loss", s.overflow_loss)?;
    d.set_item("throughput_pkt_per_slot", s.throughput_pkt_per_slot)?;
    d.set_item("full_utilization", s.full_utilization)?;
    d.set_item("wired_loss_window", s.wired_loss_window)?;
    Ok(d)
}

type F64Array<'py> = Bound<'py, PyArray1<f64>>;

/// PSNR (dB, capped at 100) and SSIM (8×8 windows every 4 samples) of each frame of a batch of
/// 8-bit Y planes, shape (n, height, width), C-contiguous (vidcc-core `media::quality`).
/// `ssim_constants` is `"wang"` (Wang et al.'s C1, C2) or `"ffmpeg"` (FFmpeg's `ssim` filter).
/// The GIL is released while the frames are scored. Returns two float64 arrays of length n.
#[pyfunction]
#[pyo3(signature = (reference, test, ssim_constants="wang"))]
fn psnr_ssim<'py>(
    py: Python<'py>,
    reference: numpy::PyReadonlyArray3<'py, u8>,
    test: numpy::PyReadonlyArray3<'py, u8>,
    ssim_constants: &str,
) -> PyResult<(F64Array<'py>, F64Array<'py>)> {
    use numpy::PyUntypedArrayMethods;
    use vidcc_core::media::quality::{batch_quality, SsimConstants};
    let constants = SsimConstants::parse(ssim_constants).map_err(PyValueError::new_err)?;
    let (shape, test_shape) = (reference.shape().to_vec(), test.shape().to_vec());
    if shape != test_shape {
        return Err(PyValueError::new_err(format!("frames differ in shape: {shape:?} vs {test_shape:?}")));
    }
    let contiguous = |which: &str| PyValueError::new_err(format!("psnr_ssim: {which} frames must be C-contiguous"));
    let a = reference.as_slice().map_err(|_| contiguous("reference"))?;
    let b = test.as_slice().map_err(|_| contiguous("test"))?;
    let scores = py
        .allow_threads(|| batch_quality(a, b, shape[0], shape[2], shape[1], constants))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let psnr = scores.iter().map(|q| q.psnr_db).collect();
    let ssim = scores.iter().map(|q| q.ssim).collect();
    Ok((PyArray1::from_vec(py, psnr), PyArray1::from_vec(py, ssim)))
}

#[pymodule]
fn _vidcc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse_rate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(parse_trace, m)?)?;
    m.add_function(wrap_pyfunction!(parse_gop, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_names, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_reach, m)?)?;
    m.add_function(wrap_pyfunction!(protocol_header_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(qos_aimd_select, m)?)?;
    m.add_function(wrap_pyfunction!(sramt_unit_measurements, m)?)?;
    m.add_function(wrap_pyfunction!(ssvp_unit_measurements, m)?)?;
    m.add_function(wrap_pyfunction!(psnr_ssim, m)?)?;
    Ok(())
}
