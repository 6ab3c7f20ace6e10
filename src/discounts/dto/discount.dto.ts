import {
  ArrayOf,
  COUNT,
  Id,
  Integer,
  Literal,
  OneOf,
  Text,
  idSchema,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { DISCOUNT_TYPES } from '../entities/discount.entity';
import { RESOURCE, pathOf } from '../../common/resources/resource-identities';

/** The most ticket types or products one discount names: a bound of the document. */
export const MAX_DISCOUNT_ITEMS = 1_000;

// The response schema for the OpenAPI document: exactly the fields discount.fields.ts emits.

export class DiscountDto {
  @Literal(RESOURCE.discount.object)
  object: string;

  @Id(RESOURCE.discount.prefix)
  id: string;

  @Text(200, { example: 'Supporters 10%' })
  name: string;

  @Text(64, { description: 'What the buyer types', example: 'SUPPORT10' })
  code: string;

  @OneOf(DISCOUNT_TYPES)
  type: string;

  @Integer(COUNT, {
    description:
      'fixed: minor units off each ticket’s price; percentage: a whole percentage (1–100) off it',
  })
  face_value_amount: number;

  @Integer(COUNT, {
    description:
      'fixed: minor units off each ticket’s booking fee; percentage: a whole percentage (1–100) off it',
  })
  booking_fee_amount: number;

  @ArrayOf(String, MAX_DISCOUNT_ITEMS, {
    items: idSchema(RESOURCE.ticketType.prefix),
    description: 'The ticket types it applies to; [] for all',
  })
  ticket_types: string[];

  @ArrayOf(String, MAX_DISCOUNT_ITEMS, {
    items: idSchema(RESOURCE.product.prefix),
    description: 'The products it also takes off',
  })
  products: string[];

  @Integer(COUNT, {
    description:
      'Completed orders whose gift_card line items name it (a discount applies to an order once)',
  })
  times_used: number;
}

export class DiscountListDto extends PageDto(DiscountDto, {
  path: pathOf(RESOURCE.discount),
  prefix: RESOURCE.discount.prefix,
}) {}
