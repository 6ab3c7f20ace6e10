import {
  BadRequestException,
  HttpStatus,
  ImATeapotException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
} from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { ApiError } from './api-error';
import { ErrorCode } from './error-codes';

// The one place error bodies are made (docs/API.md, Errors): what each kind of exception becomes,
// and that nothing of an unexpected error's text reaches the client.

/** An Express app whose router has a GET route at /v1/orders and Nest's catch-all. */
const app = {
  router: {
    stack: [
      {
        route: { methods: { get: true } },
        match: (path: string) => path === '/v1/orders',
      },
      {
        route: { methods: { _all: true } },
        match: () => true,
      },
    ],
  },
};

interface Sent {
  status?: number;
  headers: Record<string, string>;
  type?: string;
  body?: string;
  ended: boolean;
}

const newFilter = () =>
  new AllExceptionsFilter({
    httpAdapter: { getInstance: () => app },
  } as unknown as HttpAdapterHost);

function catchWith(
  exception: unknown,
  request: { method?: string; path?: string } = {},
  headersSent = false,
  filter = newFilter(),
): Sent {
  const sent: Sent = { headers: {}, ended: false };
  const response = {
    headersSent,
    setHeader: (name: string, value: string) => {
      sent.headers[name] = value;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    send(body: string) {
      sent.body = body;
    },
    end() {
      sent.ended = true;
    },
  };
  const req = { method: 'GET', path: '/v1/orders', id: 'req_1', ...request };
  const host = {
    switchToHttp: () => ({
      getRequest: () => req,
      getResponse: () => response,
    }),
  } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return sent;
}

const bodyOf = (sent: Sent) => JSON.parse(sent.body ?? 'null') as unknown;

describe('AllExceptionsFilter', () => {
  let errors: jest.SpyInstance;
  let warnings: jest.SpyInstance;

  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation();
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends an ApiError as it is: status, code, message and its headers, not cached', () => {
    const sent = catchWith(
      new ApiError(
        HttpStatus.TOO_MANY_REQUESTS,
        ErrorCode.TOO_MANY_REQUESTS,
        'Slow down',
        { 'Retry-After': '3' },
      ),
    );
    expect(sent.status).toBe(429);
    expect(sent.type).toBe('application/json');
    expect(bodyOf(sent)).toEqual({
      status: 429,
      error_code: 'TOO_MANY_REQUESTS',
      message: 'Slow down',
    });
    expect(sent.headers['Retry-After']).toBe('3');
    expect(sent.headers['Cache-Control']).toMatch(/no-store/);
    expect(errors).not.toHaveBeenCalled();
  });

  it("adds an ApiError's details after the message: a request body's errors, field by field", () => {
    const sent = catchWith(
      ApiError.invalidBody([
        { field: 'quantity', messages: ['quantity must be 1 or -1'] },
        { field: 'barcode', messages: ['barcode must be a string'] },
      ]),
    );
    expect(sent.status).toBe(400);
    expect(sent.body).toBe(
      '{"status":400,"error_code":"VALIDATION_ERROR","message":"quantity must be 1 or -1","errors":[{"field":"quantity","messages":["quantity must be 1 or -1"]},{"field":"barcode","messages":["barcode must be a string"]}]}',
    );
  });

  it('hides an unexpected error behind a generic 500 and logs it once with the request id', () => {
    const sent = catchWith(new Error('secret column password_hash missing'));
    expect(bodyOf(sent)).toEqual({
      status: 500,
      error_code: 'INTERNAL_SERVER_ERROR',
      message: 'An unexpected error occurred; it has been logged',
    });
    expect(sent.body).not.toMatch(/password_hash/);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0][0])).toContain('req_1');
  });

  it('answers a database that cannot be reached with 503 and Retry-After, warning at most every 10 s', () => {
    const unreachable = () =>
      new QueryFailedError('SELECT 1', [], {
        code: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 127.0.0.1:5432',
      } as unknown as Error);
    const first = catchWith(unreachable());
    expect(first.status).toBe(503);
    expect(bodyOf(first)).toMatchObject({ error_code: 'SERVICE_UNAVAILABLE' });
    expect(first.headers['Retry-After']).toBe('5');
    expect(first.body).not.toMatch(/5432/);
    expect(warnings).toHaveBeenCalledTimes(1);
    // One filter, three failures moments apart: one warning; another once 10 s have passed.
    const filter = newFilter();
    warnings.mockClear();
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    for (const path of ['/a', '/b', '/c'])
      catchWith(unreachable(), { path }, false, filter);
    expect(warnings).toHaveBeenCalledTimes(1);
    now += 9_999;
    catchWith(unreachable(), {}, false, filter);
    expect(warnings).toHaveBeenCalledTimes(1);
    now += 1;
    catchWith(unreachable(), {}, false, filter);
    expect(warnings).toHaveBeenCalledTimes(2);
    expect(errors).not.toHaveBeenCalled();
  });

  it("turns the router's 404 into 405 with Allow when the path has other methods", () => {
    const sent = catchWith(new NotFoundException(), {
      method: 'POST',
      path: '/v1/orders',
    });
    expect(sent.status).toBe(405);
    expect(bodyOf(sent)).toMatchObject({ error_code: 'METHOD_NOT_ALLOWED' });
    expect(sent.headers.Allow).toBe('GET, HEAD, OPTIONS');
  });

  it("turns the router's 404 for an unknown path into NOT_FOUND naming it", () => {
    const sent = catchWith(new NotFoundException(), { path: '/v1/nothing' });
    expect(sent.status).toBe(404);
    expect(bodyOf(sent)).toEqual({
      status: 404,
      error_code: 'NOT_FOUND',
      message: 'No resource at GET /v1/nothing',
    });
  });

  it('answers a path that is not valid percent-encoding with 404', () => {
    const sent = catchWith(
      new BadRequestException('Bad Request', {
        cause: new URIError('URI malformed'),
      }),
    );
    expect(sent.status).toBe(404);
    expect(bodyOf(sent)).toMatchObject({ error_code: 'NOT_FOUND' });
  });

  it("keeps a framework 4xx's status and code, and its message only when it is Nest's own", () => {
    const unauthorized = catchWith(new UnauthorizedException('No API key'));
    expect(unauthorized.status).toBe(401);
    expect(bodyOf(unauthorized)).toEqual({
      status: 401,
      error_code: 'UNAUTHORIZED',
      message: 'No API key',
    });
    const tooLarge = catchWith(new PayloadTooLargeException());
    expect(tooLarge.status).toBe(413);
    expect(bodyOf(tooLarge)).toMatchObject({
      status: 413,
      error_code: 'PAYLOAD_TOO_LARGE',
    });
    // A status without a code of its own: a malformed request.
    const teapot = catchWith(new ImATeapotException());
    expect(teapot.status).toBe(400);
    expect(bodyOf(teapot)).toMatchObject({
      status: 400,
      error_code: 'VALIDATION_ERROR',
    });
    const wrapped = catchWith(
      new BadRequestException('parser said: unexpected token at 12', {
        cause: new SyntaxError('Unexpected token'),
      }),
    );
    expect(bodyOf(wrapped)).toEqual({
      status: 400,
      error_code: 'VALIDATION_ERROR',
      message: 'The request is malformed',
    });
  });

  it('only ends a response whose headers are already sent', () => {
    const sent = catchWith(new Error('late'), {}, true);
    expect(sent.ended).toBe(true);
    expect(sent.body).toBeUndefined();
    expect(sent.status).toBeUndefined();
  });
});
