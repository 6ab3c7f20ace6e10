import { Controller, Get } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ErrorBodyDto } from '../common/errors/error-body.dto';
import { PingDto } from './dto/ping.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller({ path: 'ping', version: '1' })
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Liveness check',
    description:
      'Answers without an API key (for load balancers). A key that is sent must be valid, so integrations can use it to test their key.',
  })
  @ApiOkResponse({ type: PingDto })
  @ApiUnauthorizedResponse({
    type: ErrorBodyDto,
    description: 'A key was sent and is not valid',
  })
  @ApiTooManyRequestsResponse({
    type: ErrorBodyDto,
    description: 'TOO_MANY_REQUESTS: over the rate limit; see Retry-After',
  })
  ping(): PingDto {
    return this.health.ping();
  }
}
