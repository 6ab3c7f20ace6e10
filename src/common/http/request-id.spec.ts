import type { NextFunction, Request, Response } from 'express';
import { requestIdFor, requestIdMiddleware } from './request-id';

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it.each([
    'abc',
    'req-123',
    'a1b2c3d4-e5f6-4711-8899-aabbccddeeff',
    '01J9ZQK3V6M8X4T2R7N5B0C1DE',
    'trace.span_42',
    '-',
    'x'.repeat(64),
  ])('keeps the sane id %s', (id) => {
    expect(requestIdFor(id)).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(65)],
    ['a space', 'two words'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['a CR LF pair', 'a\r\nSet-Cookie: x'],
    ['non-ASCII', 'idé'],
    ['quotes', '"id"'],
    ['angle brackets', '<id>'],
    ['a semicolon', 'a;b'],
    ['a tilde', 'abc~1'],
    ['braces', '{0f8fad5b-d9cb-469f-a165-70867728950e}'],
    ['a slash and an equals sign', 'trace/id=42'],
    ['a colon and an at sign', 'trace.id:42@host'],
    ['a percent sign', 'id%0A'],
  ])('replaces an id with %s by a new UUID', (_, id) => {
    expect(requestIdFor(id)).toMatch(UUID);
  });

  it('makes a new UUID when there is none, or several', () => {
    expect(requestIdFor(undefined)).toMatch(UUID);
    expect(requestIdFor(['a', 'b'])).toMatch(UUID);
  });

  it('makes a different id each time', () => {
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});

describe('requestIdMiddleware', () => {
  function run(incoming?: string) {
    const req = {
      headers: incoming ? { 'x-request-id': incoming } : {},
    } as Request;
    const headers: Record<string, string> = {};
    const res = {
      setHeader: (name: string, value: string) => {
        headers[name.toLowerCase()] = value;
      },
    } as unknown as Response;
    const next = jest.fn() as NextFunction;
    requestIdMiddleware(req, res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
    return { id: req.id, header: headers['x-request-id'] };
  }

  it('puts the same id on the request and the response', () => {
    expect(run('req-7')).toEqual({ id: 'req-7', header: 'req-7' });
    const generated = run('bad id');
    expect(generated.id).toMatch(UUID);
    expect(generated.header).toBe(generated.id);
    const fresh = run();
    expect(fresh.id).toMatch(UUID);
    expect(fresh.header).toBe(fresh.id);
  });
});
