use solana_zk_elgamal_proof_interface::proof_data::{
    BatchedGroupedCiphertext3HandlesValidityProofData, BatchedRangeProofU128Data,
    BatchedRangeProofU64Data, CiphertextCommitmentEqualityProofData, PubkeyValidityProofData,
    ZeroCiphertextProofData,
};
use solana_zk_sdk::zk_elgamal_proof_program::VerifyZkProof;

/// The proof kinds the service generates, named as the TypeScript engine interface names them.
#[derive(Clone, Copy)]
pub enum ProofKind {
    PubkeyValidity,
    ZeroCiphertext,
    CiphertextCommitmentEquality,
    BatchedGroupedCiphertext3HandlesValidity,
    BatchedRangeU64,
    BatchedRangeU128,
}

impl ProofKind {
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "pubkey-validity" => Self::PubkeyValidity,
            "zero-ciphertext" => Self::ZeroCiphertext,
            "ciphertext-commitment-equality" => Self::CiphertextCommitmentEquality,
            "batched-grouped-ciphertext-3-handles-validity" => {
                Self::BatchedGroupedCiphertext3HandlesValidity
            }
            "batched-range-u64" => Self::BatchedRangeU64,
            "batched-range-u128" => Self::BatchedRangeU128,
            _ => return None,
        })
    }
}

fn verify_as<T: bytemuck::Pod + VerifyZkProof>(data: &[u8]) -> bool {
    data.len() == std::mem::size_of::<T>()
        && bytemuck::pod_read_unaligned::<T>(data)
            .verify_proof()
            .is_ok()
}

pub fn verify(kind: ProofKind, data: &[u8]) -> bool {
    match kind {
        ProofKind::PubkeyValidity => verify_as::<PubkeyValidityProofData>(data),
        ProofKind::ZeroCiphertext => verify_as::<ZeroCiphertextProofData>(data),
        ProofKind::CiphertextCommitmentEquality => {
            verify_as::<CiphertextCommitmentEqualityProofData>(data)
        }
        ProofKind::BatchedGroupedCiphertext3HandlesValidity => {
            verify_as::<BatchedGroupedCiphertext3HandlesValidityProofData>(data)
        }
        ProofKind::BatchedRangeU64 => verify_as::<BatchedRangeProofU64Data>(data),
        ProofKind::BatchedRangeU128 => verify_as::<BatchedRangeProofU128Data>(data),
    }
}
