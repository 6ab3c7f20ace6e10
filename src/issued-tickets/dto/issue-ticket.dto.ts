import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Length, Matches } from 'class-validator';
import { EMAIL, idSchema } from '../../common/openapi/api-properties';
import { Given, NotRepeated } from '../../common/validation/strict-query';
import { WriteBodyDto } from '../../common/writes/write-body.dto';
import {
  RESOURCE,
  exampleId,
  idForm,
  idRegExp,
} from '../../common/resources/resource-identities';

/** Longest holder name: each of first_name and last_name it is split into fits its column. */
const MAX_FULL_NAME = 200;

/**
 * `POST /v1/issued_tickets`: a ticket issued on its own, with no order (docs/API.md,
 * "POST /v1/issued_tickets"). JSON or form fields.
 */
export class IssueTicketDto extends WriteBodyDto {
  @ApiProperty({
    ...idSchema(RESOURCE.event.prefix),
    description: 'The event',
    example: exampleId(RESOURCE.event),
  })
  @IsDefined({ message: 'event_id is required: the event of the ticket' })
  @NotRepeated()
  @Matches(idRegExp(RESOURCE.event), {
    message: `event_id must be an event id (${idForm(RESOURCE.event)})`,
  })
  event_id: string;

  @ApiProperty({
    ...idSchema(RESOURCE.ticketType.prefix),
    description: 'The ticket type to issue, one of the event’s',
    example: exampleId(RESOURCE.ticketType),
  })
  @IsDefined({ message: 'ticket_type_id is required: the ticket type issued' })
  @NotRepeated()
  @Matches(idRegExp(RESOURCE.ticketType), {
    message: `ticket_type_id must be a ticket type id (${idForm(RESOURCE.ticketType)})`,
  })
  ticket_type_id: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MAX_FULL_NAME,
    pattern: '\\S',
    description:
      'The holder’s name: its first word is the first_name, the rest the last_name',
    example: 'Jane Doe',
  })
  @Given()
  @NotRepeated()
  @IsString({ message: 'full_name must be a string' })
  @Length(1, MAX_FULL_NAME, {
    message: `full_name must be 1 to ${MAX_FULL_NAME} characters`,
  })
  @Matches(/\S/, { message: 'full_name must not be blank' })
  full_name?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: EMAIL.maxLength,
    pattern: EMAIL.pattern,
    description: 'The holder’s e-mail address',
    example: 'jane.doe@example.com',
  })
  @Given()
  @NotRepeated()
  @IsString({ message: 'email must be a string' })
  @Length(3, EMAIL.maxLength, {
    message: `email must be an e-mail address of at most ${EMAIL.maxLength} characters`,
  })
  @Matches(new RegExp(EMAIL.pattern), {
    message: 'email must be an e-mail address (name@host)',
  })
  email?: string;
}

/**
 * `POST /v1/issued_tickets/{id}/void`: no fields but the retry key (docs/API.md,
 * "POST /v1/issued_tickets/{id}/void").
 */
export class VoidTicketDto extends WriteBodyDto {}
