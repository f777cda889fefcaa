//! TCP agents in the ns-2 one-way style.
