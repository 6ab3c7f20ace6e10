import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, ValidateIf } from 'class-validator';
import { KEY_SHAPE } from '../idempotency/idempotency-keys';
import { NotRepeated } from '../validation/strict-query';

/**
 * What every write's body may carry (docs/API.md, "Retries: Idempotency-Key"): Ticket Tailor's
 * `local_unique_id`, the write's retry key when no Idempotency-Key header is sent. A write's DTO
 * extends it; the key is not part of what the write asks for.
 */
export class WriteBodyDto {
  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 255,
    pattern: KEY_SHAPE.source,
    description:
      'Ticket Tailor’s retry key: the Idempotency-Key when that header is absent (both given must be equal)',
  })
  @ValidateIf((_body: unknown, value: unknown) => value !== undefined)
  @NotRepeated()
  @IsString({ message: 'local_unique_id must be a string' })
  @Matches(KEY_SHAPE, {
    message: 'local_unique_id must be 1 to 255 printable ASCII characters',
  })
  local_unique_id?: string;
}
