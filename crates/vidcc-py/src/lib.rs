//! Python bindings: the only crate that knows about PyO3. Thin: it converts, releases the GIL,
//! calls vidcc-sim, and hands columnar results back as numpy arrays.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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

#[pymodule]
fn _vidcc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse_rate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    Ok(())
}
