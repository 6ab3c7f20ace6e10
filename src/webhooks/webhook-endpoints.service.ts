import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { catchUpChanges } from '../changes/change-assigner';
import { changeHead, parseChangePosition } from '../changes/change-feed';
import { ApiError } from '../common/errors/api-error';
import { parsePrefixedId } from '../common/ids';
import type { CursorQuery } from '../common/pagination/list-query.dto';
import type { Filter } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { AppConfig } from '../config/app-config';
import type { Row } from '../database/row-reader';
import { type SqlDialect, SqlParams } from '../database/sql-dialect';
import {
  type RunWrite,
  type WriteWork,
  writeTransactions,
} from '../database/write-transaction';
import type {
  CreateWebhookEndpointDto,
  ReplayWebhooksDto,
  UpdateWebhookEndpointDto,
} from './dto/webhook-endpoint-write.dto';
import {
  WEBHOOK_DELIVERY_SOURCE,
  WEBHOOK_ENDPOINT_SOURCE,
} from './webhook-endpoint.fields';
import { WebhookSecrets } from './webhook-secrets';
import { newWebhookSecret } from './webhook-signer';
import { refuseWebhookUrl } from './webhook-url-guard';
import { RESOURCE, idOf } from '../common/resources/resource-identities';

/** An endpoint's `enabled_events` as stored: a JSON array, `["*"]` alone when it lists `*`. */
function storedEvents(events: readonly string[]): string {
  return JSON.stringify(events.includes('*') ? ['*'] : events);
}

/**
 * A box office's webhook endpoints (docs/API.md, "Webhooks"): each write one transaction, its
 * answer read back by the list's field table inside it. Delivery is WebhookDeliveryWorker's.
 */
