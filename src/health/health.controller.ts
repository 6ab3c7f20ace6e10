import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { PingDto } from './dto/ping.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller({ path: 'ping', version: '1' })
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    operationId: 'ping',
    summary: 'Liveness check',
    description:
      'Answers without an API key (for load balancers), and then never touches the database. A key that is sent must be valid (else 401), so integrations can use it to test their key. The query string is ignored.',
  })
  @ApiOkResponse({ type: PingDto, description: 'The service is up' })
  ping(): PingDto {
    return this.health.ping();
  }
}
