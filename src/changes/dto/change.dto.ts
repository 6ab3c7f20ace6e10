import { ApiProperty } from '@nestjs/swagger';
import {
  Integer,
  Literal,
  OneOf,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { CHANGE_TYPES } from '../change-feed';

/** `or_123`, `it_5`, …: the id of the resource an entry is about. */
const RESOURCE_ID = '^(or|it|ev|es|ci)_[1-9][0-9]*$';

export class ChangeDto {
  @Literal('change')
  object: string;

  @ApiProperty({
    type: String,
    pattern: '^chg_[1-9][0-9]*$',
    maxLength: 24,
    example: 'chg_1',
    description: "The entry's number in this box office's feed",
  })
  id: string;

  @OneOf(CHANGE_TYPES, { description: 'What happened to the resource' })
  type: string;

  @ApiProperty({
    type: String,
    pattern: RESOURCE_ID,
    maxLength: 13,
    example: 'or_1',
  })
  resource_id: string;

  @ApiProperty({
    type: String,
    pattern:
      '^/v1/(orders|issued_tickets|events|event_series|check_ins)/(or|it|ev|es|ci)_[1-9][0-9]*$',
    maxLength: 40,
    example: '/v1/orders/or_1',
    description:
      'Where the resource is read now (relative); 404 there means it was deleted',
  })
  resource_url: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds: the change’s stamp' })
  created_at: number;
}

export class ChangeListDto extends PageDto(ChangeDto, {
  path: '/v1/changes',
  prefix: 'chg_',
  cursorNumber: '(0|[1-9][0-9]*)',
}) {}
