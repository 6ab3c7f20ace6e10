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
import {
  RESOURCE,
  itemPathOf,
} from '../../common/resources/resource-identities';

// The response schema for the OpenAPI document: exactly the fields waitlist-signup.fields.ts
// emits.

export class WaitlistSignupDto {
  @Literal(RESOURCE.waitlistSignup.object)
  object: string;

  @Id(RESOURCE.waitlistSignup.prefix)
  id: string;

  @Text(EMAIL.maxLength, {
    pattern: EMAIL.pattern,
    description: 'Who is waiting',
    example: 'jane.doe@example.com',
  })
  email: string;

  @NullableId(RESOURCE.event.prefix, {
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
  path: `${itemPathOf(RESOURCE.eventSeries, 1)}/waitlist_signups`,
  pathPattern: `${itemPathOf(RESOURCE.eventSeries, '[1-9][0-9]*')}/waitlist_signups`,
  prefix: RESOURCE.waitlistSignup.prefix,
}) {}
