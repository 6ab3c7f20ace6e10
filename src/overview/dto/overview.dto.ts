import { ApiProperty } from '@nestjs/swagger';
import { CURRENCY_CODES } from '../../common/currencies';
import {
  COUNT,
  Integer,
  Literal,
  Nested,
  OneOf,
  Text,
} from '../../common/openapi/api-properties';

export class OverviewCurrencyDto {
  @OneOf(CURRENCY_CODES, { example: 'gbp' })
  code: string;

  @Text(8, { example: '£' })
  symbol: string;
}

/** `GET /v1/overview` (docs/API.md, "Overview"). */
export class OverviewDto {
  @Literal('overview')
  object: string;

  @Text(200, { example: 'Demo Box Office' })
  box_office_name: string;

  @Nested(OverviewCurrencyDto, {
    description: 'The box office’s main currency',
  })
  currency: OverviewCurrencyDto;

  @ApiProperty({
    type: String,
    enum: ['four weeks'],
    description: 'The 28 days (2,419,200 seconds) before the request',
  })
  period: string;

  @Integer(
    { format: 'int64', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 },
    {
      description:
        'Σ (total − refund_amount) over completed orders created in the period and paid in the main currency, minor units',
    },
  )
  revenue: number;

  @Integer(COUNT, { description: 'Completed orders created in the period' })
  orders_received: number;

  @Integer(COUNT, { description: 'Valid tickets issued in the period' })
  total_issued_tickets: number;

  @Integer(COUNT, { description: 'Published event series, now' })
  event_series_published: number;

  @Integer(COUNT, { description: 'Draft event series, now' })
  event_series_draft: number;

  @Integer(COUNT, { description: 'Published events (dates), now' })
  event_occurrences_published: number;

  @Integer(COUNT, { description: 'Draft events (dates), now' })
  event_occurrences_draft: number;
}
