import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { CHANGE_TYPES } from '../../changes/change-feed';
import { Given, NotRepeated } from '../../common/validation/strict-query';
import { WriteBodyDto } from '../../common/writes/write-body.dto';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhook-url-guard';
import { RESOURCE, idOf } from '../../common/resources/resource-identities';

/** What `enabled_events` may list: the change feed's types, or `*` for all of them. */
export const WEBHOOK_EVENT_CHOICES = ['*', ...CHANGE_TYPES] as const;

const MAX_DESCRIPTION = 500;

const EVENTS_MESSAGE = `enabled_events must list events of ${WEBHOOK_EVENT_CHOICES.join(', ')}`;

/**
 * `enabled_events` as a list: a JSON array as it is, form fields' comma list (`ORDER.CREATED,
 * ORDER.UPDATED`) split, each name trimmed; duplicates dropped.
 */
const EventList = () =>
  Transform(({ value }: { value: unknown }) => {
    const list =
      typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value;
    return Array.isArray(list) ? [...new Set(list)] : list;
  });

/**
 * A URL as RFC 3986 writes it, what `format: uri` promises readers of the endpoint: printable
 * ASCII, no space. Other characters are percent-encoded, an international domain name is written
 * in punycode (as a browser's address bar copies it). So 2,048 characters are 2,048 bytes, and
 * the largest create fits MAX_BODY_BYTES in any encoding (docs/DESIGN.md).
 */
const URL_CHARACTERS = /^[\x21-\x7e]*$/;
const URL_CHARACTERS_MESSAGE =
  'url must be printable ASCII without spaces: percent-encode other characters, and write an international domain name in punycode';

const urlProperty = {
  type: String,
  format: 'uri',
  pattern: '^[\\x21-\\x7e]+$',
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  description:
    'Where events are sent: an https:// URL (http:// only where the operator allows private URLs) whose host resolves to public addresses only',
  example: 'https://example.com/webhooks/box-office',
};

const eventsProperty = {
  type: [String],
  enum: [...WEBHOOK_EVENT_CHOICES],
  enumName: 'WebhookEvent',
  minItems: 1,
  maxItems: WEBHOOK_EVENT_CHOICES.length,
  description:
    'The events sent to it: change-feed types, or `*` for every one. As form fields, a comma list.',
  example: ['ORDER.CREATED', 'ORDER.UPDATED'],
};

const descriptionProperty = {
  type: String,
  maxLength: MAX_DESCRIPTION,
  nullable: true,
  description: 'What it is for, for people',
};

/** `POST /v1/webhook_endpoints` (docs/API.md, "Webhooks"): JSON or form fields. */
export class CreateWebhookEndpointDto extends WriteBodyDto {
  @ApiProperty(urlProperty)
  @IsDefined({ message: 'url is required' })
  @NotRepeated()
  @Matches(URL_CHARACTERS, { message: URL_CHARACTERS_MESSAGE })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
  })
  @IsString({ message: 'url must be a string' })
  url: string;

  @ApiProperty(eventsProperty)
  @IsDefined({ message: 'enabled_events is required' })
  @EventList()
  @IsIn(WEBHOOK_EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  @ArrayMaxSize(WEBHOOK_EVENT_CHOICES.length, { message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: 'enabled_events must list at least one event' })
  @IsArray({ message: EVENTS_MESSAGE })
  enabled_events: string[];

  @ApiPropertyOptional(descriptionProperty)
  @ValidateIf(
    (_body: unknown, value: unknown) => value !== undefined && value !== null,
  )
  @NotRepeated()
  @MaxLength(MAX_DESCRIPTION, {
    message: `description must be at most ${MAX_DESCRIPTION} characters`,
  })
  @IsString({ message: 'description must be a string' })
  description?: string | null;
}

/** `POST /v1/webhook_endpoints/{id}`: the fields to change, each optional. */
export class UpdateWebhookEndpointDto extends WriteBodyDto {
  @ApiPropertyOptional(urlProperty)
  @Given()
  @NotRepeated()
  @Matches(URL_CHARACTERS, { message: URL_CHARACTERS_MESSAGE })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
  })
  @IsString({ message: 'url must be a string' })
  url?: string;

  @ApiPropertyOptional(eventsProperty)
  @Given()
  @EventList()
  @IsIn(WEBHOOK_EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  @ArrayMaxSize(WEBHOOK_EVENT_CHOICES.length, { message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: 'enabled_events must list at least one event' })
  @IsArray({ message: EVENTS_MESSAGE })
  enabled_events?: string[];

  @ApiPropertyOptional({
    type: String,
    enum: ['enabled', 'disabled'],
    description:
      'disabled: nothing is sent; enabled again, delivery resumes with the event it stopped at',
  })
  @Given()
  @NotRepeated()
  @IsIn(['enabled', 'disabled'], {
    message: 'status must be enabled or disabled',
  })
  status?: 'enabled' | 'disabled';

  @ApiPropertyOptional(descriptionProperty)
  @ValidateIf(
    (_body: unknown, value: unknown) => value !== undefined && value !== null,
  )
  @NotRepeated()
  @MaxLength(MAX_DESCRIPTION, {
    message: `description must be at most ${MAX_DESCRIPTION} characters`,
  })
  @IsString({ message: 'description must be a string' })
  description?: string | null;
}

/** `chg_<n>`, as the messages name a position. */
const POSITION = idOf(RESOURCE.change, '<n>');

/** `POST /v1/webhook_endpoints/{id}/replay`: the position after which events are sent again. */
export class ReplayWebhooksDto extends WriteBodyDto {
  @ApiProperty({
    type: String,
    pattern: `^${RESOURCE.change.prefix}(0|[1-9][0-9]{0,15})$`,
    maxLength: 20,
    description: `A change-feed position (${POSITION}): every event after it that the feed still holds is sent again, in order`,
    example: idOf(RESOURCE.change, 0),
  })
  @IsDefined({ message: `starting_after is required: a position ${POSITION}` })
  @NotRepeated()
  @IsString({ message: `starting_after must be a position ${POSITION}` })
  starting_after: string;
}
