import { describe, expect, it } from 'vitest';
import { truncateText } from '../../src/meta/json-text.ts';
import { redactSecrets } from '../../src/meta/redact.ts';

describe('redactSecrets', () => {
  it('redacts secret members at any depth and in any case, keeping the rest', () => {
    expect(
      redactSecrets({
        login: 'ana',
        Code: 'c1',
        nested: [{ 'X-AppKey': 'k1', deeper: { password: 'p1', authorization: 'Basic x' } }],
        'user[code]': 'c2',
        'user.code': 'c3',
        count: 3,
        none: null,
      }),
    ).toEqual({
      login: 'ana',
      Code: '[redacted]',
      nested: [{ 'X-AppKey': '[redacted]', deeper: { password: '[redacted]', authorization: '[redacted]' } }],
      'user[code]': '[redacted]',
      'user.code': '[redacted]',
      count: 3,
      none: null,
    });
  });

  it('redacts members named a secret with stray spaces or control characters, and no others', () => {
    expect(
      redactSecrets({ 'code ': 'c1', ' Password': 'p1', 'code\u0000': 'c2', 'x-appkey\t': 'k1' }),
    ).toEqual({
      'code ': '[redacted]',
      ' Password': '[redacted]',
      'code\u0000': '[redacted]',
      'x-appkey\t': '[redacted]',
    });
    const plain = { postcode: '98125', barcode: 'b', access_code: 'a', 'x-code': 'x', codes: 2 };
    expect(redactSecrets(plain)).toEqual(plain);
  });

  it('redacts JSON held in strings, and leaves other strings alone', () => {
    expect(
      redactSecrets({ text: '{"code":"c1","a":1}', list: '[{"cookie":"s"}]', plain: '{not json' }),
    ).toEqual({
      text: '{"code":"[redacted]","a":1}',
      list: '[{"cookie":"[redacted]"}]',
      plain: '{not json',
    });
  });

  it('redacts secrets in text that is not JSON: JSON cut short, query strings, header lines', () => {
    expect(
      redactSecrets({
        cut: '{"login":"ana","code":"s3cret-1","x-appkey": 42, "next": "{\\"password\\":\\"p',
        query: '/management/users/auth?login=ana&code=s3cret-2&page=1',
        headers: 'Authorization: Basic YW5hOnMzY3JldA==\nX-AppKey: s3cret-3\nAccept: */*',
        prose: 'Call 555-0100 and give the code word; see code=of-conduct in the handbook',
      }),
    ).toEqual({
      cut: '{"login":"ana","code":"[redacted]","x-appkey": "[redacted]", "next": "{\\"password\\":\\"p',
      query: '/management/users/auth?login=ana&code=[redacted]&page=1',
      headers: 'Authorization: [redacted]\nX-AppKey: [redacted]\nAccept: */*',
      prose: 'Call 555-0100 and give the code word; see code=[redacted] in the handbook',
    });
  });

  it('redacts a member named with JSON escapes in JSON cut short, and a parameter written with spaces', () => {
    expect(
      redactSecrets({
        escaped: '{"\\u0063ode":"s3cret-1", ',
        partly: '[{"co\\u0064e":"s3cret-2"}',
        spaced: 'code = s3cret-3; CODE\t=s3cret-4',
        other: '{"\\u006eame":"Ana", ',
      }),
    ).toEqual({
      escaped: '{"\\u0063ode":"[redacted]", ',
      partly: '[{"co\\u0064e":"[redacted]"}',
      spaced: 'code=[redacted]; CODE=[redacted]',
      other: '{"\\u006eame":"Ana", ',
    });
  });

  it('redacts a query string percent-encoded inside another, up to three times, keeping it decoded', () => {
    expect(
      redactSecrets({
        next: '/auth?next=%2Fusers%3Flogin%3Dana%26code%3Ds3cret-1',
        twice: 'next%3D%252Fusers%253Fcode%253Ds3cret-2',
        plain: 'city=Seattle%20WA&postcode=98125',
        stray: 'code word 100% sure',
        url: 'next=/users?code=s3cret-3',
      }),
    ).toEqual({
      next: '/auth?next=/users?login=ana&code=[redacted]',
      twice: 'next=/users?code=[redacted]',
      plain: 'city=Seattle%20WA&postcode=98125',
      stray: 'code word 100% sure',
      url: 'next=/users?code=[redacted]',
    });
    // Encoded over and over (thousands of times), it is looked through three times only, at once.
    const deep = `code%${'25'.repeat(8000)}3Ds3cret`;
    expect(redactSecrets(deep)).toBe(deep);
  });
});

describe('truncateText', () => {
  it('keeps text within the limit as it is', () => {
    expect(truncateText('{"a":1}', 7)).toBe('{"a":1}');
  });

  it('cuts at the limit in bytes, never inside a character, and marks the cut', () => {
    expect(truncateText('abcdef', 4)).toBe('abcd…[truncated]');
    // 'é' is two bytes: a limit falling inside it keeps the text before it.
    expect(truncateText('aé', 2)).toBe('a…[truncated]');
    expect(truncateText('aéb', 3)).toBe('aé…[truncated]');
    expect(truncateText('abc', 0)).toBe('…[truncated]');
  });
});
