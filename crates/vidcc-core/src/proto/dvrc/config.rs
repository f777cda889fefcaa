//! [`DvrcConfig`]: every DVRC parameter, defaulting to the paper's values \[P\] and the DVRC paper
//! page's interpretations \[I\] and defaults \[D\] (`docs/papers/dvrc.md` §1.1). The named
//! alternatives of the DVRC paper page are options here.

use serde::{Deserialize, Serialize};

use crate::estimate::rtt::{DtoMode, PaperEwmaConfig};

/// Which rate Eq. (11)'s condition compares with R̄ − n·D̄ (docs/papers/dvrc.md A7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// \[I\] The measured receiving rate 𝓜 at the moment of loss (the paper's prose and Fig. 3).
    #[default]
    Measured,
    /// \[P\] Eq. (11) as printed: the previous computed rate R(t−1).
    RPrev,
}

/// Unit of α_I and α_D (docs/papers/dvrc.md A5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AlphaUnit {
    /// \[I\] One packet per RTT as a rate: ΔR = α·8·s / EstimatedRTT bit/s per round.
    #[default]
    PacketsPerRtt,
    /// One packet per second: ΔR = α·8·s bit/s per round.
    PacketsPerSecond,
}

/// Form of the deviation equation, paper Eq. (4) (docs/papers/dvrc.md A1); mirrors
/// [`crate::estimate::rtt::DtoMode`] for the configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DtoModeConfig {
    /// \[I\] TCP/Jacobson form.
    #[default]
    TcpLike,
    /// \[P\] as printed.
    PaperLiteral,
}

impl From<DtoModeConfig> for DtoMode {
    fn from(m: DtoModeConfig) -> Self {
        match m {
            DtoModeConfig::TcpLike => DtoMode::TcpLike,
            DtoModeConfig::PaperLiteral => DtoMode::PaperLiteral,
        }
    }
}

/// DVRC parameters (see the module docs of [`super`] for where each comes from).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct DvrcConfig {
    /// γ of Eq. (2), weight of the old EstimatedRTT \[P\] 0.9.
    pub gamma: f64,
    /// δ of Eq. (3) \[P\] 4.
    pub delta: f64,
    /// ε of Eq. (4) \[P\] 0.25.
    pub epsilon: f64,
    /// Form of Eq. (4) \[I\] `tcp_like` (alternative `paper_literal`).
    pub dto_mode: DtoModeConfig,
    /// α_I > 0 \[P, sign per A4\] +1.
    pub alpha_i: f64,
    /// α_D < 0 \[P, sign per A4\] −1.
    pub alpha_d: f64,
    /// β_D ∈ (0, 1) \[P\] 0.5.
    pub beta_d: f64,
    /// n, weight of D̄ in the threshold R̄ − n·D̄ \[P\] 1.5.
    pub n: f64,
    /// Unit of α \[I\] `packets_per_rtt` (alternative `packets_per_second`).
    pub alpha_unit: AlphaUnit,
    /// Rate in Eq. (11)'s condition \[I\] `measured` (alternative `r_prev`).
    pub compare: Compare,
    /// \[D\] Additive decrease never cuts below β_D·R: R ← max(R + α_D, β_D·R). Off.
    pub ad_guard: bool,
    /// \[D\] Gain of the moving average R̄ of the epoch-end rates: 0.125.
    pub rbar_gain: f64,
    /// \[D\] Gain of the average deviation D̄: 0.25.
    pub dbar_gain: f64,
    /// \[D\] Receiving-rate window = max(EstimatedRTT, this): 100 ms.
    pub rate_window_min_ns: u64,
    /// \[D\] RTT the receiver uses before the sender has an estimate (pseudo-code §1.1.8): 100 ms.
    pub rtt_fallback_ns: u64,
    /// \[D\] A3 guard on: DTO_eff = max(DTO, 2·8s/R, `dto_min_ns`).
    pub dto_guard: bool,
    /// \[D\] Floor of the guarded DTO: 200 ms.
    pub dto_min_ns: u64,
    /// \[D\] R ≥ this × c_1 (the base layer is always sent): 1.0.
    pub min_rate_factor: f64,
    /// \[D\] R ≤ this × c_k (full quality): 1.0.
    pub max_rate_factor: f64,
    /// \[I\] Reading (a): the sender sends its K layers at their natural rate (`false`). With
    /// `true`, packets also leave no faster than the receiver's R.
    pub pacing: bool,
}

