import type { DataSource } from 'typeorm';
import {
  CHANGE_RESOURCES,
  type ChangeFamily,
  type ChangeRow,
  changeFamily,
} from '../changes/change-feed';
import { CHECK_IN_SOURCE } from '../check-ins/check-in.fields';
import { ApiError } from '../common/errors/api-error';
import {
  ResourceReader,
  type ResourceSource,
} from '../common/resources/resource-reader';
import { EVENT_SERIES_SOURCE } from '../event-series/event-series.fields';
import { EVENT_SOURCE } from '../events/event.fields';
import { ISSUED_TICKET_SOURCE } from '../issued-tickets/issued-ticket.fields';
import { ORDER_SOURCE } from '../orders/order.fields';
import { RESOURCE, idOf } from '../common/resources/resource-identities';

/** Each family's resource, read as its retrieval reads it. */
const SOURCES: Record<ChangeFamily, ResourceSource> = {
  ORDER: ORDER_SOURCE,
  ISSUED_TICKET: ISSUED_TICKET_SOURCE,
  EVENT: EVENT_SOURCE,
  EVENT_SERIES: EVENT_SERIES_SOURCE,
  CHECK_IN: CHECK_IN_SOURCE,
};

/**
 * A delivery's body (docs/API.md, "Webhooks"): `{"id": "wh_<n>", "created_at", "event",
 * "payload", "resource_url"}`. The payload is the resource as `GET resource_url` shows it when the
 * delivery is made, through the same reader as that retrieval; for a `*.DELETED` event, or a
 * resource deleted since the entry (its own DELETED event follows), `{"id"}`. The `wh_` id is the
 * entry's number in the box office's feed, so every retry and replay of it carries the same one.
 */
export class WebhookPayloads {
  private readonly readers: Record<ChangeFamily, ResourceReader>;

  constructor(dataSource: DataSource) {
    this.readers = Object.fromEntries(
      Object.entries(SOURCES).map(([family, source]) => [
        family,
        new ResourceReader(dataSource, source),
      ]),
    ) as Record<ChangeFamily, ResourceReader>;
  }

  async body(boxOfficeId: number, change: ChangeRow): Promise<string> {
    const family = changeFamily(change.type);
    const { prefix, path } = CHANGE_RESOURCES[family];
    const resourceId = `${prefix}${change.resourceId}`;
    const payload = change.type.endsWith('.DELETED')
      ? JSON.stringify({ id: resourceId })
      : await this.retrieve(boxOfficeId, family, resourceId);
    return `{"id":"${idOf(RESOURCE.webhookEvent, change.id)}","created_at":${change.createdAt},"event":${JSON.stringify(
      change.type,
    )},"payload":${payload},"resource_url":${JSON.stringify(`${path}${resourceId}`)}}`;
  }

  private async retrieve(
    boxOfficeId: number,
    family: ChangeFamily,
    resourceId: string,
  ): Promise<string> {
    try {
      return (await this.readers[family].one(boxOfficeId, resourceId)).toString(
        'utf8',
      );
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 404) {
        return JSON.stringify({ id: resourceId });
      }
      throw error;
    }
  }
}
