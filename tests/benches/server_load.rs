//! Placeholder: the server load benchmark (see the closing note of issue 3).
fn main() {}
