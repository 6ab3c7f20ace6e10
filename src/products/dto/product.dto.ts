import { CURRENCY_CODES } from '../../common/currencies';
import { DateObjectDto } from '../../common/dto/date-object.dto';
import {
  ArrayOf,
  COUNT,
  FLAG,
  INT32,
  Id,
  Integer,
  Literal,
  MAX_DESCRIPTION,
  Nested,
  NullableText,
  OneOf,
  Text,
  idSchema,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { FULFILMENT_TYPES, PRODUCT_STATUSES } from '../entities/product.entity';
import { RESOURCE, pathOf } from '../../common/resources/resource-identities';

/** The most series one product names: a bound of the document, not of the database. */
export const MAX_LINKED_SERIES = 1_000;

// The response schema for the OpenAPI document: exactly the fields product.fields.ts emits.

export class ProductDto {
  @Literal(RESOURCE.product.object)
  object: string;

  @Id(RESOURCE.product.prefix)
  id: string;

  @Text(200, { example: 'Souvenir programme' })
  name: string;

  @NullableText(MAX_DESCRIPTION, { description: 'Description' })
  description: string | null;

  @Integer(INT32, {
    description: 'Price of one, minor units of its currency',
    example: 800,
  })
  price: number;

  @OneOf(CURRENCY_CODES, { example: 'gbp' })
  currency: string;

  @OneOf(PRODUCT_STATUSES)
  status: string;

  @OneOf(FULFILMENT_TYPES, { description: 'How the buyer receives it' })
  fulfilment_type: string;

  @OneOf(FLAG, {
    description: '"true" when it names no series: sold with every series',
  })
  linked_to_all_event_series: string;

  @ArrayOf(String, MAX_LINKED_SERIES, {
    items: idSchema(RESOURCE.eventSeries.prefix),
    description:
      'The series it is sold with, by id; [] when linked to all of them',
  })
  event_series_ids: string[];

  @Integer(COUNT, {
    description:
      'Units in completed orders: the Σ quantity of the product line items naming it',
  })
  quantity_sold: number;

  @Nested(DateObjectDto, {
    description: 'When it was created, in the box office’s time zone',
  })
  created_at: DateObjectDto;

  @Nested(DateObjectDto, {
    description:
      'When what it shows last changed (not its sales), in the box office’s time zone',
  })
  updated_at: DateObjectDto;
}

export class ProductListDto extends PageDto(ProductDto, {
  path: pathOf(RESOURCE.product),
  prefix: RESOURCE.product.prefix,
}) {}
