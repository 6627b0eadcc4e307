import { isTypedText, loadCommonPasswords, PasswordPolicy } from './password-policy';

describe('password policy', () => {
  const policy = new PasswordPolicy();

  it('ships a list of a few thousand common passwords', () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThan(5_000);
    expect(list.has('password1234')).toBe(true);
  });

  it('needs 12 characters (code points, not UTF-16 units) and refuses common ones, any case', () => {
    expect(policy.problem('12345678')).toBe('too-short');
    expect(policy.problem('😀😀😀😀😀😀')).toBe('too-short'); // 12 UTF-16 units, 6 characters
    expect(policy.problem('PassWord1234')).toBe('common');
    expect(policy.problem('111111111111')).toBe('common');
    expect(policy.problem('x'.repeat(257))).toBe('too-long');
    expect(policy.problem('floor-manager-7', 'Floor-Manager-7')).toBe('same-as-username');
    expect(policy.problem('Tr1cky-Casino-Floor', 'croupier')).toBeUndefined();
  });

  it('takes only text a person could type', () => {
    expect(isTypedText('dealer-demo')).toBe(true);
    expect(isTypedText('Ünïcödé 😀')).toBe(true);
    expect(isTypedText('dealer\u0000')).toBe(false);
    expect(isTypedText('tab\there')).toBe(false);
    expect(isTypedText('lone \ud800 high')).toBe(false);
    expect(isTypedText('\udc00 lone low')).toBe(false);
  });
});
