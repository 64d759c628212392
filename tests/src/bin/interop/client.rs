//! The generated client against each server: all 20 operations × 4 bindings with the
//! sample values, then the error cases (a fault, a type error, a missing parameter) on each
//! binding. Holds the per-operation dispatch ([`encode`], the client's own method for each
//! operation) and the error cases, which the fidelity section and the recorder reuse.

use std::sync::Arc;
use std::time::Duration;

use rmm_mobile::runtime::client::ReqwestTransport;
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::Request;
use rmm_mobile::wire::OperationResponse;
use rmm_mobile::*;
use rmm_tests::samples::{echo_of, sample};
use rmm_tests::{spec_operation, typed_sample};

use crate::mutation::{Mutating, Mutation};
use crate::{Checks, Target};

// ---------------------------------------------------------------------------------------------
// Per-operation dispatch: the generated client's own method for each operation

macro_rules! every_operation {
    ($($method:ident: $ty:ident,)*) => {
        /// Calls `op` with the sample `pairs` through the generated client's method for it.
        async fn client_call(
            base: &str,
            transport: Mutating,
            binding: Binding,
            op: Operation,
            pairs: &[(String, String)],
        ) -> Result<Option<String>, CallError> {
            match op {
                $(Operation::$ty => {
                    let (credentials, request) = typed_sample::<$ty>(pairs);
                    let client = MobileServiceClient::new(base, StaticSigner(credentials))
                        .with_binding(binding)
                        .with_transport(transport)
                        .with_timeout(Some(Duration::from_secs(60)));
                    client
                        .$method(&request)
                        .await
                        .map(|r| r.result().clone())
                })*
            }
        }

        /// The request the generated client sends for `op` with the sample `pairs`.
        pub(crate) fn encode(op: Operation, pairs: &[(String, String)], binding: Binding) -> Result<Request<Bytes>, EncodeError> {
            match op {
                $(Operation::$ty => {
                    let (credentials, request) = typed_sample::<$ty>(pairs);
                    request.encode_request(&credentials, binding)
                })*
            }
        }
    };
}

rmm_mobile::for_each_operation!(every_operation);

/// The sample of `op` for `binding` (salt as in `tests/tests/client.rs`).
pub(crate) fn pairs_for(op: Operation, binding: Binding) -> Vec<(String, String)> {
    let salt = Binding::ALL.iter().position(|b| *b == binding).unwrap() + 1;
    sample(&spec_operation(op.name()), salt)
}

// ---------------------------------------------------------------------------------------------
// The error cases

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ErrorCase {
    Fault,
    TypeError,
    Missing,
}

pub(crate) const ERROR_CASES: [ErrorCase; 3] =
    [ErrorCase::Fault, ErrorCase::TypeError, ErrorCase::Missing];

/// The marker value of `sonumber` that the type error and missing cases rewrite.
const MARKER: &str = "424242";