impl Default for DvrcConfig {
    fn default() -> Self {
        DvrcConfig {
            gamma: 0.9,
            delta: 4.0,
            epsilon: 0.25,
            dto_mode: DtoModeConfig::TcpLike,
            alpha_i: 1.0,
            alpha_d: -1.0,
            beta_d: 0.5,
            n: 1.5,
            alpha_unit: AlphaUnit::PacketsPerRtt,
            compare: Compare::Measured,
            ad_guard: false,
            rbar_gain: 0.125,
            dbar_gain: 0.25,
            rate_window_min_ns: 100_000_000,
            rtt_fallback_ns: 100_000_000,
            dto_guard: true,
            dto_min_ns: 200_000_000,
            min_rate_factor: 1.0,
            max_rate_factor: 1.0,
            pacing: false,
        }
    }
}

impl DvrcConfig {
    /// Checks every field; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        let finite = |name: &str, v: f64| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("dvrc: {name} must be a finite number, got {v}"))
            }
        };
        for (name, v) in [
            ("gamma", self.gamma),
            ("delta", self.delta),
            ("epsilon", self.epsilon),
            ("alpha_i", self.alpha_i),
            ("alpha_d", self.alpha_d),
            ("beta_d", self.beta_d),
            ("n", self.n),
            ("rbar_gain", self.rbar_gain),
            ("dbar_gain", self.dbar_gain),
            ("min_rate_factor", self.min_rate_factor),
            ("max_rate_factor", self.max_rate_factor),
        ] {
            finite(name, v)?;
        }
        let unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(format!("dvrc: {name} must be in [0, 1], got {v}"))
            }
        };
        unit("gamma", self.gamma)?;
        unit("epsilon", self.epsilon)?;
        if !(self.rbar_gain > 0.0 && self.rbar_gain <= 1.0) {
            return Err(format!("dvrc: rbar_gain must be in (0, 1], got {}", self.rbar_gain));
        }
        if !(self.dbar_gain > 0.0 && self.dbar_gain <= 1.0) {
            return Err(format!("dvrc: dbar_gain must be in (0, 1], got {}", self.dbar_gain));
        }
        if self.delta < 0.0 {
            return Err(format!("dvrc: delta must be at least 0, got {}", self.delta));
        }
        // Eq. (8): an increase needs α_I > 0, a decrease α_D < 0 and 0 < β_D < 1.
        if self.alpha_i <= 0.0 {
            return Err(format!("dvrc: alpha_i must be positive (Eq. 8), got {}", self.alpha_i));
        }
        if self.alpha_d >= 0.0 {
            return Err(format!("dvrc: alpha_d must be negative (Eq. 8), got {}", self.alpha_d));
        }
        if !(self.beta_d > 0.0 && self.beta_d < 1.0) {
            return Err(format!("dvrc: beta_d must be in (0, 1), got {}", self.beta_d));
        }
        if self.n < 0.0 {
            return Err(format!("dvrc: n must be at least 0, got {}", self.n));
        }
        if self.rtt_fallback_ns == 0 {
            return Err("dvrc: rtt_fallback_ns must be positive".into());
        }
        if !(self.min_rate_factor > 0.0 && self.min_rate_factor <= 1.0) {
            return Err(format!("dvrc: min_rate_factor must be in (0, 1], got {}", self.min_rate_factor));
        }
        if self.max_rate_factor < 1.0 {
            return Err(format!("dvrc: max_rate_factor must be at least 1, got {}", self.max_rate_factor));
        }
        Ok(())
    }

    /// The RTT estimator's parameters (Eqs. 2–4).
    pub fn rtt_config(&self) -> PaperEwmaConfig {
        PaperEwmaConfig { gamma: self.gamma, delta: self.delta, epsilon: self.epsilon, mode: self.dto_mode.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_and_digests_values() {
        let c = DvrcConfig::default();
        assert_eq!((c.gamma, c.delta, c.epsilon), (0.9, 4.0, 0.25));
        assert_eq!((c.alpha_i, c.alpha_d, c.beta_d, c.n), (1.0, -1.0, 0.5, 1.5));
        assert_eq!(
            (c.compare, c.alpha_unit, c.dto_mode),
            (Compare::Measured, AlphaUnit::PacketsPerRtt, DtoModeConfig::TcpLike)
        );
        assert!(!c.ad_guard && !c.pacing && c.dto_guard);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn validation_names_the_field() {
        let bad = |f: fn(&mut DvrcConfig), field: &str| {
            let mut c = DvrcConfig::default();
            f(&mut c);
            let e = c.validate().unwrap_err();
            assert!(e.contains(field), "{e}");
        };
        bad(|c| c.alpha_i = -1.0, "alpha_i");
        bad(|c| c.alpha_d = 1.0, "alpha_d");
        bad(|c| c.beta_d = 1.0, "beta_d");
        bad(|c| c.n = -0.5, "n must");
        bad(|c| c.gamma = 1.5, "gamma");
        bad(|c| c.epsilon = f64::NAN, "epsilon");
        bad(|c| c.rbar_gain = 0.0, "rbar_gain");
        bad(|c| c.dbar_gain = 2.0, "dbar_gain");
        bad(|c| c.delta = -1.0, "delta");
        bad(|c| c.rtt_fallback_ns = 0, "rtt_fallback_ns");
        bad(|c| c.min_rate_factor = 0.0, "min_rate_factor");
        bad(|c| c.max_rate_factor = 0.5, "max_rate_factor");
    }

    #[test]
    fn deserializes_with_defaults_and_rejects_unknown_keys() {
        let c: DvrcConfig =
            serde_json_like(r#"{"compare":"r_prev","alpha_unit":"packets_per_second","dto_mode":"paper_literal"}"#);
        assert_eq!(c.compare, Compare::RPrev);
        assert_eq!(c.alpha_unit, AlphaUnit::PacketsPerSecond);
        assert_eq!(c.dto_mode, DtoModeConfig::PaperLiteral);
        assert_eq!(c.beta_d, 0.5);
    }

    /// vidcc-core has no JSON dependency; a tiny deserializer over serde's value types is enough
    /// to check field names and enum spellings.
    fn serde_json_like(s: &str) -> DvrcConfig {
        use serde::de::value::{MapDeserializer, StrDeserializer};
        let body = s.trim().trim_start_matches('{').trim_end_matches('}');
        let pairs: Vec<(String, String)> = body
            .split(',')
            .map(|kv| {
                let (k, v) = kv.split_once(':').unwrap();
                (k.trim().trim_matches('"').to_string(), v.trim().trim_matches('"').to_string())
            })
            .collect();
        let de = MapDeserializer::<_, serde::de::value::Error>::new(
            pairs.iter().map(|(k, v)| (StrDeserializer::new(k.as_str()), StrDeserializer::new(v.as_str()))),
        );
        let c = DvrcConfig::deserialize(de).unwrap();
        let unknown = MapDeserializer::<_, serde::de::value::Error>::new(std::iter::once((
            StrDeserializer::<serde::de::value::Error>::new("colour"),
            StrDeserializer::<serde::de::value::Error>::new("red"),
        )));
        assert!(DvrcConfig::deserialize(unknown).is_err());
        c
    }
}
