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
import { DiscountsService } from './discounts.service';
import { DiscountDto, DiscountListDto } from './dto/discount.dto';
import { ListDiscountsQueryDto } from './dto/list-discounts-query.dto';
import { RESOURCE } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.discount.tag)
@Controller({ path: RESOURCE.discount.segment, version: '1' })
export class DiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @RevalidatedByDataVersion({ catalogue: true })
  @Get()
  @ApiList({
    operationId: 'listDiscounts',
    summary: "List the box office's discounts",
    description:
      'Discount codes, newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters.',
    type: DiscountListDto,
    noun: RESOURCE.discount.noun,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListDiscountsQueryDto,
  ): Promise<Page> {
    return this.discounts.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion({ catalogue: true })
  @Get(':discount_id')
  @ApiRetrieve({
    operationId: 'retrieveDiscount',
    summary: 'Retrieve one discount',
    description:
      'The same object as its entry in the list; another box office’s discount is not found.',
    type: DiscountDto,
    noun: RESOURCE.discount.noun,
    param: 'discount_id',
    prefix: RESOURCE.discount.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('discount_id') discountId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.discounts.retrieve(caller.boxOfficeId, discountId);
  }
}
