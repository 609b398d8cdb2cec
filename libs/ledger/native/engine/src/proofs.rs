//! The proofs of Token-2022's ConfigureAccount, Transfer and Withdraw, computed as
//! @solana-program/token-2022's instruction-plan helpers compute them (same splits, bit lengths,
//! padding and handle order), so the on-chain program accepts either engine's output.
use solana_zk_sdk::encryption::elgamal::{
    ElGamalCiphertext, ElGamalKeypair, ElGamalPubkey, ElGamalSecretKey,
};
use solana_zk_sdk::encryption::grouped_elgamal::GroupedElGamal;
use solana_zk_sdk::encryption::pedersen::{Pedersen, PedersenOpening};
use solana_zk_sdk::zk_elgamal_proof_program::{
    build_batched_grouped_ciphertext_3_handles_validity_proof_data,
    build_batched_range_proof_u128_data, build_batched_range_proof_u64_data,
    build_ciphertext_commitment_equality_proof_data, build_pubkey_validity_proof_data,
    build_zero_ciphertext_proof_data,
};

/// The transfer amount is encrypted as a 16-bit low half and a 32-bit high half.
const TRANSFER_AMOUNT_LO_BITS: u32 = 16;
const TRANSFER_AMOUNT_HI_BITS: u64 = 32;
const REMAINING_BALANCE_BITS: usize = 64;
/// The u128 batched range proof needs bit lengths summing to 128: 64 + 16 + 32 + a 16-bit zero.
const RANGE_PADDING_BITS: usize = 16;

pub struct TransferInput<'a> {
    pub elgamal_secret: &'a [u8],
    /// The source account's available-balance ciphertext (64 bytes) as the ledger holds it.
    pub available_balance: &'a [u8],
    /// The available balance after the transfer, decrypted from the AE balance by the caller.
    pub new_available: u64,
    pub amount: u64,
    pub destination_pubkey: &'a [u8],
    /// All zeros when the mint has no auditor (the zero key, as token-2022 encodes it).
    pub auditor_pubkey: &'a [u8],
}

pub struct TransferProofBytes {
    pub equality: Vec<u8>,
    pub ciphertext_validity: Vec<u8>,
    pub range: Vec<u8>,
    pub auditor_ciphertext_lo: Vec<u8>,
    pub auditor_ciphertext_hi: Vec<u8>,
}

pub struct WithdrawInput<'a> {
    pub elgamal_secret: &'a [u8],
    pub available_balance: &'a [u8],
    pub new_available: u64,
    pub amount: u64,
}

pub struct WithdrawProofBytes {
    pub equality: Vec<u8>,
    pub range: Vec<u8>,
}

fn keypair(secret: &[u8]) -> Result<ElGamalKeypair, String> {
    ElGamalSecretKey::try_from(secret)
        .map(ElGamalKeypair::new)
        .map_err(|_| "the ElGamal secret is not a canonical 32-byte scalar".to_string())
}

fn pubkey(name: &str, bytes: &[u8]) -> Result<ElGamalPubkey, String> {
    ElGamalPubkey::try_from(bytes).map_err(|_| format!("{name} is not an ElGamal public key"))
}

fn ciphertext(name: &str, bytes: &[u8]) -> Result<ElGamalCiphertext, String> {
    ElGamalCiphertext::from_bytes(bytes)
        .ok_or_else(|| format!("{name} is not an ElGamal ciphertext"))
}

fn failed(
    what: &str,
) -> impl Fn(solana_zk_sdk::zk_elgamal_proof_program::errors::ProofGenerationError) -> String + '_ {
    move |error| format!("{what} proof: {error}")
}

pub fn pubkey_validity(secret: &[u8]) -> Result<Vec<u8>, String> {
    let data =
        build_pubkey_validity_proof_data(&keypair(secret)?).map_err(failed("pubkey validity"))?;
    Ok(bytemuck::bytes_of(&data).to_vec())
}

pub fn zero_ciphertext(secret: &[u8], ciphertext_bytes: &[u8]) -> Result<Vec<u8>, String> {
    let data = build_zero_ciphertext_proof_data(
        &keypair(secret)?,
        &ciphertext("ciphertext", ciphertext_bytes)?,
    )
    .map_err(failed("zero ciphertext"))?;
    Ok(bytemuck::bytes_of(&data).to_vec())
}

