import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { VoucherCodeDto, VoucherCodeListDto } from './dto/voucher.dto';
import { ListVoucherCodesQueryDto } from './dto/list-vouchers-query.dto';
import { VouchersService } from './vouchers.service';
import { RESOURCE } from '../common/resources/resource-identities';

const VOUCHER = {
  param: 'voucher_id',
  prefix: RESOURCE.voucher.prefix,
  noun: RESOURCE.voucher.noun,
};

/**
 * A voucher's codes, under its path (docs/API.md, "Vouchers"), nested as a series' events are.
 * A code's value moves with the orders that spend it (their change entries) and with the
 * catalogue, never with the clock: revalidated from both.
 */
@ApiResource(RESOURCE.voucher.tag)
@Controller({
  path: `${RESOURCE.voucher.segment}/:voucher_id/codes`,
  version: '1',
})
export class VoucherCodesController {
  constructor(private readonly vouchers: VouchersService) {}

  @RevalidatedByDataVersion({ catalogue: true })
  @Get()
  @ApiList({
    operationId: 'listVoucherCodes',
    summary: "List a voucher's codes",
    description:
      'Newest first (created_at, then id, descending). An unknown voucher is not found; a cursor naming another voucher’s code is an INVALID_CURSOR.',
    type: VoucherCodeListDto,
    noun: RESOURCE.voucherCode.noun,
    parent: VOUCHER,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Param('voucher_id') voucherId: string,
    @Query() query: ListVoucherCodesQueryDto,
  ): Promise<Page> {
    return this.vouchers.listCodes(caller.boxOfficeId, voucherId, query);
  }

  @RevalidatedByDataVersion({ catalogue: true })
  @Get(':code_id')
  @ApiRetrieve({
    operationId: 'retrieveVoucherCode',
    summary: 'Retrieve one code of a voucher',
    description:
      'The same object as in the list; not found unless the code belongs to the voucher.',
    type: VoucherCodeDto,
    noun: RESOURCE.voucherCode.noun,
    param: 'code_id',
    prefix: RESOURCE.voucherCode.prefix,
    parent: VOUCHER,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('voucher_id') voucherId: string,
    @Param('code_id') codeId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.vouchers.retrieveCode(caller.boxOfficeId, voucherId, codeId);
  }
}
