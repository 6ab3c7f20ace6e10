import { CURRENCY_CODES } from '../../common/currencies';
import { DateObjectDto } from '../../common/dto/date-object.dto';
import {
  ArrayOf,
  COUNT,
  FLAG,
  Id,
  Integer,
  Literal,
  NullableNested,
  OneOf,
  Text,
  idSchema,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { VOUCHER_TYPES } from '../entities/voucher.entity';
import {
  RESOURCE,
  pathOf,
  itemPathOf,
} from '../../common/resources/resource-identities';

/** The most series one voucher names: a bound of the document, not of the database. */
export const MAX_VOUCHER_SERIES = 1_000;

// The response schemas for the OpenAPI document: exactly the fields voucher.fields.ts emits.

const EXPIRY = {
  description:
    'When its codes expire (they cannot be spent from that instant), in the box office’s time zone; null when they never do',
};

export class VoucherDto {
  @Literal(RESOURCE.voucher.object)
  object: string;

  @Id(RESOURCE.voucher.prefix)
  id: string;

  @Text(200, { example: 'Gift voucher' })
  name: string;

  @OneOf(VOUCHER_TYPES)
  type: string;

  @Integer(COUNT, {
    description: 'What each code was issued with, minor units of its currency',
    example: 2500,
  })
  value: number;

  @OneOf(CURRENCY_CODES, { example: 'gbp' })
  currency: string;

  @NullableNested(DateObjectDto, EXPIRY)
  expiry: DateObjectDto | null;

  @OneOf(FLAG, {
    description:
      '"true": a code may be spent over several orders; "false": once, whole',
  })
  partial_redemption: string;

  @Integer(COUNT, { description: 'Its codes' })
  total_codes: number;

  @Integer(COUNT, {
    description:
      'Its codes with value left, while not expired (0 once the voucher has expired)',
  })
  available_codes: number;

  @OneOf(FLAG, {
    description: '"true" when it names no series: usable on any event',
  })
  usable_on_any_event: string;

  @ArrayOf(String, MAX_VOUCHER_SERIES, {
    items: idSchema(RESOURCE.eventSeries.prefix),
    description: 'The series its codes are usable on; [] when usable on any',
  })
  event_series_ids: string[];
}

export class VoucherListDto extends PageDto(VoucherDto, {
  path: pathOf(RESOURCE.voucher),
  prefix: RESOURCE.voucher.prefix,
}) {}

export class VoucherCodeDto {
  @Literal(RESOURCE.voucherCode.object)
  object: string;

  @Id(RESOURCE.voucherCode.prefix)
  id: string;

  @Text(64, { description: 'What the buyer types', example: 'GC-7K2M-QX4P' })
  code: string;

  @Id(RESOURCE.voucher.prefix, { description: 'Its voucher' })
  voucher_id: string;

  @Integer(COUNT, {
    description:
      'What is left: the voucher’s value less the gift_card line items naming the code in completed orders, never below 0',
  })
  value: number;

  @NullableNested(DateObjectDto, EXPIRY)
  expiry: DateObjectDto | null;
}

/** A voucher's codes, under its path (`/v1/vouchers/vo_3/codes`). */
export class VoucherCodeListDto extends PageDto(VoucherCodeDto, {
  path: `${itemPathOf(RESOURCE.voucher, 1)}/codes`,
  pathPattern: `${itemPathOf(RESOURCE.voucher, '[1-9][0-9]*')}/codes`,
  prefix: RESOURCE.voucherCode.prefix,
}) {}