@Injectable()
export class WebhookEndpointsService {
  readonly reader: ResourceReader;
  readonly deliveries: ResourceReader;
  private readonly dialect: SqlDialect;
  private readonly write: RunWrite;
  private readonly secrets: WebhookSecrets;
  private readonly allowPrivate: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.reader = new ResourceReader(dataSource, WEBHOOK_ENDPOINT_SOURCE);
    this.deliveries = new ResourceReader(dataSource, WEBHOOK_DELIVERY_SOURCE);
    this.dialect = this.reader.dialect;
    this.write = writeTransactions(dataSource);
    this.secrets = new WebhookSecrets(config.webhooks.secretKey);
    this.allowPrivate = config.webhooks.allowPrivateUrls;
  }

  list(boxOfficeId: number, query: CursorQuery): Promise<Page> {
    return this.reader.page(boxOfficeId, pageRequest(query, []));
  }

  retrieve(boxOfficeId: number, endpointId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, endpointId);
  }

  /**
   * A new endpoint, enabled, at the feed's head: it is sent the events of changes made after it
   * was created (on PostgreSQL the entries committed before are numbered first, so that the head
   * it starts at is past them). Its secret is returned this once, beside the endpoint.
   */
  async create(
    boxOfficeId: number,
    body: CreateWebhookEndpointDto,
  ): Promise<{ id: string; json: string }> {
    await this.checkUrl(body.url);
    await catchUpChanges(this.dataSource, boxOfficeId);
    const secret = newWebhookSecret();
    const sealed = this.secrets.seal(secret);
    const now = Math.floor(Date.now() / 1000);
    const { reader } = this;
    const p = new SqlParams(this.dialect);
    const insert = {
      sql: `INSERT INTO webhook_endpoints
         (box_office_id, url, description, enabled_events, status, secret, created_at, updated_at,
          delivered_through)
       VALUES (${p.add(boxOfficeId)}, ${p.add(body.url)}, ${p.add(body.description ?? null)},
         ${p.add(storedEvents(body.enabled_events))}, 'enabled', ${p.add(sealed)},
         ${p.add(now)}, ${p.add(now)},
         coalesce((SELECT last_id FROM change_heads WHERE box_office_id = ${p.add(boxOfficeId)}), 0))
       RETURNING id`,
      params: p.values,
    };
    const json = await this.write(function* () {
      const [row] = yield insert;
      return yield* readBack(reader, boxOfficeId, Number(row.id));
    });
    const endpoint = JSON.parse(json!) as Record<string, unknown>;
    return {
      id: String(endpoint.id),
      json: JSON.stringify({ ...endpoint, secret }),
    };
  }

  /** Changes the fields given; enabling an endpoint resumes delivery at once. */
  async update(
    boxOfficeId: number,
    endpointId: string,
    body: UpdateWebhookEndpointDto,
  ): Promise<Buffer> {
    const id = this.idOf(endpointId);
    if (body.url !== undefined) await this.checkUrl(body.url);
    const p = new SqlParams(this.dialect);
    const sets = [`updated_at = ${p.add(Math.floor(Date.now() / 1000))}`];
    if (body.url !== undefined) sets.push(`url = ${p.add(body.url)}`);
    if (body.description !== undefined) {
      sets.push(`description = ${p.add(body.description)}`);
    }
    if (body.enabled_events !== undefined) {
      sets.push(`enabled_events = ${p.add(storedEvents(body.enabled_events))}`);
    }
    if (body.status !== undefined) sets.push(`status = ${p.add(body.status)}`);
    // A new URL, or the endpoint enabled (again): the next event is tried now, earlier failures
    // forgotten; state_version moves, so that an attempt finishing meanwhile does not schedule
    // its retry over this.
    if (body.url !== undefined || body.status === 'enabled') {
      sets.push(
        'failures = 0',
        'failing_since = NULL',
        'next_attempt_at = 0',
        'state_version = state_version + 1',
      );
    }
    const update = {
      sql: `UPDATE webhook_endpoints SET ${sets.join(', ')}
        WHERE box_office_id = ${p.add(boxOfficeId)} AND id = ${p.add(id)} RETURNING id`,
      params: p.values,
    };
    return this.changed(boxOfficeId, endpointId, id, update);
  }

  /** Deletes the endpoint and its deliveries' history; the answer is the endpoint as it was. */
  async remove(boxOfficeId: number, endpointId: string): Promise<Buffer> {
    const id = this.idOf(endpointId);
    const { reader } = this;
    const p = new SqlParams(this.dialect);
    const remove = {
      sql: `DELETE FROM webhook_endpoints
        WHERE box_office_id = ${p.add(boxOfficeId)} AND id = ${p.add(id)}`,
      params: p.values,
    };
    const json = await this.write(function* () {
      const before = yield* readBack(reader, boxOfficeId, id);
      if (before !== null) yield remove;
      return before;
    });
    if (json === null) throw this.notFound(endpointId);
    return Buffer.from(json);
  }

  /**
   * Sends again every event after `starting_after` that the feed still holds, in order, with the
   * same `wh_` ids: the endpoint's position moves back to it (never forward, so nothing not yet
   * delivered is skipped), and a send in flight does not move it on (state_version).
   */
  async replay(
    boxOfficeId: number,
    endpointId: string,
    body: ReplayWebhooksDto,
  ): Promise<Buffer> {
    const id = this.idOf(endpointId);
    const position = parseChangePosition(body.starting_after);
    if (position === null) {
      throw ApiError.invalidBody([
        {
          field: 'starting_after',
          messages: [
            `starting_after must be a change-feed position ${idOf(RESOURCE.change, '<n>')}`,
          ],
        },
      ]);
    }
    const head = await changeHead(this.dataSource, boxOfficeId);
    if (position > head) {
      throw ApiError.invalidBody([
        {
          field: 'starting_after',
          messages: [
            `starting_after must be a position of this box office's feed, ${idOf(RESOURCE.change, 0)} to ${idOf(RESOURCE.change, head)}`,
          ],
        },
      ]);
    }
    const p = new SqlParams(this.dialect);
    const update = {
      sql: `UPDATE webhook_endpoints
          SET delivered_through = CASE WHEN delivered_through < ${p.add(position)} THEN delivered_through ELSE ${p.add(position)} END,
              failures = 0, failing_since = NULL, next_attempt_at = 0,
              state_version = state_version + 1
        WHERE box_office_id = ${p.add(boxOfficeId)} AND id = ${p.add(id)} RETURNING id`,
      params: p.values,
    };
    return this.changed(boxOfficeId, endpointId, id, update);
  }

  /** The attempts of one endpoint of the box office, newest first. */
  async deliveriesOf(
    boxOfficeId: number,
    endpointId: string,
    query: CursorQuery,
  ): Promise<Page> {
    await this.retrieve(boxOfficeId, endpointId);
    const id = this.idOf(endpointId);
    const scope: Filter = {
      condition: (params) => `wd.endpoint_id = ${params.add(id)}`,
      describes: `webhook endpoint ${endpointId} of this box office`,
    };
    return this.deliveries.page(boxOfficeId, pageRequest(query, [], { scope }));
  }

  /** Runs `update` (which returns the id it changed) and answers the endpoint as it is after. */
  private async changed(
    boxOfficeId: number,
    endpointId: string,
    id: number,
    update: { sql: string; params: unknown[] },
  ): Promise<Buffer> {
    const { reader } = this;
    const json = await this.write(function* () {
      const rows: Row[] = yield update;
      if (rows.length === 0) return null;
      return yield* readBack(reader, boxOfficeId, id);
    });
    if (json === null) throw this.notFound(endpointId);
    return Buffer.from(json);
  }

  private async checkUrl(url: string): Promise<void> {
    const refusal = await refuseWebhookUrl(url, this.allowPrivate);
    if (refusal !== null) {
      throw ApiError.invalidBody([{ field: 'url', messages: [refusal] }]);
    }
  }

  private idOf(endpointId: string): number {
    const id = parsePrefixedId(RESOURCE.webhookEndpoint.prefix, endpointId);
    if (id === null) throw this.notFound(endpointId);
    return id;
  }

  private notFound(endpointId: string) {
    return ApiError.notFound(
      `No webhook endpoint ${endpointId} in this box office`,
    );
  }
}

/** The endpoint's JSON as the retrieval shows it, read inside the write; null when none. */
function* readBack(
  reader: ResourceReader,
  boxOfficeId: number,
  id: number,
): WriteWork<string | null> {
  const rows = reader.json.resourceRows(
    yield reader.oneStatement(boxOfficeId, id),
  );
  return rows.length === 1 ? reader.json.render(rows)[0] : null;
}
