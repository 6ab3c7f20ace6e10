import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { catchUpChanges } from '../changes/change-assigner';
import { changeHead, parseChangePosition } from '../changes/change-feed';
import type { Caller } from '../auth/auth.service';
import { ApiError } from '../common/errors/api-error';
import { parsePrefixedId } from '../common/ids';
import type { CursorQuery } from '../common/pagination/list-query.dto';
import type { Filter } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import {
  type RetryKeys,
  type WriteAnswer,
  Writes,
} from '../common/writes/writes';
import { AppConfig } from '../config/app-config';
import type { Row } from '../database/row-reader';
import {
  type SqlDialect,
  SqlParams,
  type Statement,
} from '../database/sql-dialect';
import type { WriteWork } from '../database/write-transaction';
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
import {
  type UrlRefusal,
  refuseUrlHost,
  refuseUrlText,
} from './webhook-url-guard';
import {
  RESOURCE,
  idOf,
  itemPathOf,
} from '../common/resources/resource-identities';

/** An endpoint's `enabled_events` as stored: a JSON array, `["*"]` alone when it lists `*`. */
function storedEvents(events: readonly string[]): string {
  return JSON.stringify(events.includes('*') ? ['*'] : events);
}

/**
 * A box office's webhook endpoints (docs/API.md, "Webhooks"): each write runs on the writes'
 * machinery (Writes.run: Idempotency-Key, the retry of refusals), one transaction whose answer is
 * read back by the list's field table inside it. Delivery is WebhookDeliveryWorker's.
 */