pub fn transfer(input: &TransferInput) -> Result<TransferProofBytes, String> {
    let source = keypair(input.elgamal_secret)?;
    let destination = pubkey("the destination key", input.destination_pubkey)?;
    let auditor = pubkey("the auditor key", input.auditor_pubkey)?;
    let available = ciphertext("the available balance", input.available_balance)?;
    let amount_lo = input.amount & ((1 << TRANSFER_AMOUNT_LO_BITS) - 1);
    let amount_hi = input.amount >> TRANSFER_AMOUNT_LO_BITS;
    if amount_hi >> TRANSFER_AMOUNT_HI_BITS != 0 {
        return Err("a confidential transfer amount must fit in 48 bits".to_string());
    }

    let keys = [source.pubkey(), &destination, &auditor];
    let (opening_lo, opening_hi) = (PedersenOpening::new_rand(), PedersenOpening::new_rand());
    let grouped_lo = GroupedElGamal::encrypt_with(keys, amount_lo, &opening_lo);
    let grouped_hi = GroupedElGamal::encrypt_with(keys, amount_hi, &opening_hi);
    let handle =
        |grouped: &solana_zk_sdk::encryption::grouped_elgamal::GroupedElGamalCiphertext<3>,
         index| {
            grouped
                .to_elgamal_ciphertext(index)
                .map_err(|error| error.to_string())
        };
    let (source_lo, source_hi) = (handle(&grouped_lo, 0)?, handle(&grouped_hi, 0)?);
    let (auditor_lo, auditor_hi) = (handle(&grouped_lo, 2)?, handle(&grouped_hi, 2)?);

    // new available = available − (lo + hi·2^16), homomorphically, as the program computes it.
    let transferred = &source_lo + &(&source_hi * &(1u64 << TRANSFER_AMOUNT_LO_BITS));
    let new_available_ciphertext = &available - &transferred;
    let new_available_opening = PedersenOpening::new_rand();
    let new_available_commitment = Pedersen::with(input.new_available, &new_available_opening);

    let equality = build_ciphertext_commitment_equality_proof_data(
        &source,
        &new_available_ciphertext,
        &new_available_commitment,
        &new_available_opening,
        input.new_available,
    )
    .map_err(failed("equality"))?;
    let validity = build_batched_grouped_ciphertext_3_handles_validity_proof_data(
        source.pubkey(),
        &destination,
        &auditor,
        &grouped_lo,
        &grouped_hi,
        amount_lo,
        amount_hi,
        &opening_lo,
        &opening_hi,
    )
    .map_err(failed("ciphertext validity"))?;
    let (padding_commitment, padding_opening) = Pedersen::new(0u64);
    let range = build_batched_range_proof_u128_data(
        vec![
            &new_available_commitment,
            &grouped_lo.commitment,
            &grouped_hi.commitment,
            &padding_commitment,
        ],
        vec![input.new_available, amount_lo, amount_hi, 0],
        vec![
            REMAINING_BALANCE_BITS,
            TRANSFER_AMOUNT_LO_BITS as usize,
            TRANSFER_AMOUNT_HI_BITS as usize,
            RANGE_PADDING_BITS,
        ],
        vec![
            &new_available_opening,
            &opening_lo,
            &opening_hi,
            &padding_opening,
        ],
    )
    .map_err(failed("range"))?;

    Ok(TransferProofBytes {
        equality: bytemuck::bytes_of(&equality).to_vec(),
        ciphertext_validity: bytemuck::bytes_of(&validity).to_vec(),
        range: bytemuck::bytes_of(&range).to_vec(),
        auditor_ciphertext_lo: auditor_lo.to_bytes().to_vec(),
        auditor_ciphertext_hi: auditor_hi.to_bytes().to_vec(),
    })
}

pub fn withdraw(input: &WithdrawInput) -> Result<WithdrawProofBytes, String> {
    let keypair = keypair(input.elgamal_secret)?;
    let remaining =
        ciphertext("the available balance", input.available_balance)?.subtract_amount(input.amount);
    let opening = PedersenOpening::new_rand();
    let commitment = Pedersen::with(input.new_available, &opening);
    let equality = build_ciphertext_commitment_equality_proof_data(
        &keypair,
        &remaining,
        &commitment,
        &opening,
        input.new_available,
    )
    .map_err(failed("equality"))?;
    let range = build_batched_range_proof_u64_data(
        vec![&commitment],
        vec![input.new_available],
        vec![REMAINING_BALANCE_BITS],
        vec![&opening],
    )
    .map_err(failed("range"))?;
    Ok(WithdrawProofBytes {
        equality: bytemuck::bytes_of(&equality).to_vec(),
        range: bytemuck::bytes_of(&range).to_vec(),
    })
}

/// The amount a ciphertext holds when it fits 32 bits (a discrete log: how a pending balance's two
/// halves are read). None when it does not open under this key or exceeds 32 bits.
pub fn decrypt_u32(secret: &[u8], ciphertext_bytes: &[u8]) -> Result<Option<u64>, String> {
    let keypair = keypair(secret)?;
    let ciphertext = ciphertext("ciphertext", ciphertext_bytes)?;
    Ok(keypair.secret().decrypt_u32(&ciphertext))
}
