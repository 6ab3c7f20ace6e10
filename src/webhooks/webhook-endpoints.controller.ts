import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiUnsupportedMediaTypeResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { applyDecorators, type Type } from '@nestjs/common';
import type { Response } from 'express';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { RequiresScope } from '../auth/requires-scope.decorator';
import { ErrorBodyDto, InvalidBodyDto } from '../common/errors/error-body.dto';
import { BODY_TYPES, MAX_BODY_BYTES } from '../common/http/request-body';
import { CACHE_CONTROL } from '../common/http/cache-control';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
  WRITE_CACHE_CONTROL,
} from '../common/openapi/api-operations';
import { idSchema } from '../common/openapi/api-properties';
import { CursorQueryDto } from '../common/pagination/list-query.dto';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import {
  CreatedWebhookEndpointDto,
  WebhookDeliveryListDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
} from './dto/webhook-endpoint.dto';
import {
  CreateWebhookEndpointDto,
  ReplayWebhooksDto,
  UpdateWebhookEndpointDto,
} from './dto/webhook-endpoint-write.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import {
  RESOURCE,
  exampleId,
  pathOf,
  itemPathOf,
} from '../common/resources/resource-identities';

class ListWebhookEndpointsQueryDto extends CursorQueryDto(
  RESOURCE.webhookEndpoint.noun,
  RESOURCE.webhookEndpoint.prefix,
) {}

class ListWebhookDeliveriesQueryDto extends CursorQueryDto(
  RESOURCE.webhookDelivery.noun,
  RESOURCE.webhookDelivery.prefix,
) {}

const ENDPOINT_PARAM = 'webhook_endpoint_id';

/**
 * A write to webhook endpoints, described for the OpenAPI document: its body (JSON or form
 * fields, when it takes one), its answer, and the errors every write can answer.
 */
function ApiWebhookWrite({
  operationId,
  summary,
  description,
  body,
  answer,
  onEndpoint = true,
}: {
  operationId: string;
  summary: string;
  description: string;
  body?: Type;
  answer: MethodDecorator;
  onEndpoint?: boolean;
}) {
  return applyDecorators(
    ApiOperation({ operationId, summary, description }),
    ...(onEndpoint
      ? [
          ApiParam({
            name: ENDPOINT_PARAM,
            description:
              "The webhook endpoint's id; anything else names no endpoint (404)",
            schema: {
              ...idSchema(RESOURCE.webhookEndpoint.prefix),
              example: exampleId(RESOURCE.webhookEndpoint),
            },
          }),
          ApiNotFoundResponse({
            type: ErrorBodyDto,
            description:
              'NOT_FOUND: no such webhook endpoint in this box office, or a malformed id',
          }),
        ]
      : []),
    ...(body
      ? [
          ApiConsumes(...BODY_TYPES),
          ApiBody({ type: body }),
          ApiPayloadTooLargeResponse({
            type: ErrorBodyDto,
            description: `PAYLOAD_TOO_LARGE: a body of more than ${MAX_BODY_BYTES} bytes`,
          }),
          ApiUnsupportedMediaTypeResponse({
            type: ErrorBodyDto,
            description: `UNSUPPORTED_MEDIA_TYPE: a body that is not ${BODY_TYPES.join(' or ')}`,
          }),
        ]
      : []),
    answer,
    ApiBadRequestResponse({
      description:
        'VALIDATION_ERROR: bad fields (InvalidBody: `errors` lists each; a URL refused for its scheme, length or address among them), a body that does not parse, or a query parameter',
      schema: {
        oneOf: [
          { $ref: getSchemaPath(InvalidBodyDto) },
          { $ref: getSchemaPath(ErrorBodyDto) },
        ],
      },
    }),
    ApiForbiddenResponse({
      type: ErrorBodyDto,
      description: "FORBIDDEN: the API key's scope is not write",
    }),
  );
}

