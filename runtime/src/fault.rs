//! SOAP faults, version-neutral.

/// The code of a SOAP fault, named once for both versions: SOAP 1.1 writes `soap:Client` where
/// SOAP 1.2 writes `soap:Sender`, and `soap:Server` where 1.2 writes `soap:Receiver`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FaultCode {
    /// The request was wrong (`soap:Client` / `soap:Sender`).
    Client,
    /// The service failed (`soap:Server` / `soap:Receiver`).
    Server,
    /// A `mustUnderstand` header was not understood (`soap:MustUnderstand`).
    MustUnderstand,
    /// The envelope's version is not the binding's (`soap:VersionMismatch`).
    VersionMismatch,
    /// Any other code, as received (qualified name text).
    Other(String),
}

impl FaultCode {
    /// The local part of the code on the given SOAP version (`Client` or `Sender`, …).
    pub fn local_name(&self, soap12: bool) -> &str {
        match (self, soap12) {
            (FaultCode::Client, false) => "Client",
            (FaultCode::Client, true) => "Sender",
            (FaultCode::Server, false) => "Server",
            (FaultCode::Server, true) => "Receiver",
            (FaultCode::MustUnderstand, _) => "MustUnderstand",
            (FaultCode::VersionMismatch, _) => "VersionMismatch",
            (FaultCode::Other(text), _) => text,
        }
    }

    /// Reads the local part of a received code (either version's spelling).
    pub fn from_local_name(local: &str) -> FaultCode {
        match local {
            "Client" | "Sender" => FaultCode::Client,
            "Server" | "Receiver" => FaultCode::Server,
            "MustUnderstand" => FaultCode::MustUnderstand,
            "VersionMismatch" => FaultCode::VersionMismatch,
            other => FaultCode::Other(other.to_owned()),
        }
    }
}

/// A SOAP fault: what a handler returns to refuse a call, and what a client receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Who is to blame.
    pub code: FaultCode,
    /// The human-readable reason (`faultstring` / `soap:Reason/soap:Text`).
    pub reason: String,
    /// The text of `detail` / `soap:Detail`: `Some("")` for the empty `<detail />` an ASMX
    /// host puts on faults raised by an operation or while reading its parameters, `None`
    /// for the faults it raises before that (mustUnderstand), which carry no detail element.
    pub detail: Option<String>,
}

impl Fault {
    /// A fault blaming the caller, with the empty detail an operation's faults carry.
    pub fn client(reason: impl Into<String>) -> Fault {
        Fault {
            code: FaultCode::Client,
            reason: reason.into(),
            detail: Some(String::new()),
        }
    }

    /// A fault blaming the service, with the empty detail an operation's faults carry.
    pub fn server(reason: impl Into<String>) -> Fault {
        Fault {
            code: FaultCode::Server,
            reason: reason.into(),
            detail: Some(String::new()),
        }
    }

    /// The fault an ASMX host answers when its web method throws an exception whose message
    /// is `message` (`throw new DivideByZeroException()`: `Attempted to divide by zero.`): a
    /// Server fault reading `Server was unable to process request. ---> {message}`, as
    /// ASP.NET wraps the exception in a `SoapException` (.NET Framework and Mono alike). What a
    /// replacement returns where the legacy method threw, so that its clients see the same.
    pub fn exception(message: impl AsRef<str>) -> Fault {
        Fault::server(format!(
            "Server was unable to process request. ---> {}",
            message.as_ref()
        ))
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.local_name(false), self.reason)?;
        if let Some(detail) = self.detail.as_deref().filter(|d| !d.is_empty()) {
            write!(f, " (detail: {detail})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}
