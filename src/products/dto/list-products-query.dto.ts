import {
  CursorQueryDto,
  OneOrCommaListOf,
} from '../../common/pagination/list-query.dto';
import { PRODUCT_STATUSES } from '../entities/product.entity';

/** `GET /v1/products` query (docs/API.md, "GET /v1/products"). */
export class ListProductsQueryDto extends CursorQueryDto('product', 'pr_') {
  @OneOrCommaListOf('status', PRODUCT_STATUSES)
  status?: string;
}
