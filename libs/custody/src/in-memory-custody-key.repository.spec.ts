import { CustodyError } from './custody-error';
import { InMemoryCustodyKeyRepository } from './in-memory-custody-key.repository';

const record = {
  accountId: 'acct_1',
  environment: 'test' as const,
  ownerAddress: 'owner',
  elgamalPubkey: 'pk',
  sealedKeys: 's1.x',
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
};

describe('InMemoryCustodyKeyRepository', () => {
  it('finds a saved record by account and environment only', async () => {
    const repository = new InMemoryCustodyKeyRepository();
    await repository.save(record);
    expect(await repository.find('acct_1', 'test')).toEqual(record);
    expect(await repository.find('acct_1', 'live')).toBeUndefined();
    expect(await repository.find('acct_2', 'test')).toBeUndefined();
  });

  it('never replaces existing keys', async () => {
    const repository = new InMemoryCustodyKeyRepository();
    await repository.save(record);
    await expect(repository.save({ ...record, sealedKeys: 's1.other' })).rejects.toMatchObject({
      code: 'keys_already_exist',
    });
    await expect(repository.save(record)).rejects.toBeInstanceOf(CustodyError);
    expect((await repository.find('acct_1', 'test'))?.sealedKeys).toBe('s1.x');
  });

  it('hands out copies, so callers cannot change stored rows', async () => {
    const repository = new InMemoryCustodyKeyRepository();
    await repository.save(record);
    const found = await repository.find('acct_1', 'test');
    if (found) {
      found.sealedKeys = 'changed';
    }
    expect((await repository.find('acct_1', 'test'))?.sealedKeys).toBe('s1.x');
  });
});
