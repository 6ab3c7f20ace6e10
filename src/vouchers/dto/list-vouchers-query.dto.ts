import { CursorQueryDto } from '../../common/pagination/list-query.dto';
import { RESOURCE } from '../../common/resources/resource-identities';

/** `GET /v1/vouchers` query (docs/API.md, "GET /v1/vouchers"). */
export class ListVouchersQueryDto extends CursorQueryDto(
  RESOURCE.voucher.noun,
  RESOURCE.voucher.prefix,
) {}

/** `GET /v1/vouchers/{voucher_id}/codes` query. */
export class ListVoucherCodesQueryDto extends CursorQueryDto(
  RESOURCE.voucherCode.noun,
  RESOURCE.voucherCode.prefix,
) {}
