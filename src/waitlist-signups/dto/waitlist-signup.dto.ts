import { DateObjectDto } from '../../common/dto/date-object.dto';
import {
  EMAIL,
  Id,
  Literal,
  Nested,
  NullableId,
  Text,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';

// The response schema for the OpenAPI document: exactly the fields waitlist-signup.fields.ts
// emits.

export class WaitlistSignupDto {
  @Literal('waitlist_signup')
  object: string;

  @Id('ws_')
  id: string;

  @Text(EMAIL.maxLength, {
    pattern: EMAIL.pattern,
    description: 'Who is waiting',
    example: 'jane.doe@example.com',
  })
  email: string;

  @NullableId('ev_', {
    description:
      'The date asked for, an event of the series; null for any date',
  })
  event_id: string | null;

  @Nested(DateObjectDto, {
    description: 'When they signed up, in the series’ time zone',
  })
  created_at: DateObjectDto;
}

/** A series' signups, under its path (`/v1/event_series/es_3/waitlist_signups`). */
export class WaitlistSignupListDto extends PageDto(WaitlistSignupDto, {
  path: '/v1/event_series/es_1/waitlist_signups',
  pathPattern: '/v1/event_series/es_[1-9][0-9]*/waitlist_signups',
  prefix: 'ws_',
}) {}
