import { Text } from '../../common/openapi/api-properties';

export class PingDto {
  @Text(64, {
    pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?$',
    description: "The service's release version (package.json)",
    example: '1.0.0',
  })
  version: string;
}
