import { isTransientFailure } from './transient-failure';

describe('isTransientFailure', () => {
  it('recognises a database that is down or restarting, also wrapped by TypeORM', () => {
    expect(
      isTransientFailure(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(isTransientFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isTransientFailure({
        message: 'query failed',
        driverError: { code: '57P01', message: 'terminating connection due to administrator command' },
      }),
    ).toBe(true);
    expect(isTransientFailure(new Error('outer', { cause: { code: '57P03' } }))).toBe(true);
    expect(
      isTransientFailure(
        Object.assign(new Error('Query runner already released'), {
          name: 'QueryRunnerAlreadyReleasedError',
        }),
      ),
    ).toBe(true);
  });

  it('leaves real failures alone', () => {
    expect(isTransientFailure(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isTransientFailure({ driverError: { code: '23505' } })).toBe(false);
    expect(isTransientFailure(undefined)).toBe(false);
  });
});
