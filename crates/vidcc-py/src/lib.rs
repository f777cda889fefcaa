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

#[pymodule]
fn _vidcc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse_rate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(parse_trace, m)?)?;
    m.add_function(wrap_pyfunction!(parse_gop, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    Ok(())
}