@Injectable()
export class WebhookEndpointsService {
  readonly reader: ResourceReader;
  readonly deliveries: ResourceReader;
  private readonly dialect: SqlDialect;
  private readonly secrets: WebhookSecrets;
  private readonly allowPrivate: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
    private readonly writes: Writes,
  ) {
    this.reader = new ResourceReader(dataSource, WEBHOOK_ENDPOINT_SOURCE);
    this.deliveries = new ResourceReader(dataSource, WEBHOOK_DELIVERY_SOURCE);
    this.dialect = this.reader.dialect;
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
   * it starts at is past them). Its secret is in this answer alone, beside the endpoint; a retry
   * with the answer's Idempotency-Key gets the same bytes, kept with the secret sealed as the
   * endpoint's row keeps it (docs/DESIGN.md, "A create's kept answer holds its secret sealed"),
   * whatever its URL's host resolves to by then: the host is looked up only when the write runs.
   */
  create(
    caller: Caller,
    body: CreateWebhookEndpointDto,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, () => {
      this.checkUrlText(body.url);
      const endpoint = {
        url: body.url,
        description: body.description ?? null,
        enabled_events: storedEvents(body.enabled_events),
      };
      return {
        operation: 'POST /v1/webhook_endpoints',
        request: endpoint,
        prepare: async () => {
          await this.checkUrlHost(body.url);
          await catchUpChanges(this.dataSource, office);
        },
        work: () => this.inserted(office, endpoint),
        keptAs: {
          seal: (answer) => withSecret(answer, (s) => this.secrets.seal(s)),
          open: (kept) => withSecret(kept, (s) => this.secrets.open(s)),
        },
      };
    });
  }

  private *inserted(
    boxOfficeId: number,
    endpoint: {
      url: string;
      description: string | null;
      enabled_events: string;
    },
  ): WriteWork<WriteAnswer> {
    const secret = newWebhookSecret();
    const p = new SqlParams(this.dialect);
    const now = this.dialect.now;
    const [row] = yield {
      sql: `INSERT INTO webhook_endpoints
         (box_office_id, url, description, enabled_events, status, secret, created_at, updated_at,
          delivered_through)
       VALUES (${p.add(boxOfficeId)}, ${p.add(endpoint.url)}, ${p.add(endpoint.description)},
         ${p.add(endpoint.enabled_events)}, 'enabled', ${p.add(this.secrets.seal(secret))},
         ${now}, ${now},
         coalesce((SELECT last_id FROM change_heads WHERE box_office_id = ${p.add(boxOfficeId)}), 0))
       RETURNING id`,
      params: p.values,
    };
    const id = Number(row.id);
    const json = yield* readBack(this.reader, boxOfficeId, id);
    const created = JSON.parse(json!) as Record<string, unknown>;
    return {
      status: 201,
      headers: { Location: itemPathOf(RESOURCE.webhookEndpoint, id) },
      body: JSON.stringify({ ...created, secret }),
    };
  }

  /** Changes the fields given; enabling an endpoint resumes delivery at once. */
  update(
    caller: Caller,
    endpointId: string,
    body: UpdateWebhookEndpointDto,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, () => {
      const id = this.idOf(endpointId);
      const { url } = body;
      if (url !== undefined) this.checkUrlText(url);
      const change = {
        url,
        description: body.description,
        enabled_events:
          body.enabled_events === undefined
            ? undefined
            : storedEvents(body.enabled_events),
        status: body.status,
      };
      return {
        operation: 'POST /v1/webhook_endpoints/{id}',
        request: { id, ...change },
        prepare: url === undefined ? undefined : () => this.checkUrlHost(url),
        work: () =>
          this.changed(
            office,
            endpointId,
            id,
            this.updateOf(office, id, change),
          ),
      };
    });
  }

  private updateOf(
    boxOfficeId: number,
    id: number,
    change: {
      url?: string;
      description?: string | null;
      enabled_events?: string;
      status?: 'enabled' | 'disabled';
    },
  ): Statement {
    const p = new SqlParams(this.dialect);
    const sets = [`updated_at = ${this.dialect.now}`];
    if (change.url !== undefined) sets.push(`url = ${p.add(change.url)}`);
    if (change.description !== undefined) {
      sets.push(`description = ${p.add(change.description)}`);
    }
    if (change.enabled_events !== undefined) {
      sets.push(`enabled_events = ${p.add(change.enabled_events)}`);
    }
    if (change.status !== undefined) {
      sets.push(`status = ${p.add(change.status)}`);
    }
    // A new URL, or the endpoint enabled (again): the next event is tried now, earlier failures
    // forgotten; state_version moves, so that an attempt finishing meanwhile does not schedule
    // its retry over this.
    if (change.url !== undefined || change.status === 'enabled') {
      sets.push(
        'failures = 0',
        'failing_since = NULL',
        'next_attempt_at = 0',
        'state_version = state_version + 1',
      );
    }
    return {
      sql: `UPDATE webhook_endpoints SET ${sets.join(', ')}
        WHERE box_office_id = ${p.add(boxOfficeId)} AND id = ${p.add(id)} RETURNING id`,
      params: p.values,
    };
  }

  /** Deletes the endpoint and its deliveries' history; the answer is the endpoint as it was. */
  remove(
    caller: Caller,
    endpointId: string,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, () => {
      const id = this.idOf(endpointId);
      return {
        operation: 'DELETE /v1/webhook_endpoints/{id}',
        request: { id },
        work: () => this.removed(office, endpointId, id),
      };
    });
  }

  private *removed(
    boxOfficeId: number,
    endpointId: string,
    id: number,
  ): WriteWork<WriteAnswer> {
    const before = yield* readBack(this.reader, boxOfficeId, id);
    if (before === null) throw this.notFound(endpointId);
    const p = new SqlParams(this.dialect);
    yield {
      sql: `DELETE FROM webhook_endpoints
        WHERE box_office_id = ${p.add(boxOfficeId)} AND id = ${p.add(id)}`,
      params: p.values,
    };
    return { status: 200, headers: {}, body: before };
  }

  /**
   * Sends again every event after `starting_after` that the feed still holds, in order, with the
   * same `wh_` ids: the endpoint's position moves back to it (never forward, so nothing not yet
   * delivered is skipped), and a send in flight does not move it on (state_version).
   */
  replay(
    caller: Caller,
    endpointId: string,
    body: ReplayWebhooksDto,
    keys: RetryKeys,
  ): Promise<WriteAnswer> {
    const office = caller.boxOfficeId;
    return this.writes.run(caller, keys, async () => {
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
      const head = await changeHead(this.dataSource, office);
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
          WHERE box_office_id = ${p.add(office)} AND id = ${p.add(id)} RETURNING id`,
        params: p.values,
      };
      return {
        operation: 'POST /v1/webhook_endpoints/{id}/replay',
        request: { id, position },
        work: () => this.changed(office, endpointId, id, update, 202),
      };
    });
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
  private *changed(
    boxOfficeId: number,
    endpointId: string,
    id: number,
    update: Statement,
    status = 200,
  ): WriteWork<WriteAnswer> {
    const rows: Row[] = yield update;
    const json =
      rows.length === 0 ? null : yield* readBack(this.reader, boxOfficeId, id);
    if (json === null) throw this.notFound(endpointId);
    return { status, headers: {}, body: json };
  }

  /** A URL refused by its text: 400 on `url`, with the body's other fields. */
  private checkUrlText(url: string): void {
    throwUrlRefusal(refuseUrlText(url, this.allowPrivate));
  }

  /**
   * A URL refused by where its host is (a DNS lookup): 400 on `url`. A write's `prepare`, so that
   * a retry its key's kept answer answers never waits on it or fails at it.
   */
  private async checkUrlHost(url: string): Promise<void> {
    throwUrlRefusal(await refuseUrlHost(url, this.allowPrivate));
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

/** A URL's refusal as the 400 on `url` it is. */
function throwUrlRefusal(refusal: UrlRefusal | null): void {
  if (refusal !== null) {
    throw ApiError.invalidBody([{ field: 'url', messages: [refusal] }]);
  }
}

/**
 * A create's answer with its `secret` turned by `turn`: sealed to be kept, opened to be sent again.
 * The body is JSON.stringify's, so parsing and writing it again gives the same bytes.
 */
function withSecret(
  answer: WriteAnswer,
  turn: (secret: string) => string,
): WriteAnswer {
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  return {
    ...answer,
    body: JSON.stringify({ ...body, secret: turn(String(body.secret)) }),
  };
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
