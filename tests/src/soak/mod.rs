//! The soak and hostile-client bench's parts (`benches/soak.rs`): a raw HTTP/1.1 client
//! ([`http1`]), the requests and their expected answers ([`mix`]), the long mixed load
//! ([`load`]), the server in its own process ([`process`]), slow clients ([`slow`]),
//! vanishing and pipelining clients ([`hostile`]), latency figures ([`stats`]) and the
//! report ([`report`]).

pub mod hostile;
pub mod http1;
pub mod load;
pub mod mix;
pub mod process;
pub mod report;
pub mod slow;
pub mod stats;
