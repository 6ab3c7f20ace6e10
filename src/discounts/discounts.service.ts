import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { DISCOUNT_SOURCE } from './discount.fields';
import { ListDiscountsQueryDto } from './dto/list-discounts-query.dto';

/** Reads a box office's discounts (docs/API.md, "Discounts"). */
@Injectable()
export class DiscountsService {
  readonly reader: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.reader = new ResourceReader(dataSource, DISCOUNT_SOURCE);
  }

  list(boxOfficeId: number, query: ListDiscountsQueryDto): Promise<Page> {
    return this.reader.page(
      boxOfficeId,
      pageRequest(query, discountFilters(query)),
    );
  }

  /** One discount's JSON bytes; 404 for a malformed id, a missing one or another box office's. */
  retrieve(boxOfficeId: number, discountId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, discountId);
  }
}

/**
 * The list's filters. `code` compares whole codes, case ignored: read along the box office's
 * list index (a box office has tens of discounts, not millions).
 */
export function discountFilters(query: ListDiscountsQueryDto): Filter[] {
  return query.code === undefined
    ? []
    : [filters.sameText('d.code', query.code)];
}
