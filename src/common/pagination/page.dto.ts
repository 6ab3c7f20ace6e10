import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayOf, Nested } from '../openapi/api-properties';
import { MAX_PAGE_SIZE } from './list-query.dto';

/**
 * A link repeats the request's other parameters, each bounded, so it stays well within the
 * request line's own limit (docs/API.md, Limits).
 */
const MAX_LINK_LENGTH = 16_384;

/** Where a list lives and what its ids look like: `/v1/orders`, `or_`. */
export interface ListOf {
  path: string;
  /** The path as a pattern, when it holds a parameter (`/v1/event_series/es_[0-9]+/events`). */
  pathPattern?: string;
  /** The schema's name, when not the item's (`EventListDto`) because the item has two lists. */
  name?: string;
  prefix: string;
  /** Whether some of its orders carry the key in cursors (`or_9@1786645321`: see sort.ts). */
  keyed?: boolean;
  /** The cursor's number, when it is not a row id from 1 up (the change feed's starts at 0). */
  cursorNumber?: string;
}

/**
 * `next` and `previous` of one list: the list's path, the cursor first, then the request's other
 * parameters, percent-encoded (docs/API.md, Pagination: "Links").
 */
function LinksDto(
  {
    path,
    pathPattern = path,
    prefix,
    keyed,
    cursorNumber = '[1-9][0-9]*',
  }: ListOf,
  name: string,
): Type {
  const key = keyed ? '(@(0|[1-9][0-9]*))?' : '';
  const link = (cursor: string) =>
    `^${pathPattern}\\?${cursor}=${prefix}${cursorNumber}${key}(&[^&=]+=[^&=]+)*$`;
  class LinksDto {
    @ApiProperty({
      type: String,
      nullable: true,
      maxLength: MAX_LINK_LENGTH,
      pattern: link('starting_after'),
      description:
        'The next page (`?starting_after=<last id>&<the other parameters>`), or null when none follows',
      example: `${path}?starting_after=${prefix}120&limit=100`,
    })
    next: string | null;

    @ApiProperty({
      type: String,
      nullable: true,
      maxLength: MAX_LINK_LENGTH,
      pattern: link('ending_before'),
      description:
        'The previous page (`?ending_before=<first id>&<the other parameters>`), or null when none comes before',
      example: null,
    })
    previous: string | null;
  }
  Object.defineProperty(LinksDto, 'name', { value: name });
  return LinksDto;
}

/**
 * The schema of a list response, `{data: [item…], links}`, named after the item (`OrderListDto`,
 * with `OrderListLinksDto`).
 */
export function PageDto<T>(
  item: Type<T>,
  list: ListOf,
): Type<{
  data: T[];
  links: { next: string | null; previous: string | null };
}> {
  const name = list.name ?? item.name.replace(/Dto$/, 'List');
  const Links = LinksDto(list, `${name}LinksDto`);
  class PageDto {
    @ArrayOf(item, MAX_PAGE_SIZE, {
      description: `At most ${MAX_PAGE_SIZE} items (the request's limit)`,
    })
    data: T[];

    @Nested(Links)
    links: { next: string | null; previous: string | null };
  }
  Object.defineProperty(PageDto, 'name', { value: `${name}Dto` });
  return PageDto;
}