/** Webhook endpoints (docs/API.md, "Webhooks"): changes need scope `write`, reading any key. */
@ApiResource(RESOURCE.webhookEndpoint.tag)
@Controller({ path: RESOURCE.webhookEndpoint.segment, version: '1' })
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  @ApiList({
    operationId: 'listWebhookEndpoints',
    summary: "List the box office's webhook endpoints",
    description:
      'Newest first. Cursor-paginated: follow links.next / links.previous.',
    type: WebhookEndpointListDto,
    noun: RESOURCE.webhookEndpoint.noun,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListWebhookEndpointsQueryDto,
  ): Promise<Page> {
    return this.endpoints.list(caller.boxOfficeId, query);
  }

  @Post()
  @RequiresScope('write')
  @ApiWebhookWrite({
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'The endpoint is sent the events of changes made after it is created, signed with its secret, which this answer alone shows. The URL must be https:// and its host resolve to public addresses only (checked now and at every delivery). Needs a key of scope write.',
    body: CreateWebhookEndpointDto,
    onEndpoint: false,
    answer: ApiCreatedResponse({
      type: CreatedWebhookEndpointDto,
      description: 'The endpoint, created, with its signing secret',
      headers: {
        ...WRITE_CACHE_CONTROL,
        Location: {
          description: "The endpoint's own path",
          required: true,
          schema: {
            type: 'string',
            pattern: `^${itemPathOf(RESOURCE.webhookEndpoint, '[1-9][0-9]*')}$`,
            maxLength: 64,
          },
        },
      },
    }),
  })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateWebhookEndpointDto,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const created = await this.endpoints.create(caller.boxOfficeId, body);
    res
      .status(201)
      .setHeader(
        'Location',
        `${pathOf(RESOURCE.webhookEndpoint)}/${created.id}`,
      )
      .setHeader('Cache-Control', CACHE_CONTROL.write);
    return Buffer.from(created.json);
  }

  @Get(`:${ENDPOINT_PARAM}`)
  @ApiRetrieve({
    operationId: 'retrieveWebhookEndpoint',
    summary: 'Retrieve one webhook endpoint',
    description: 'Its secret is never shown again.',
    type: WebhookEndpointDto,
    noun: RESOURCE.webhookEndpoint.noun,
    param: ENDPOINT_PARAM,
    prefix: RESOURCE.webhookEndpoint.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.endpoints.retrieve(caller.boxOfficeId, id);
  }

  @Post(`:${ENDPOINT_PARAM}`)
  @HttpCode(200)
  @RequiresScope('write')
  @ApiWebhookWrite({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Changes the fields sent: url, enabled_events, description, status. Enabling a disabled endpoint resumes delivery with the event it stopped at. Needs a key of scope write.',
    body: UpdateWebhookEndpointDto,
    answer: ApiOkResponse({
      type: WebhookEndpointDto,
      description: 'The endpoint, changed',
      headers: WRITE_CACHE_CONTROL,
    }),
  })
  async update(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Body() body: UpdateWebhookEndpointDto,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.update(caller.boxOfficeId, id, body);
    res.setHeader('Cache-Control', CACHE_CONTROL.write);
    return answer;
  }

  @Delete(`:${ENDPOINT_PARAM}`)
  @RequiresScope('write')
  @ApiWebhookWrite({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description:
      'Nothing more is sent to it; its deliveries are deleted with it. Needs a key of scope write.',
    answer: ApiOkResponse({
      type: WebhookEndpointDto,
      description: 'The endpoint, as it was',
      headers: WRITE_CACHE_CONTROL,
    }),
  })
  async remove(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.remove(caller.boxOfficeId, id);
    res.setHeader('Cache-Control', CACHE_CONTROL.write);
    return answer;
  }

  @Get(`:${ENDPOINT_PARAM}/deliveries`)
  @ApiList({
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook endpoint's delivery attempts",
    description:
      'Every attempt, newest first, kept 30 days. Cursor-paginated: follow links.next / links.previous.',
    type: WebhookDeliveryListDto,
    noun: RESOURCE.webhookDelivery.noun,
    plural: 'webhook deliveries',
    parent: {
      param: ENDPOINT_PARAM,
      prefix: RESOURCE.webhookEndpoint.prefix,
      noun: RESOURCE.webhookEndpoint.noun,
    },
  })
  deliveries(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Query() query: ListWebhookDeliveriesQueryDto,
  ): Promise<Page> {
    return this.endpoints.deliveriesOf(caller.boxOfficeId, id, query);
  }

  @Post(`:${ENDPOINT_PARAM}/replay`)
  @HttpCode(202)
  @RequiresScope('write')
  @ApiWebhookWrite({
    operationId: 'replayWebhooks',
    summary: 'Send events again',
    description: `Every event after starting_after that the change feed still holds is sent again, in order, with its ${RESOURCE.webhookEvent.prefix} id. Needs a key of scope write.`,
    body: ReplayWebhooksDto,
    answer: ApiAcceptedResponse({
      type: WebhookEndpointDto,
      description: 'The endpoint; the events are being sent',
      headers: WRITE_CACHE_CONTROL,
    }),
  })
  async replay(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Body() body: ReplayWebhooksDto,
    @Query() _query: NoQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.replay(caller.boxOfficeId, id, body);
    res.setHeader('Cache-Control', CACHE_CONTROL.write);
    return answer;
  }
}
