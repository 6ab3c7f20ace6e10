import { TextParam } from '../../common/pagination/filter-params';
import { CursorQueryDto } from '../../common/pagination/list-query.dto';

/** `GET /v1/discounts` query (docs/API.md, "GET /v1/discounts"). */
export class ListDiscountsQueryDto extends CursorQueryDto('discount', 'di_') {
  @TextParam('code', 64, 'The discount with this code, ignoring case')
  code?: string;
}
