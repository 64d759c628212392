//! Shared helpers of rmm's integration tests and benchmarks.
//!
//! The README is included below so that its examples are compiled and run as doctests.
#![doc = ""]
#![doc = include_str!("../../README.md")]

use std::path::{Path, PathBuf};

use rmm_mobile::runtime::deps::http::Request;
use rmm_mobile::wire::OperationRequest;
use rmm_mobile::*;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The spec the generated crate is made from.
pub fn spec_path() -> PathBuf {
    root().join("rmm-spec.yaml")
}

/// The echo the reference ASMX service answers: `Op(name=value;…)`, every parameter in wire
/// order, credentials included (see `shared/asmx-reference/README.md`).
pub fn echo<T: OperationRequest>(request: &T, credentials: &Credentials) -> String {
    let values: Vec<String> = request
        .values(credentials)
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("{}({})", T::OPERATION.name(), values.join(";"))
}

/// Decodes `request` as `operation` over `binding` (server side) and returns its echo.
pub fn decode_echo<B: AsRef<[u8]>>(
    operation: Operation,
    binding: Binding,
    request: &Request<B>,
) -> Result<String, RequestError> {
    fn one<T: OperationRequest, B: AsRef<[u8]>>(
        binding: Binding,
        request: &Request<B>,
    ) -> Result<String, RequestError> {
        let (credentials, typed) = T::decode_request(request, binding)?;
        Ok(echo(&typed, &credentials))
    }
    macro_rules! dispatch {
        ($($ty:ident),*) => {
            match operation {
                $(Operation::$ty => one::<$ty, B>(binding, request),)*
            }
        };
    }
    dispatch!(
        MobileTaskCreate,
        MobileServiceOrderCreate,
        MobileItemsServicedCreate,
        MobileContactUpdate,
        MobileAccountJournalUpdate,
        MobilePriceBookQuantityEachLocation,
        MobilePasswordKeeperCreate,
        MobileTaskConflictCheck,
        MobilePartsUsedAssemblyUpdate,
        MobileAccountSearch,
        MobileInvoiceBacktrack,
        MobileContactEmailCreate,
        MobileCustomerInventoryDropdown,
        MobilePhoneNumberDelete,
        MobileServiceOrderRepAssignedDelete,
        MobileServiceOrderRepAssignedList,
        MobileAccountDefaultsList,
        MobileServiceOrderLockCheck,
        MobilePartsUsedPriceLevelSelect,
        MobileGetInvoiceDetails
    )
}
