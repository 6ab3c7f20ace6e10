import { SqlParams } from '../../database/sql-dialect';
import { ApiError } from '../errors/api-error';
import { parsePrefixedId } from '../ids';
import { type Filter, filters } from '../pagination/list-filters';
import type { ResourceReader } from './resource-reader';

/** The resource a nested list is read under (a series, whose events are listed under its path). */
export interface ParentResource {
  /** Its table, its id prefix and what one is called in messages. */
  readonly table: string;
  readonly prefix: string;
  readonly noun: string;
  /** The nested resource's column that names it (`ev.event_series_id`). */
  readonly column: string;
}

/**
 * The scope of a nested list (PageRequest.scope): the items of one parent of the box office.
 * A malformed id, a missing parent or another box office's is a 404, not an empty page.
 */
export async function parentScope(
  reader: ResourceReader,
  boxOfficeId: number,
  parentId: string,
  { table, prefix, noun, column }: ParentResource,
): Promise<Filter> {
  const id = parsePrefixedId(prefix, parentId);
  if (id !== null) {
    const params = new SqlParams(reader.dialect);
    const sql = `SELECT 1 AS found FROM ${table} WHERE box_office_id = ${params.add(boxOfficeId)} AND id = ${params.add(id)}`;
    if ((await reader.read(sql, params.values)).length > 0) {
      return {
        ...filters.equals(column, id),
        describes: `${noun} ${parentId} of this box office`,
      };
    }
  }
  throw ApiError.notFound(
    id === null
      ? `No such ${noun} in this box office (${noun} ids are ${prefix}<number>)`
      : `No ${noun} ${parentId} in this box office`,
  );
}
