import 'reflect-metadata';
import {
  type ArgumentsHost,
  Catch,
  Controller,
  type ExceptionFilter,
  Get,
  Inject,
  Module,
  Param,
  Req,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { JsonBufferExpressAdapter } from '../src/common/http/json-buffer-express.adapter';
import {
  floorError,
  openOrderReader,
  type OrderReader,
} from './lib/order-reader';

/**
 * The framework floor (bench/README.md, "Servers"): Nest on Express, as `nest new` makes it, with
 * one controller whose two routes call the same reader as `bare` and ours
 * (bench/lib/order-reader.ts: the same statements and bytes) and nothing of ours around it: no
 * key check beyond finding the key's box office (cached, as bare does), no rate limit,
 * validation, ETag (Express's own is switched off too), request id, security headers, CORS,
 * compression or logging. Handlers return the reader's Buffer, sent through ours' Express
 * adapter (res.send of those bytes); errors leave through one exception filter, the framework's
 * way, with bare's body. ours ÷ nest is what our steps cost; nest ÷ bare what the frameworks cost.
 * `DATABASE_URL=… PORT=… node dist/bench/nest.js`
 */

const READER = 'ORDER_READER';
const JSON_TYPE = 'application/json; charset=utf-8';

@Controller('v1/orders')
class OrdersController {
  constructor(@Inject(READER) private readonly reader: OrderReader) {}

  @Get()
  async list(@Req() req: Request): Promise<Buffer> {
    const tenant = await this.reader.boxOffice(req.headers.authorization);
    const query = req.url.indexOf('?');
    return this.reader.list(
      new URLSearchParams(query < 0 ? '' : req.url.slice(query + 1)),
      tenant,
    );
  }

  @Get(':order_id')
  async one(
    @Req() req: Request,
    @Param('order_id') orderId: string,
  ): Promise<Buffer> {
    const tenant = await this.reader.boxOffice(req.headers.authorization);
    return this.reader.one(tenant, orderId);
  }
}

/** Every error as bare answers it (the ApiError's status and body). */
@Catch()
class FloorErrors implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const { status, body } = floorError(error);
    host
      .switchToHttp()
      .getResponse<Response>()
      .status(status)
      .set('Content-Type', JSON_TYPE)
      .end(body);
  }
}

async function start(): Promise<void> {
  const reader = await openOrderReader(process.env.DATABASE_URL);

  @Module({
    controllers: [OrdersController],
    providers: [{ provide: READER, useValue: reader }],
  })
  class FloorModule {}

  // Ours' adapter: a Buffer the handler returns goes out as those bytes (res.send), not
  // serialised again, as ours sends its pages.
  const app = await NestFactory.create<NestExpressApplication>(
    FloorModule,
    new JsonBufferExpressAdapter(),
    { logger: ['error'], bodyParser: false },
  );
  app.set('etag', false);
  app.disable('x-powered-by');
  app.useGlobalFilters(new FloorErrors());
  await app.listen(Number(process.env.PORT ?? 3004));
}

process.on('SIGTERM', () => process.exit(0));
void start();
