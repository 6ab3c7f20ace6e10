import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Filter, filters } from '../common/pagination/list-filters';
import type { Page } from '../common/pagination/page';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { ListProductsQueryDto } from './dto/list-products-query.dto';
import { PRODUCT_SOURCE } from './product.fields';

/** Reads a box office's products (docs/API.md, "Products"). */
@Injectable()
export class ProductsService {
  readonly reader: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.reader = new ResourceReader(dataSource, PRODUCT_SOURCE);
  }

  list(boxOfficeId: number, query: ListProductsQueryDto): Promise<Page> {
    return this.reader.page(
      boxOfficeId,
      pageRequest(query, productFilters(query)),
    );
  }

  /** One product's JSON bytes; 404 for a malformed id, a missing product or another box office's. */
  retrieve(boxOfficeId: number, productId: string): Promise<Buffer> {
    return this.reader.one(boxOfficeId, productId);
  }
}

/** The list's filters, each served by an index that starts (box office, its column). */
export function productFilters(query: ListProductsQueryDto): Filter[] {
  return query.status === undefined
    ? []
    : [filters.oneOf('p.status', query.status.split(','))];
}
