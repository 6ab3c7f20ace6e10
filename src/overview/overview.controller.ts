import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { ErrorBodyDto } from '../common/errors/error-body.dto';
import { ApiResource } from '../common/openapi/api-operations';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { OverviewDto } from './dto/overview.dto';
import { OverviewService } from './overview.service';

@ApiResource('overview')
@Controller({ path: 'overview', version: '1' })
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @ApiOperation({
    operationId: 'getOverview',
    summary: "The box office's numbers of the last four weeks",
    description:
      'Revenue, orders and tickets of the 28 days before the request, and the series and events published or in draft now; each number is what the lists give for the same filters. Integrations call it to test a key.',
  })
  @ApiOkResponse({ type: OverviewDto, description: 'The overview' })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'VALIDATION_ERROR: this path takes no query parameters',
  })
  get(
    @CurrentCaller() caller: Caller,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.overview.overview(caller.boxOfficeId);
  }
}
