import {
  apiKeyFromAuthorization,
  displayPrefix,
  generateApiKey,
  hashApiKey,
} from './api-key-format';

const basic = (text: string) =>
  `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

describe('generateApiKey', () => {
  it('makes sk_ and 40 base62 characters', () => {
    for (let i = 0; i < 50; i++) {
      expect(generateApiKey()).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    }
  });

  it('never repeats itself', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(
      Array.from({ length: 200 }, generateApiKey)
        .map((k) => k.slice(3))
        .join(''),
    );
    expect(seen.size).toBe(62);
  });

  it('makes keys that apiKeyFromAuthorization reads back', () => {
    const key = generateApiKey();
    expect(apiKeyFromAuthorization(basic(`${key}:`))).toBe(key);
  });
});

describe('hashApiKey and displayPrefix', () => {
  it('hashes with hex SHA-256', () => {
    expect(hashApiKey('sk_demo_boxoffice_1')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashApiKey('sk_a')).not.toBe(hashApiKey('sk_b'));
  });

  it('shows sk_ and four characters, never the secret', () => {
    expect(displayPrefix('sk_AbCdEfGhIj')).toBe('sk_AbCd');
  });
});

describe('apiKeyFromAuthorization', () => {
  const key = 'sk_demo_boxoffice_1';

  it.each([
    ['key and colon', basic(`${key}:`)],
    ['key without colon', basic(key)],
    ['lower-case scheme', basic(`${key}:`).replace('Basic', 'basic')],
    ['upper-case scheme', basic(`${key}:`).replace('Basic', 'BASIC')],
    ['several spaces after the scheme', basic(`${key}:`).replace(' ', '   ')],
    ['a trailing space', `${basic(`${key}:`)} `],
    ['a password, which is ignored', basic(`${key}:secret`)],
  ])('reads the key from %s', (_, header) => {
    expect(apiKeyFromAuthorization(header)).toBe(key);
  });

  it.each([
    ['an empty header', ''],
    ['the Bearer scheme', `Bearer ${key}`],
    [
      'Bearer with a Basic payload',
      basic(`${key}:`).replace('Basic', 'Bearer'),
    ],
    ['the scheme alone', 'Basic'],
    ['the scheme and a space', 'Basic '],
    ['no space after the scheme', basic(`${key}:`).replace(' ', '')],
    ['the key in clear', `Basic ${key}`],
    [
      'base64url characters',
      // Standard base64 `…MTo/Pz4=` with `/` written as `_`: padded, only the alphabet is wrong.
      basic(`${key}:??>`).replace(/\//g, '_'),
    ],
    ['missing padding', basic(`${key}:`).replace(/=+$/, '')],
    ['bad padding', `${basic(`${key}:`).replace(/=+$/, '')}===`],
    ['a length that is not a multiple of 4', `${basic(`${key}:`)}A`],
    ['two tokens', `${basic(`${key}:`)} ${basic(`${key}:`)}`],
    ['an empty user name', basic(':')],
    ['an empty user name with password', basic(`:${key}`)],
    ['nothing encoded', basic('')],
    ['a space in the key', basic('sk_a b:')],
    ['a dash in the key', basic('sk_a-b:')],
    ['a non-ASCII key', basic('sk_é:')],
    ['a key of 201 characters', basic(`${'k'.repeat(201)}:`)],
    ['a leading space', ` ${basic(`${key}:`)}`],
  ])('refuses %s', (_, header) => {
    expect(apiKeyFromAuthorization(header)).toBeNull();
  });

  it('accepts a key of 200 characters', () => {
    const long = `sk_${'k'.repeat(197)}`;
    expect(apiKeyFromAuthorization(basic(`${long}:`))).toBe(long);
  });
});
