//! Proofs for the confidential-transfer instructions of Token-2022, built and verified by
//! solana-zk-sdk natively. Inputs and outputs are plain bytes (the same layouts the on-chain program
//! reads), so this engine and the WebAssembly one are interchangeable behind one TypeScript interface.
mod proofs;
mod verify;

use napi::bindgen_prelude::{BigInt, Buffer, Uint8Array};
use napi::{Error, Result, Status};
use napi_derive::napi;

use proofs::{TransferInput, WithdrawInput};
use verify::{verify, ProofKind};

#[napi(object)]
pub struct TransferProofs {
    pub equality: Buffer,
    pub ciphertext_validity: Buffer,
    pub range: Buffer,
    pub auditor_ciphertext_lo: Buffer,
    pub auditor_ciphertext_hi: Buffer,
}

#[napi(object)]
pub struct WithdrawProofs {
    pub equality: Buffer,
    pub range: Buffer,
}

fn invalid(message: impl ToString) -> Error {
    Error::new(Status::InvalidArg, message.to_string())
}

fn u64_of(name: &str, value: BigInt) -> Result<u64> {
    match value.get_u64() {
        (false, amount, true) => Ok(amount),
        _ => Err(invalid(format!("{name} must be a u64"))),
    }
}

/// solana-zk-sdk's version and the curve arithmetic in use, for the log line that says which engine runs.
#[napi]
pub fn engine_version() -> String {
    format!("solana-zk-sdk 8.1.0, {}", curve_backend())
}

/// The backend curve25519-dalek picks on this CPU (its own rule: AVX-512 IFMA needs a nightly build).
fn curve_backend() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if cfg!(nightly_rustc)
            && std::arch::is_x86_feature_detected!("avx512ifma")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            return "AVX-512 IFMA";
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return "AVX2";
        }
    }
    "portable"
}

#[napi]
pub fn pubkey_validity_proof(elgamal_secret: Uint8Array) -> Result<Buffer> {
    proofs::pubkey_validity(&elgamal_secret)
        .map(Buffer::from)
        .map_err(invalid)
}

#[napi]
pub fn zero_ciphertext_proof(elgamal_secret: Uint8Array, ciphertext: Uint8Array) -> Result<Buffer> {
    proofs::zero_ciphertext(&elgamal_secret, &ciphertext)
        .map(Buffer::from)
        .map_err(invalid)
}

#[napi]
pub fn transfer_proofs(
    elgamal_secret: Uint8Array,
    available_balance: Uint8Array,
    new_available: BigInt,
    amount: BigInt,
    destination_pubkey: Uint8Array,
    auditor_pubkey: Uint8Array,
) -> Result<TransferProofs> {
    let input = TransferInput {
        elgamal_secret: &elgamal_secret,
        available_balance: &available_balance,
        new_available: u64_of("newAvailable", new_available)?,
        amount: u64_of("amount", amount)?,
        destination_pubkey: &destination_pubkey,
        auditor_pubkey: &auditor_pubkey,
    };
    let built = proofs::transfer(&input).map_err(invalid)?;
    Ok(TransferProofs {
        equality: built.equality.into(),
        ciphertext_validity: built.ciphertext_validity.into(),
        range: built.range.into(),
        auditor_ciphertext_lo: built.auditor_ciphertext_lo.into(),
        auditor_ciphertext_hi: built.auditor_ciphertext_hi.into(),
    })
}

#[napi]
pub fn withdraw_proofs(
    elgamal_secret: Uint8Array,
    available_balance: Uint8Array,
    new_available: BigInt,
    amount: BigInt,
) -> Result<WithdrawProofs> {
    let input = WithdrawInput {
        elgamal_secret: &elgamal_secret,
        available_balance: &available_balance,
        new_available: u64_of("newAvailable", new_available)?,
        amount: u64_of("amount", amount)?,
    };
    let built = proofs::withdraw(&input).map_err(invalid)?;
    Ok(WithdrawProofs {
        equality: built.equality.into(),
        range: built.range.into(),
    })
}

/// The 32-bit amount `ciphertext` holds under the secret's key (a discrete log); null when it holds
/// none (another key, or more than 32 bits).
#[napi]
pub fn decrypt_u32(elgamal_secret: Uint8Array, ciphertext: Uint8Array) -> Result<Option<BigInt>> {
    proofs::decrypt_u32(&elgamal_secret, &ciphertext)
        .map(|amount| amount.map(BigInt::from))
        .map_err(invalid)
}

/// True when `data` is a proof of `kind` that solana-zk-sdk's verifier accepts.
#[napi]
pub fn verify_proof(kind: String, data: Uint8Array) -> Result<bool> {
    let kind =
        ProofKind::parse(&kind).ok_or_else(|| invalid(format!("unknown proof kind {kind}")))?;
    Ok(verify(kind, &data))
}
