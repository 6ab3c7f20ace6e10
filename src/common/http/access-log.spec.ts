import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { accessLog } from './access-log';

describe('accessLog', () => {
  function setUp(level: string) {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    const run = (finished: boolean) => {
      const req = {
        method: 'GET',
        baseUrl: '',
        route: { path: '/v1/orders/:order_id', methods: { get: true } },
        id: 'req-1',
        caller: { boxOfficeId: 7, apiKeyId: 3 },
        headers: { authorization: 'Basic c2tfc2VjcmV0Og==' },
        url: '/v1/orders/or_1?email=a@b.example',
      } as unknown as Request;
      const res = Object.assign(new EventEmitter(), {
        statusCode: 200,
        writableFinished: finished,
      }) as unknown as Response;
      const next = jest.fn() as NextFunction;
      accessLog(logger)(req, res, next);
      expect(next).toHaveBeenCalledWith();
      res.emit('close');
    };
    return { lines, run };
  }

  it('writes one line when the response is done, with the route template and no header or query', async () => {
    const { lines, run } = setUp('info');
    run(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        method: 'GET',
        route: '/v1/orders/:order_id',
        status: 200,
        duration_ms: expect.any(Number),
        request_id: 'req-1',
        box_office_id: 7,
        msg: expect.stringMatching(
          /^GET \/v1\/orders\/:order_id 200 [\d.]+ms req-1$/,
        ),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/c2tf|email|or_1|authorization/i);
    expect(lines[0]).not.toHaveProperty('aborted');
  });

  it('marks a response the client did not wait for', async () => {
    const { lines, run } = setUp('info');
    run(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ aborted: true })]);
  });

  it('writes nothing above info', async () => {
    const { lines, run } = setUp('warn');
    run(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
  });
});
