//! CI check: verifies proofs written by tools/check-proofs.mjs (every kind the service generates,
//! from both proof engines) with solana-zk-sdk's verifier, the code the on-chain ZK ElGamal proof
//! program runs. A dependency change that made proofs this verifier rejects fails the build.
//! Usage: cts-zk-verifier <dir>; each file is `<kind>.<engine>.bin`.
use solana_zk_elgamal_proof_interface::proof_data::{
    BatchedGroupedCiphertext3HandlesValidityProofData, BatchedRangeProofU128Data,
    BatchedRangeProofU64Data, CiphertextCommitmentEqualityProofData, PubkeyValidityProofData,
    ZeroCiphertextProofData,
};
use solana_zk_sdk::zk_elgamal_proof_program::VerifyZkProof;
use std::process::ExitCode;

const KINDS: [&str; 6] = [
    "pubkey-validity",
    "zero-ciphertext",
    "ciphertext-commitment-equality",
    "batched-grouped-ciphertext-3-handles-validity",
    "batched-range-u64",
    "batched-range-u128",
];

fn verify_as<T: bytemuck::Pod + VerifyZkProof>(data: &[u8]) -> Result<(), String> {
    if data.len() != std::mem::size_of::<T>() {
        return Err(format!(
            "{} bytes, expected {}",
            data.len(),
            std::mem::size_of::<T>()
        ));
    }
    bytemuck::pod_read_unaligned::<T>(data)
        .verify_proof()
        .map_err(|error| format!("{error:?}"))
}

fn verify(kind: &str, data: &[u8]) -> Result<(), String> {
    match kind {
        "pubkey-validity" => verify_as::<PubkeyValidityProofData>(data),
        "zero-ciphertext" => verify_as::<ZeroCiphertextProofData>(data),
        "ciphertext-commitment-equality" => {
            verify_as::<CiphertextCommitmentEqualityProofData>(data)
        }
        "batched-grouped-ciphertext-3-handles-validity" => {
            verify_as::<BatchedGroupedCiphertext3HandlesValidityProofData>(data)
        }
        "batched-range-u64" => verify_as::<BatchedRangeProofU64Data>(data),
        "batched-range-u128" => verify_as::<BatchedRangeProofU128Data>(data),
        other => Err(format!("unknown proof kind {other}")),
    }
}

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: cts-zk-verifier <dir of <kind>.<engine>.bin files>");
        return ExitCode::from(2);
    };
    let mut files: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect(),
        Err(error) => {
            eprintln!("cannot read {dir}: {error}");
            return ExitCode::from(2);
        }
    };
    files.sort();
    let (mut passed, mut failed) = (0, 0);
    let mut seen = std::collections::BTreeSet::new();
    for path in files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "bin"))
    {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let kind = name.split('.').next().unwrap_or_default().to_string();
        let outcome = std::fs::read(path)
            .map_err(|error| error.to_string())
            .and_then(|data| verify(&kind, &data));
        match outcome {
            Ok(()) => {
                passed += 1;
                seen.insert(kind);
                println!("ok      {name}");
            }
            Err(reason) => {
                failed += 1;
                println!("REJECTED {name}: {reason}");
            }
        }
    }
    for kind in KINDS.iter().filter(|kind| !seen.contains(**kind)) {
        failed += 1;
        println!("MISSING {kind}: no verified proof of this kind");
    }
    println!("solana-zk-sdk 8.1.0 verifier: {passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
