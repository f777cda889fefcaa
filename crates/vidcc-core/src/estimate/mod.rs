//! Shared estimators, written once and used by every protocol that needs them.
