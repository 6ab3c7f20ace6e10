import { ApiProperty } from '@nestjs/swagger';

export class PingDto {
  @ApiProperty({
    description: "The service's release version",
    example: '1.0.0',
  })
  version: string;
}
