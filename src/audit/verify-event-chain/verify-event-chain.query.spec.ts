import { AuditRequestError } from '../audit-query';
import { VerifyEventChainQuery } from './verify-event-chain.use-case';

describe('VerifyEventChainQuery', () => {
  it('reads one table, or every table when tableId is absent or empty', () => {
    expect(VerifyEventChainQuery.create({ tableId: 'ibj-1' })).toEqual({ tableId: 'ibj-1' });
    expect(VerifyEventChainQuery.create({})).toEqual({ tableId: undefined });
    expect(VerifyEventChainQuery.create({ tableId: '' })).toEqual({ tableId: undefined });
  });

  it('refuses a tableId given twice and a parameter it does not read', () => {
    const twice = VerifyEventChainQuery.create({ tableId: ['a', 'b'] });
    expect(twice).toBeInstanceOf(AuditRequestError);
    expect((twice as AuditRequestError).code).toBe('invalid-text');
    const unknown = VerifyEventChainQuery.create({ tableId: 'a', table: 'b' } as object);
    expect(unknown).toBeInstanceOf(AuditRequestError);
    expect((unknown as AuditRequestError).code).toBe('unknown-parameter');
  });
});
