//! `rmm-fuzz-afl TARGET`: one of rmm-fuzz's targets under AFL++ (`cargo xtask fuzz TARGET`
//! runs it). AFL++'s panic hook turns any panic of the target into a crash it saves.

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(target) = rmm_fuzz::Target::from_name(&name) else {
        eprintln!("usage: rmm-fuzz-afl TARGET (soap_request, form_request, response, handle, spec, objects, shadow, import)");
        std::process::exit(2);
    };
    afl::fuzz!(|data: &[u8]| {
        target.run(data);
    });
}
