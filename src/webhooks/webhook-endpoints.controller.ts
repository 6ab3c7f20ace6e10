import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { RequiresScope } from '../auth/requires-scope.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
  ApiWrite,
} from '../common/openapi/api-operations';
import { CursorQueryDto } from '../common/pagination/list-query.dto';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { retryKeysOf, sendWriteAnswer } from '../common/writes/writes';
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
import { RESOURCE } from '../common/resources/resource-identities';

class ListWebhookEndpointsQueryDto extends CursorQueryDto(
  RESOURCE.webhookEndpoint.noun,
  RESOURCE.webhookEndpoint.prefix,
) {}

class ListWebhookDeliveriesQueryDto extends CursorQueryDto(
  RESOURCE.webhookDelivery.noun,
  RESOURCE.webhookDelivery.prefix,
) {}

const ENDPOINT_PARAM = 'webhook_endpoint_id';

const ENDPOINT = {
  name: ENDPOINT_PARAM,
  prefix: RESOURCE.webhookEndpoint.prefix,
};

const NOT_FOUND =
  'NOT_FOUND: no such webhook endpoint in this box office, or a malformed id';

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
  @ApiWrite({
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'The endpoint is sent the events of changes made after it is created, signed with its secret, which this answer alone shows (and its replay to a retry with the same Idempotency-Key). The URL must be https:// and its host resolve to public addresses only (checked now and at every delivery); a URL refused is a 400 listing `url`. Needs a key of scope write. Send an Idempotency-Key (or local_unique_id) to retry safely.',
    type: CreatedWebhookEndpointDto,
    noun: RESOURCE.webhookEndpoint.noun,
    created: RESOURCE.webhookEndpoint,
    body: CreateWebhookEndpointDto,
    scope: 'write',
  })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateWebhookEndpointDto,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.create(
      caller,
      body,
      retryKeysOf(req, body),
    );
    return sendWriteAnswer(res, answer);
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
  @RequiresScope('write')
  @ApiWrite({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description:
      'Changes the fields sent: url, enabled_events, description, status. Enabling a disabled endpoint resumes delivery with the event it stopped at. Needs a key of scope write. Send an Idempotency-Key (or local_unique_id) to retry safely.',
    type: WebhookEndpointDto,
    noun: RESOURCE.webhookEndpoint.noun,
    changed: true,
    param: ENDPOINT,
    body: UpdateWebhookEndpointDto,
    scope: 'write',
    notFound: NOT_FOUND,
  })
  async update(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Body() body: UpdateWebhookEndpointDto,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.update(
      caller,
      id,
      body,
      retryKeysOf(req, body),
    );
    return sendWriteAnswer(res, answer);
  }

  @Delete(`:${ENDPOINT_PARAM}`)
  @RequiresScope('write')
  @ApiWrite({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description:
      'Nothing more is sent to it; its deliveries are deleted with it. The answer is the endpoint as it was. Needs a key of scope write. Send an Idempotency-Key to retry safely (a retry without one finds nothing: 404).',
    type: WebhookEndpointDto,
    noun: RESOURCE.webhookEndpoint.noun,
    changed: true,
    param: ENDPOINT,
    scope: 'write',
    notFound: NOT_FOUND,
  })
  async remove(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.remove(caller, id, retryKeysOf(req));
    return sendWriteAnswer(res, answer);
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
  @RequiresScope('write')
  @ApiWrite({
    operationId: 'replayWebhooks',
    summary: 'Send events again',
    description: `Every event after starting_after that the change feed still holds is sent again, in order, with its ${RESOURCE.webhookEvent.prefix} id. Needs a key of scope write. Send an Idempotency-Key (or local_unique_id) to retry safely.`,
    type: WebhookEndpointDto,
    noun: RESOURCE.webhookEndpoint.noun,
    accepted: 'The endpoint; the events are being sent',
    param: ENDPOINT,
    body: ReplayWebhooksDto,
    scope: 'write',
    notFound: NOT_FOUND,
  })
  async replay(
    @CurrentCaller() caller: Caller,
    @Param(ENDPOINT_PARAM) id: string,
    @Body() body: ReplayWebhooksDto,
    @Query() _query: NoQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Buffer> {
    const answer = await this.endpoints.replay(
      caller,
      id,
      body,
      retryKeysOf(req, body),
    );
    return sendWriteAnswer(res, answer);
  }
}
