import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-codes';
import { Metrics } from '../common/metrics/metrics';
import { type Filter, filters } from '../common/pagination/list-filters';
import { DEFAULT_PAGE_SIZE } from '../common/pagination/list-query.dto';
import type { Page } from '../common/pagination/page';
import { ResourceReader, planList } from '../common/resources/resource-reader';
import { RESOURCE } from '../common/resources/resource-identities';
import { type Row, rowReader } from '../database/row-reader';
import {
  CHANGE_RESOURCES,
  CHANGE_TYPES,
  type ChangeFamily,
  type ChangeType,
  changeHeadsTotal,
  changeId,
  parseChangePosition,
  oldestKeptChange,
} from './change-feed';
import { CHANGE_SOURCE } from './change.fields';
import { ListChangesQueryDto } from './dto/list-changes-query.dto';

/**
 * Reads a box office's change feed (docs/API.md, "Change feed"): the entries after a position,
 * oldest first. The writers number each box office's entries 1, 2, … in commit order with no
 * hole (migration SyncAndChanges), so a position is just a number, every number up to the head
 * is one, and a page that does not start right after its position either was filtered or lost
 * entries to retention, which the oldest entry kept tells apart.
 */
@Injectable()
export class ChangesService {
  readonly reader: ResourceReader;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    metrics: Metrics,
  ) {
    this.reader = new ResourceReader(dataSource, CHANGE_SOURCE);
    const read = rowReader(dataSource);
    metrics.readGauge(
      {
        name: 'boxoffice_change_feed_head',
        help: "The change feed's heads added up over the box offices of this database: the entries numbered so far (its rate: changes per second). Read at each scrape.",
      },
      () => changeHeadsTotal(read),
    );
  }

  /**
   * The entries after `starting_after`, up to `head` (read first, by ChangeHeadInterceptor): every
   * entry up to the head has committed (ids become visible in commit order), so the page and
   * X-Change-Head describe one moment. A poller at the head, the usual poll, reads nothing more.
   */
  async list(
    boxOfficeId: number,
    head: number,
    query: ListChangesQueryDto,
  ): Promise<Page> {
    const after = positionOf(query.starting_after);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (after.id > head) {
      throw new ApiError(
        HttpStatus.BAD_REQUEST,
        ErrorCode.INVALID_CURSOR,
        `starting_after must be a position of this box office's feed, ${changeId(0)} to ${changeId(head)} (X-Change-Head)`,
      );
    }
    const rows =
      after.id === head
        ? []
        : await this.entries(boxOfficeId, query, after, head, limit);
    // Without a cursor the feed starts at its oldest kept entry; a position a client was given
    // must be followed by the very next entry, or some were removed by retention (the oldest
    // entry kept, read after the page, also shows a cleanup that ran in between).
    const firstId = rows.length > 0 ? Number(rows[0].id) : head + 1;
    if (after.given && after.id < head && firstId !== after.id + 1) {
      const oldest = await oldestKeptChange(this.dataSource, boxOfficeId);
      if (oldest === null || oldest > after.id + 1) {
        throw ApiError.cursorExpired(
          `starting_after ${changeId(after.id)} is older than the feed keeps (positions ${changeId(
            (oldest ?? head + 1) - 1,
          )} and later): read the lists again, then follow the feed from X-Change-Head`,
        );
      }
    }
    // A poller keeps following next: past the last entry, or the same position when none came.
    // Without a position, an empty page read every entry kept up to the head: next is the head.
    const last =
      rows.length > 0
        ? Number(rows[rows.length - 1].id)
        : after.given
          ? after.id
          : head;
    return {
      items: this.reader.json.render(rows),
      firstCursor: null,
      lastCursor: changeId(last),
      hasNext: true,
      hasPrevious: false,
    };
  }

  /** The entries after the position and up to the head that pass the filters, oldest first. */
  private async entries(
    boxOfficeId: number,
    query: ListChangesQueryDto,
    after: Position,
    head: number,
    limit: number,
  ): Promise<Row[]> {
    const upToHead: Filter = {
      condition: (params) => `c.id <= ${params.add(head)}`,
    };
    const statement = this.reader.pageStatement(
      boxOfficeId,
      planList(this.reader.source, {
        limit,
        filters: [after.filter, upToHead, ...changeFilters(query)],
      }),
      null,
    );
    // The statement reads one row more than the page, as every list does; a feed page needs no
    // "more?" answer (next is always given), so the extra row is dropped.
    return (await this.reader.read(statement.sql, statement.params)).slice(
      0,
      limit,
    );
  }
}

/** A `starting_after`: its number (0: the start), and the condition it puts on the page. */
interface Position {
  readonly id: number;
  readonly given: boolean;
  readonly filter: Filter;
}

function positionOf(value: unknown): Position {
  let id = 0;
  const given = value !== undefined;
  if (given) {
    const position = parseChangePosition(value);
    if (position === null) {
      throw ApiError.invalidCursor(
        'starting_after',
        RESOURCE.change.noun,
        RESOURCE.change.prefix,
      );
    }
    id = position;
  }
  return {
    id,
    given,
    filter: { condition: (params) => `c.id > ${params.add(id)}` },
  };
}

/** The feed's filters, as SQL on the changes table. */
export function changeFilters(query: ListChangesQueryDto): Filter[] {
  const found = filters.range(query, 'created_at', 'c.created_at');
  if (query.type !== undefined) {
    found.push(filters.oneOf('c.type', typesOf(query.type.split(','))));
  }
  if (query.resource_id !== undefined) {
    const [prefix, digits] = query.resource_id.split('_');
    const family = (Object.keys(CHANGE_RESOURCES) as ChangeFamily[]).find(
      (name) => CHANGE_RESOURCES[name].prefix === `${prefix}_`,
    )!;
    found.push(filters.equals('c.resource_id', Number(digits)));
    found.push(filters.oneOf('c.type', typesOf([`${family}.*`])));
  }
  return found;
}

/** Types and families (`ORDER.*`) as the types they name. */
function typesOf(names: readonly string[]): ChangeType[] {
  return CHANGE_TYPES.filter((type) =>
    names.some(
      (name) =>
        name === type ||
        (name.endsWith('.*') && type.startsWith(name.slice(0, -1))),
    ),
  );
}
