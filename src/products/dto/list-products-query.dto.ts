import {
  CursorQueryDto,
  OneOrCommaListOf,
} from '../../common/pagination/list-query.dto';
import { PRODUCT_STATUSES } from '../entities/product.entity';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/products` query (docs/API.md, "GET /v1/products"). */
export class ListProductsQueryDto extends CursorQueryDto(
  RESOURCE.product.noun,
  RESOURCE.product.prefix,
) {
  @OneOrCommaListOf('status', PRODUCT_STATUSES)
  status?: string;
}
