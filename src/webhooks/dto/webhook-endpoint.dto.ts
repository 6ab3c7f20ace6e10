import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayOf,
  Id,
  Integer,
  INT32,
  Literal,
  NullableInteger,
  NullableText,
  OneOf,
  Text,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhook-url-guard';
import { WEBHOOK_EVENT_CHOICES } from './webhook-endpoint-write.dto';
import {
  RESOURCE,
  exampleId,
  pathOf,
  itemPathOf,
} from '../../common/resources/resource-identities';

export class WebhookEndpointDto {
  @Literal(RESOURCE.webhookEndpoint.object)
  object: string;

  @Id(RESOURCE.webhookEndpoint.prefix)
  id: string;

  @Text(MAX_WEBHOOK_URL_LENGTH, {
    format: 'uri',
    description: 'Where events are sent',
  })
  url: string;

  @NullableText(500, { description: 'What it is for, for people' })
  description: string | null;

  @ArrayOf(String, WEBHOOK_EVENT_CHOICES.length, {
    items: { enum: [...WEBHOOK_EVENT_CHOICES] },
    description: 'The events sent to it (`*`: every one)',
  })
  enabled_events: string[];

  @OneOf(['enabled', 'disabled'], {
    description:
      'disabled: nothing is sent (set by hand, by a 410 answer, or after the last retry failed)',
  })
  status: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds: when it was created' })
  created_at: number;

  @Integer(UNIX_SECONDS, {
    description: 'Unix seconds: when it was last changed',
  })
  updated_at: number;
}

/** The answer that creates an endpoint: the endpoint and, this once, its signing secret. */
export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({
    type: String,
    pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
    maxLength: 50,
    description:
      'The signing secret, shown only in this answer: keep it to verify deliveries',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9fW8i9pWWWQ=',
  })
  secret: string;
}

export class WebhookEndpointListDto extends PageDto(WebhookEndpointDto, {
  path: pathOf(RESOURCE.webhookEndpoint),
  prefix: RESOURCE.webhookEndpoint.prefix,
}) {}

export class WebhookDeliveryDto {
  @Literal(RESOURCE.webhookDelivery.object)
  object: string;

  @Id(RESOURCE.webhookDelivery.prefix)
  id: string;

  @ApiProperty({
    type: String,
    pattern: `^${RESOURCE.webhookEvent.prefix}[1-9][0-9]*$`,
    maxLength: 20,
    description:
      "The event's id, the same on every attempt and replay to this endpoint (its change-feed number)",
    example: exampleId(RESOURCE.webhookEvent),
  })
  webhook_id: string;

  @Text(32, { description: 'The event (a change-feed type)' })
  event: string;

  @NullableInteger(
    { ...INT32, minimum: 100, maximum: 599 },
    {
      description: "The receiver's HTTP status, or null when none came",
    },
  )
  status_code: number | null;

  @NullableText(255, {
    description:
      'Why it failed without a status (timeout, connection refused, a refused address…), or a redirect not followed; null otherwise',
  })
  error: string | null;

  @Integer(INT32, { description: 'How long the attempt took, in milliseconds' })
  duration_ms: number;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds: when it was made' })
  attempted_at: number;
}

export class WebhookDeliveryListDto extends PageDto(WebhookDeliveryDto, {
  path: `${itemPathOf(RESOURCE.webhookEndpoint, 1)}/deliveries`,
  pathPattern: `${itemPathOf(RESOURCE.webhookEndpoint, '[1-9][0-9]*')}/deliveries`,
  prefix: RESOURCE.webhookDelivery.prefix,
}) {}
