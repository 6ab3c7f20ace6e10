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
import { VoucherDto, VoucherListDto } from './dto/voucher.dto';
import { ListVouchersQueryDto } from './dto/list-vouchers-query.dto';
import { VouchersService } from './vouchers.service';
import { RESOURCE } from '../common/resources/resource-identities';

/**
 * Vouchers (docs/API.md, "Vouchers"). Not revalidated from the data version: a voucher's
 * available codes fall to 0 when it expires, with the clock; a 304 is decided by the bytes.
 */
@ApiResource(RESOURCE.voucher.tag)
@Controller({ path: RESOURCE.voucher.segment, version: '1' })
export class VouchersController {
  constructor(private readonly vouchers: VouchersService) {}

  @Get()
  @ApiList({
    operationId: 'listVouchers',
    summary: "List the box office's vouchers",
    description:
      'Gift vouchers and credit, each a batch of codes of one value, newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous.',
    type: VoucherListDto,
    noun: RESOURCE.voucher.noun,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListVouchersQueryDto,
  ): Promise<Page> {
    return this.vouchers.list(caller.boxOfficeId, query);
  }

  @Get(':voucher_id')
  @ApiRetrieve({
    operationId: 'retrieveVoucher',
    summary: 'Retrieve one voucher',
    description:
      'The same object as its entry in the list; another box office’s voucher is not found.',
    type: VoucherDto,
    noun: RESOURCE.voucher.noun,
    param: 'voucher_id',
    prefix: RESOURCE.voucher.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('voucher_id') voucherId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.vouchers.retrieve(caller.boxOfficeId, voucherId);
  }
}
