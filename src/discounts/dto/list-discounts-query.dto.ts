import { TextParam } from '../../common/pagination/filter-params';
import { CursorQueryDto } from '../../common/pagination/list-query.dto';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/discounts` query (docs/API.md, "GET /v1/discounts"). */
export class ListDiscountsQueryDto extends CursorQueryDto(
  RESOURCE.discount.noun,
  RESOURCE.discount.prefix,
) {
  @TextParam('code', 64, 'The discount with this code, ignoring case')
  code?: string;
}
