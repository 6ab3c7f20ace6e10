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
import { UNIX_SECONDS, idSchema } from '../../common/openapi/api-properties';
import { NotRepeated, StrictInt } from '../../common/validation/strict-query';

/** Longest barcode a ticket has (the column's length). */
const MAX_BARCODE = 64;

/**
 * Checks the field when the request has it. Unlike `@IsOptional()`, which skips `null` as well,
 * a JSON `null` is a value here and fails the checks that follow: a scan naming no ticket, or a
 * quantity nobody chose, is refused rather than read as the field's default.
 */
const Given = () =>
  ValidateIf((_scan: unknown, value: unknown) => value !== undefined);

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
export class RecordCheckInDto {
  @ApiPropertyOptional({
    ...idSchema('it_'),
    description:
      'The ticket scanned, by its id; send this or `barcode`, not both',
    example: 'it_1',
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
  @Matches(/^it_[1-9]\d{0,9}$/, {
    message: 'issued_ticket_id must be an issued ticket id (it_<number>)',
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
}
