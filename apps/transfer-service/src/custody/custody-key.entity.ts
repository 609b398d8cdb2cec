import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Public parts in the clear; the key material sealed under CUSTODY_MASTER_KEY (libs/custody). */
@Entity({ schema: 'transfers', name: 'custody_keys' })
export class CustodyKeyEntity {
  @PrimaryColumn({ type: 'text', name: 'account_id' })
  accountId!: string;

  @PrimaryColumn({ type: 'text' })
  environment!: string;

  @Column({ type: 'text', name: 'owner_address' })
  ownerAddress!: string;

  @Column({ type: 'text', name: 'elgamal_pubkey' })
  elgamalPubkey!: string;

  @Column({ type: 'text', name: 'sealed_keys' })
  sealedKeys!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
