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
import { ProductDto, ProductListDto } from './dto/product.dto';
import { ListProductsQueryDto } from './dto/list-products-query.dto';
import { ProductsService } from './products.service';
import { RESOURCE } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.product.tag)
@Controller({ path: RESOURCE.product.segment, version: '1' })
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @RevalidatedByDataVersion({ catalogue: true })
  @Get()
  @ApiList({
    operationId: 'listProducts',
    summary: "List the box office's products",
    description:
      'Add-ons sold beside tickets, newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters.',
    type: ProductListDto,
    noun: RESOURCE.product.noun,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListProductsQueryDto,
  ): Promise<Page> {
    return this.products.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion({ catalogue: true })
  @Get(':product_id')
  @ApiRetrieve({
    operationId: 'retrieveProduct',
    summary: 'Retrieve one product',
    description:
      'The same object as its entry in the list; another box office’s product is not found.',
    type: ProductDto,
    noun: RESOURCE.product.noun,
    param: 'product_id',
    prefix: RESOURCE.product.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('product_id') productId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.products.retrieve(caller.boxOfficeId, productId);
  }
}
