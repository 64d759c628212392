//! Generates the Greeter service's code (`rmm-spec.yaml`) into `OUT_DIR`, for `src/lib.rs` to
//! include: a mistake in the spec fails the build with its `file:line:col`.

fn main() {
    rmm_codegen::Builder::spec("rmm-spec.yaml").generate_or_exit();
}
