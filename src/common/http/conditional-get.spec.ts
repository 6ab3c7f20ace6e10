import express from 'express';
import type { Request } from 'express';
import { ifNoneMatchMatches, useValidatorFreshness } from './conditional-get';

const TAG = '"2s-1a2b3c"';

describe('ifNoneMatchMatches', () => {
  it.each([
    ['the same tag', TAG],
    ['the weak form of it', `W/${TAG}`],
    ['a list holding it', `"other", ${TAG}`],
    ['a list holding its weak form', `W/"other",W/${TAG}`],
    ['a list with extra whitespace and empty elements', ` ,\t"x" ,, ${TAG} , `],
    ['*', '*'],
    ['* with whitespace', ' * '],
  ])('matches %s', (_, value) => {
    expect(ifNoneMatchMatches(value, TAG)).toBe(true);
  });

  it('compares weakly when the response tag is weak', () => {
    expect(ifNoneMatchMatches(TAG, `W/${TAG}`)).toBe(true);
    expect(ifNoneMatchMatches(`W/${TAG}`, `W/${TAG}`)).toBe(true);
  });

  it('reads a tag that holds a comma as one tag', () => {
    expect(ifNoneMatchMatches('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchMatches('"a,b"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('"a,b"', '"b"')).toBe(false);
  });

  it.each([
    ['another tag', '"other"'],
    ['a list without it', '"a", "b"'],
    ['the tag without quotes', TAG.slice(1, -1)],
    ['a lower-case weak prefix', `w/${TAG}`],
    ['two tags without a comma', `"a" ${TAG}`],
    ['a list with * in it', `*, ${TAG}`],
    ['an unterminated tag', `${TAG}, "oops`],
    ['an empty value', ''],
    ['only commas', ' , '],
  ])('does not match %s', (_, value) => {
    expect(ifNoneMatchMatches(value, TAG)).toBe(false);
  });

  it('compares the part that stands for the bytes, whatever data version a tag was read at', () => {
    expect(ifNoneMatchMatches('"2s-1a2b3c.old"', '"2s-1a2b3c.new"')).toBe(true);
    expect(ifNoneMatchMatches(TAG, '"2s-1a2b3c.new"')).toBe(true);
    expect(ifNoneMatchMatches('W/"2s-1a2b3c.old"', TAG)).toBe(true);
    expect(ifNoneMatchMatches('"2s-1a2b3d.new"', '"2s-1a2b3c.new"')).toBe(
      false,
    );
  });

  it('matches nothing without an If-None-Match or without a response tag', () => {
    expect(ifNoneMatchMatches(undefined, TAG)).toBe(false);
    expect(ifNoneMatchMatches('*', undefined)).toBe(false);
    expect(ifNoneMatchMatches(TAG, '')).toBe(false);
  });
});

describe('useValidatorFreshness', () => {
  const app = express();
  useValidatorFreshness(app);

  /** A request of `app` with these headers and a response in this state. */
  function freshness(
    method: string,
    headers: Record<string, string>,
    status: number,
    etag?: string,
  ): boolean {
    const res = {
      statusCode: status,
      getHeader: (name: string) => (name === 'ETag' ? etag : undefined),
    };
    const req = Object.create(app.request as object) as Request;
    Object.assign(req, { method, headers, res });
    return req.fresh;
  }

  it('is fresh when If-None-Match matches, whatever Cache-Control and Pragma say', () => {
    const headers = {
      'if-none-match': TAG,
      'cache-control': 'no-cache',
      pragma: 'no-cache',
    };
    expect(freshness('GET', headers, 200, TAG)).toBe(true);
    expect(freshness('HEAD', headers, 200, TAG)).toBe(true);
  });

  it('is not fresh for other methods, for non-2xx statuses, or without a match', () => {
    const headers = { 'if-none-match': TAG };
    expect(freshness('POST', headers, 200, TAG)).toBe(false);
    expect(freshness('GET', headers, 404, TAG)).toBe(false);
    expect(freshness('GET', headers, 200, '"other"')).toBe(false);
    expect(freshness('GET', {}, 200, TAG)).toBe(false);
  });

  it('ignores If-Modified-Since (no response carries Last-Modified)', () => {
    const headers = { 'if-modified-since': new Date().toUTCString() };
    expect(freshness('GET', headers, 200, TAG)).toBe(false);
  });

  it('leaves the requests of other Express apps alone', () => {
    const other = express();
    const req = Object.create(other.request as object) as Request;
    Object.assign(req, {
      method: 'GET',
      headers: { 'if-none-match': TAG, 'cache-control': 'no-cache' },
      res: { statusCode: 200, get: () => TAG },
    });
    expect(req.fresh).toBe(false);
  });
});
