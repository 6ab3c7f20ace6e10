import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { ApiError } from '../src/common/errors/api-error';
import { ErrorCode } from '../src/common/errors/error-codes';
import { floorError, openOrderReader } from './lib/order-reader';

/**
 * The framework-free baseline (bench/README.md, "Servers"): `node:http`, the database driver and
 * the service's own statements and JSON assembly (bench/lib/order-reader.ts), with nothing
 * between the socket and the reader: no Nest pipeline, Express, validation, interceptors,
 * ETags, rate limits, request ids or security headers, and on SQLite no TypeORM either. It serves
 * the orders list (`limit`, the cursors, `created_at` ranges, `event_id`, `status`) and
 * `GET /v1/orders/{id}` with the same statements and bytes as the service, less the sync horizon
 * a list of ours reads for its `X-Sync-Watermark` header; what ours costs beyond it is the
 * pipeline's, and what `nest` (bench/nest.ts) costs beyond it the frameworks'.
 * `DATABASE_URL=… PORT=… node dist/bench/bare.js`
 */
async function start(): Promise<void> {
  const reader = await openOrderReader(process.env.DATABASE_URL);

  async function answer(req: IncomingMessage): Promise<Buffer> {
    const url = new URL(req.url ?? '/', 'http://bare');
    const tenant = await reader.boxOffice(req.headers.authorization);
    if (url.pathname === '/v1/orders')
      return reader.list(url.searchParams, tenant);
    const one = /^\/v1\/orders\/([^/]+)$/.exec(url.pathname);
    if (one) {
      let id: string;
      try {
        id = decodeURIComponent(one[1]);
      } catch {
        throw new ApiError(404, ErrorCode.NOT_FOUND, 'No such order');
      }
      return reader.one(tenant, id);
    }
    throw new ApiError(404, ErrorCode.NOT_FOUND, 'bare serves orders only');
  }

  const send = (res: ServerResponse, status: number, body: Buffer) => {
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
    });
    res.end(body);
  };

  createServer((req, res) => {
    answer(req).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        const { status, body } = floorError(error);
        send(res, status, body);
      },
    );
  }).listen(Number(process.env.PORT ?? 3003));
}

process.on('SIGTERM', () => process.exit(0));
void start();