impl ErrorCase {
    pub(crate) fn label(self) -> &'static str {
        match self {
            ErrorCase::Fault => "fault (FAULT)",
            ErrorCase::TypeError => "type error (int sonumber=abc)",
            ErrorCase::Missing => "missing parameter (sonumber)",
        }
    }

    pub(crate) fn operation(self) -> Operation {
        match self {
            ErrorCase::Fault => Operation::MobileAccountSearch,
            _ => Operation::MobileServiceOrderLockCheck,
        }
    }

    pub(crate) fn pairs(self) -> Vec<(String, String)> {
        let op = spec_operation(self.operation().name());
        let mut pairs = sample(&op, 0);
        for (name, value) in &mut pairs {
            match (self, name.as_str()) {
                (ErrorCase::Fault, "accountname") => *value = "FAULT".into(),
                (ErrorCase::Fault, _) if value.is_empty() => *value = "x".into(),
                (_, "sonumber") => *value = MARKER.into(),
                _ => {}
            }
        }
        pairs
    }

    pub(crate) fn mutation(self) -> Mutation {
        match self {
            ErrorCase::Fault => Mutation::None,
            ErrorCase::TypeError => Mutation::Replace {
                param: "sonumber",
                from: MARKER,
                to: "abc",
            },
            ErrorCase::Missing => Mutation::Remove {
                param: "sonumber",
                value: MARKER,
            },
        }
    }

    /// Checks the generated client's outcome against what an ASMX host answers.
    fn expect(
        self,
        binding: Binding,
        outcome: &Result<Option<String>, CallError>,
    ) -> Result<(), String> {
        let pairs = self.pairs();
        let op = self.operation().name();
        let bad = || Err(format!("unexpected outcome {outcome:?}"));
        match (self, binding.is_soap(), outcome) {
            (
                ErrorCase::Fault,
                true,
                Err(CallError::Response(ResponseError::Fault { fault, .. })),
            ) => {
                if fault.code == FaultCode::Client && fault.reason == "requested fault" {
                    Ok(())
                } else {
                    Err(format!(
                        "fault {:?} {:?}, want Client \"requested fault\"",
                        fault.code, fault.reason
                    ))
                }
            }
            (
                ErrorCase::Fault,
                false,
                Err(CallError::Response(ResponseError::ErrorBody { message, .. })),
            ) => {
                if message == "requested fault" {
                    Ok(())
                } else {
                    Err(format!("error body {message:?}, want \"requested fault\""))
                }
            }
            (
                ErrorCase::TypeError,
                true,
                Err(CallError::Response(ResponseError::Fault { fault, .. })),
            ) => {
                if fault.code == FaultCode::Client {
                    Ok(())
                } else {
                    Err(format!("fault code {:?}, want Client", fault.code))
                }
            }
            // Over SOAP an absent element takes its default, on the host as on ours.
            (ErrorCase::Missing, true, Ok(result)) => {
                let defaulted: Vec<(String, String)> = pairs
                    .iter()
                    .map(|(n, v)| {
                        (
                            n.clone(),
                            if n == "sonumber" {
                                "0".into()
                            } else {
                                v.clone()
                            },
                        )
                    })
                    .collect();
                let want = echo_of(op, &defaulted);
                if result.as_deref() == Some(want.as_str()) {
                    Ok(())
                } else {
                    Err(format!(
                        "result {result:?}, want {want:?} (absent int defaults to 0)"
                    ))
                }
            }
            (
                ErrorCase::TypeError | ErrorCase::Missing,
                false,
                Err(CallError::Response(ResponseError::ErrorBody { .. })),
            ) => Ok(()),
            _ => bad(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The section

pub(crate) async fn client_section(
    checks: &mut Checks,
    target: &Target,
    transport: &Arc<ReqwestTransport>,
) {
    checks.section(&format!(
        "generated client -> {} ({}): 20 operations x 4 bindings, then the error cases",
        target.label, target.base
    ));
    for binding in Binding::ALL {
        for op in Operation::ALL {
            let pairs = pairs_for(op, binding);
            let plain = Mutating {
                inner: transport.clone(),
                mutation: Mutation::None,
            };
            let outcome = client_call(&target.base, plain, binding, op, &pairs).await;
            let mut want = echo_of(op.name(), &pairs);
            if target.label == "Mono" {
                // The host writes a CR of a result raw; XML readers read it as LF (EXPLAIN_CR).
                want = want.replace("\r\n", "\n").replace('\r', "\n");
            }
            let result = match outcome {
                Ok(Some(got)) if got == want => Ok(()),
                Ok(got) => Err(format!("result {got:?}\n     want {want:?}")),
                Err(e) => Err(e.to_string()),
            };
            checks.check(
                &format!("client {} {} over {binding}", target.label, op.name()),
                result,
            );
        }
    }
    for binding in Binding::ALL {
        for case in ERROR_CASES {
            let transport = Mutating {
                inner: transport.clone(),
                mutation: case.mutation(),
            };
            let outcome = client_call(
                &target.base,
                transport,
                binding,
                case.operation(),
                &case.pairs(),
            )
            .await;
            checks.check(
                &format!("client {} {} over {binding}", target.label, case.label()),
                case.expect(binding, &outcome),
            );
        }
    }
}
