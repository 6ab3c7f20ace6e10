import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/pagination/page';
import {
  type ParentResource,
  parentScope,
} from '../common/resources/parent-scope';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import {
  ListVoucherCodesQueryDto,
  ListVouchersQueryDto,
} from './dto/list-vouchers-query.dto';
import { VOUCHER_CODE_SOURCE, VOUCHER_SOURCE } from './voucher.fields';
import { RESOURCE } from '../common/resources/resource-identities';

/** The voucher whose codes are listed under its path. */
const VOUCHER: ParentResource = {
  table: 'vouchers',
  prefix: RESOURCE.voucher.prefix,
  noun: RESOURCE.voucher.noun,
  column: 'vc.voucher_id',
};

/** Reads a box office's vouchers and their codes (docs/API.md, "Vouchers"). */
@Injectable()
export class VouchersService {
  readonly vouchers: ResourceReader;
  readonly codes: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.vouchers = new ResourceReader(dataSource, VOUCHER_SOURCE);
    this.codes = new ResourceReader(dataSource, VOUCHER_CODE_SOURCE);
  }

  list(boxOfficeId: number, query: ListVouchersQueryDto): Promise<Page> {
    return this.vouchers.page(boxOfficeId, pageRequest(query, []));
  }

  /** One voucher's JSON bytes; 404 for a malformed id, a missing voucher or another box office's. */
  retrieve(boxOfficeId: number, voucherId: string): Promise<Buffer> {
    return this.vouchers.one(boxOfficeId, voucherId);
  }

  /**
   * A page of a voucher's codes: the voucher is the list's scope, so that a cursor naming
   * another voucher's code is refused, and an unknown voucher is a 404.
   */
  async listCodes(
    boxOfficeId: number,
    voucherId: string,
    query: ListVoucherCodesQueryDto,
  ): Promise<Page> {
    const scope = await parentScope(
      this.codes,
      boxOfficeId,
      voucherId,
      VOUCHER,
    );
    return this.codes.page(boxOfficeId, pageRequest(query, [], { scope }));
  }

  /** One code of a voucher; 404 unless the voucher is the box office's and the code its. */
  async retrieveCode(
    boxOfficeId: number,
    voucherId: string,
    codeId: string,
  ): Promise<Buffer> {
    const scope = await parentScope(
      this.codes,
      boxOfficeId,
      voucherId,
      VOUCHER,
    );
    return this.codes.one(boxOfficeId, codeId, scope);
  }
}
