import { duplicateKeyOf } from './duplicate-keys';

describe('duplicateKeyOf', () => {
  it.each([
    ['{"amount":1000,"amount":2000}', '/amount'],
    ['{"a":1,"b":{"x":1,"x":2}}', '/b/x'],
    ['{"a":[{"k":1},{"k":2,"k":3}]}', '/a/1/k'],
    ['{"amount":1,"\\u0061mount":2}', '/amount'],
    ['{"sideBets":{"pairs":1,"pairs":2}}', '/sideBets/pairs'],
    ['{"a/b~c":1,"a/b~c":1}', '/a~1b~0c'],
  ])('finds the repeated name in %s at %s', (text, pointer) => {
    expect(duplicateKeyOf(text)).toBe(pointer);
  });

  it.each([
    '{"amount":1000,"currency":"EUR"}',
    '{"a":{"k":1},"b":{"k":1}}',
    '[{"k":1},{"k":1}]',
    '{"s":"{\\"k\\":1,\\"k\\":2}","t":"\\\\"}',
    '{"k":["k","k"],"j":{"k":"k"}}',
    '',
    'not json {"a":1,',
    '{"a":1,"b":"unterminated',
  ])('finds none in %j (or leaves a broken body to the parser)', (text) => {
    expect(duplicateKeyOf(text)).toBeUndefined();
  });

  it('walks deep nesting without recursion', () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    expect(duplicateKeyOf(deep)).toBeUndefined();
  });
});
