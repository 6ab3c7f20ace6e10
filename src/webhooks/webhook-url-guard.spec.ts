import {
  MAX_WEBHOOK_URL_LENGTH,
  isRefusedAddress,
  refuseUrlHost,
  refuseUrlText,
  refuseWebhookUrl,
} from './webhook-url-guard';

describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // IPv4 inside IPv6: IPv4-compatible, NAT64 (the metadata address), 6to4, Teredo; site-local.
    '::a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fec0::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe('refuseWebhookUrl', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    () =>
      Promise.resolve(addresses);
  const never = () => Promise.reject(new Error('no lookup expected'));

  it('allows https to a host of public addresses only', async () => {
    expect(
      await refuseWebhookUrl(
        'https://hooks.example.com/x',
        false,
        resolvesTo('93.184.215.14'),
      ),
    ).toBeNull();
  });

  it('refuses a host with any private address among its public ones (DNS rebinding at save)', async () => {
    expect(
      await refuseWebhookUrl(
        'https://hooks.example.com/x',
        false,
        resolvesTo('93.184.215.14', '10.0.0.5'),
      ),
    ).toMatch(/hooks\.example\.com is a loopback, private/);
  });

  it('refuses http, other schemes, credentials and over-long URLs without a lookup', async () => {
    expect(await refuseWebhookUrl('http://example.com/', false, never)).toBe(
      'url must be an https:// URL',
    );
    expect(await refuseWebhookUrl('ftp://example.com/', true, never)).toBe(
      'url must be an https:// or http:// URL',
    );
    expect(await refuseWebhookUrl('not a url', false, never)).toBe(
      'url must be an absolute https:// URL',
    );
    expect(
      await refuseWebhookUrl('https://a:b@example.com/', false, never),
    ).toBe('url must not carry a user name or password');
    const long = `https://example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`;
    expect(await refuseWebhookUrl(long, false, never)).toBe(
      'url must be at most 2048 characters',
    );
  });

  it('refuses a host that does not resolve', async () => {
    expect(
      await refuseWebhookUrl('https://nowhere.invalid/', false, () =>
        Promise.reject(new Error('ENOTFOUND')),
      ),
    ).toBe("url's host nowhere.invalid does not resolve");
  });

  it('reads IP literals in any spelling as the address they are, without a lookup', async () => {
    for (const url of [
      'https://0x7f.1/',
      'https://2130706433/',
      'https://[0:0:0:0:0:0:0:1]/',
    ]) {
      expect(await refuseWebhookUrl(url, false, never)).toMatch(
        /is a loopback, private/,
      );
    }
  });

  it('reads the text alone first, the host apart (a write looks its host up only when it runs)', async () => {
    // The text's refusals need no lookup; a private host's URL passes the text.
    expect(refuseUrlText('http://example.com/', false)).toBe(
      'url must be an https:// URL',
    );
    expect(refuseUrlText('https://localhost/x', false)).toBeNull();
    expect(
      await refuseUrlHost('https://hooks.example.com/x', false, resolvesTo()),
    ).toBe("url's host hooks.example.com does not resolve");
    expect(
      await refuseUrlHost('https://hooks.example.com/x', true, never),
    ).toBeNull();
  });

  it('allows http and private addresses where the operator allows private URLs', async () => {
    expect(
      await refuseWebhookUrl('http://127.0.0.1:8080/x', true, never),
    ).toBeNull();
  });
});
