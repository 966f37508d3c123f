//! Tests of the expression internals (plans).
