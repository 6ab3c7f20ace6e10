import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  type ValidationArguments,
  registerDecorator,
} from 'class-validator';
import { KEY_SHAPE } from '../../common/idempotency/idempotency-keys';
import { UNIX_SECONDS, idSchema } from '../../common/openapi/api-properties';
import {
  EnumParam,
  MAX_IDS,
  idListPattern,
} from '../../common/pagination/filter-params';
import {
  Given,
  NotRepeated,
  StrictInt,
} from '../../common/validation/strict-query';
import {
  RESOURCE,
  exampleId,
  idOf,
  idForm,
  idRegExp,
} from '../../common/resources/resource-identities';

/** Longest barcode a ticket has (the column's length). */
const MAX_BARCODE = 64;

const CHECK_IN_AT_MESSAGE = `check_in_at must be Unix seconds, an integer from ${UNIX_SECONDS.minimum} to ${UNIX_SECONDS.maximum}`;

/** Fails when `other` is given too: two fields that name the same thing, only one of which may be sent. */
function NotWith(
  other: string,
  options: { message: string },
): PropertyDecorator {
  return (target: object, property: string | symbol) =>
    registerDecorator({
      name: 'notWith',
      target: target.constructor,
      propertyName: String(property),
      options,
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) =>
          (args?.object as Record<string, unknown> | undefined)?.[other] ===
          undefined,
      },
    });
}

/**
 * `POST /v1/check_ins`: one door scan (docs/API.md, "POST /v1/check_ins"). Sent as JSON or as
 * form fields, whose values are strings: `quantity` and `check_in_at` take a canonical decimal
 * string as well as a number. The ticket is named by exactly one of `issued_ticket_id` and
 * `barcode`.
 */
const [EV1, EV2] = [1, 2].map((n) => idOf(RESOURCE.event, n));

export class RecordCheckInDto {
  @ApiPropertyOptional({
    ...idSchema(RESOURCE.issuedTicket.prefix),
    description:
      'The ticket scanned, by its id; send this or `barcode`, not both',
    example: exampleId(RESOURCE.issuedTicket),
  })
  // Checked when given, and when barcode is not: then it is missing.
  @ValidateIf(
    (scan: RecordCheckInDto) =>
      scan.barcode === undefined || scan.issued_ticket_id !== undefined,
  )
  @IsDefined({
    message: 'issued_ticket_id or barcode is required: the ticket scanned',
  })
  @NotRepeated()
  @Matches(idRegExp(RESOURCE.issuedTicket), {
    message: `issued_ticket_id must be an issued ticket id (${idForm(RESOURCE.issuedTicket)})`,
  })
  issued_ticket_id?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MAX_BARCODE,
    description:
      'The ticket scanned, by the barcode printed on it; send this or `issued_ticket_id`, not both',
  })
  @Given()
  @NotRepeated()
  @Length(1, MAX_BARCODE, {
    message: `barcode must be 1 to ${MAX_BARCODE} characters`,
  })
  @IsString({ message: 'barcode must be a string' })
  @NotWith('issued_ticket_id', {
    message: 'send issued_ticket_id or barcode, not both',
  })
  barcode?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    enum: [1, -1],
    minimum: -1,
    maximum: 1,
    default: 1,
    description: '1 checks the ticket in (the default), -1 checks it out',
  })
  @Given()
  @StrictInt()
  @NotRepeated()
  @IsIn([1, -1], {
    message: 'quantity must be 1 (check in) or -1 (check out)',
  })
  quantity?: 1 | -1;

  @ApiPropertyOptional({
    type: 'integer',
    ...UNIX_SECONDS,
    description:
      'Unix seconds: when the scan was made, for a scan made offline and sent later (default: now). At most 60 seconds ahead of the service’s clock, and not before the ticket was issued; a time ahead of the clock is recorded as the moment of recording.',
  })
  @Given()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: CHECK_IN_AT_MESSAGE })
  @Min(UNIX_SECONDS.minimum, { message: CHECK_IN_AT_MESSAGE })
  @Max(UNIX_SECONDS.maximum, { message: CHECK_IN_AT_MESSAGE })
  check_in_at?: number;

  @ApiPropertyOptional({
    type: String,
    pattern: idListPattern(RESOURCE.event.prefix),
    maxLength: MAX_IDS * (idSchema(RESOURCE.event.prefix).maxLength + 1) - 1,
    description: `The door’s events: one event id, or a comma list of up to 100 (\`${EV1}\` or \`${EV1},${EV2}\`). A ticket of another event is refused (409 WRONG_EVENT) and nothing is written. Absent: any event of the box office.`,
  })
  @Given()
  @NotRepeated()
  @IsString({ message: 'event_id must be an id or a comma list of them' })
  @Matches(new RegExp(idListPattern(RESOURCE.event.prefix)), {
    message: `event_id must be an id (${idForm(RESOURCE.event)}) or a comma list of up to ${MAX_IDS}`,
  })
  event_id?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 255,
    pattern: KEY_SHAPE.source,
    description:
      'Ticket Tailor’s retry key, 1 to 255 printable ASCII characters: the Idempotency-Key of the scan when that header is absent; when both are sent they must be equal.',
  })
  @Given()
  @NotRepeated()
  @IsString({ message: 'local_unique_id must be a string' })
  @Matches(KEY_SHAPE, {
    message: 'local_unique_id must be 1 to 255 printable ASCII characters',
  })
  local_unique_id?: string;
}

/** `POST /v1/check_ins` query: what the 201 carries besides the CheckIn. */
export class RecordCheckInQueryDto {
  @EnumParam(
    'expand',
    ['issued_ticket'],
    'issued_ticket: the 201 also carries the scanned ticket (the IssuedTicket, as GET /v1/issued_tickets/{id} serves it), so a gate shows who it let in without a second call',
  )
  expand?: 'issued_ticket';
}
