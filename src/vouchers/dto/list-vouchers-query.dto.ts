import { CursorQueryDto } from '../../common/pagination/list-query.dto';

/** `GET /v1/vouchers` query (docs/API.md, "GET /v1/vouchers"). */
export class ListVouchersQueryDto extends CursorQueryDto('voucher', 'vo_') {}

/** `GET /v1/vouchers/{voucher_id}/codes` query. */
export class ListVoucherCodesQueryDto extends CursorQueryDto(
  'voucher code',
  'vc_',
) {}
