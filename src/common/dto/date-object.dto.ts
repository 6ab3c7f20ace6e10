import { Integer, Text, UNIX_SECONDS } from '../openapi/api-properties';

/** docs/API.md, "Date objects": an instant as a resource's time zone shows it. */
export class DateObjectDto {
  @Text(10, {
    format: 'date',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description: 'Local date',
    example: '2026-06-20',
  })
  date: string;

  @Text(24, {
    pattern:
      '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([1-9]|[12][0-9]|3[01]) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} ([1-9]|1[0-2]):[0-5][0-9] (AM|PM)$',
    description: 'Local date and time in English, 12-hour clock',
    example: 'Sat 20 Jun 2026 7:30 PM',
  })
  formatted: string;

  @Text(25, {
    format: 'date-time',
    pattern:
      '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$',
    description: 'ISO 8601 local date-time with its UTC offset',
    example: '2026-06-20T19:30:00+01:00',
  })
  iso: string;

  @Text(5, {
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'Local time, 24-hour',
    example: '19:30',
  })
  time: string;

  @Text(6, {
    pattern: '^[+-][0-9]{2}:[0-9]{2}$',
    description: "UTC offset at that instant in the event's time zone",
    example: '+01:00',
  })
  timezone: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds', example: 1781980200 })
  unix: number;
}
