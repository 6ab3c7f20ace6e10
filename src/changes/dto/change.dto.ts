import { ApiProperty } from '@nestjs/swagger';
import {
  Integer,
  Literal,
  OneOf,
  UNIX_SECONDS,
} from '../../common/openapi/api-properties';
import { PageDto } from '../../common/pagination/page.dto';
import { CHANGE_TYPES, FED_RESOURCES } from '../change-feed';
import {
  RESOURCE,
  exampleId,
  pathOf,
  itemPathOf,
} from '../../common/resources/resource-identities';

/** `(orders|issued_tickets|…)`: one of the fed resources' values. */
const anyOf = (values: readonly string[]) => `(${values.join('|')})`;
/** `or_123`, `it_5`, …: the id of the resource an entry is about. */
const RESOURCE_ID_PART = `${anyOf(FED_RESOURCES.map((r) => r.prefix.slice(0, -1)))}_[1-9][0-9]*$`;

export class ChangeDto {
  @Literal(RESOURCE.change.object)
  object: string;

  @ApiProperty({
    type: String,
    pattern: `^${RESOURCE.change.prefix}[1-9][0-9]*$`,
    maxLength: 24,
    example: exampleId(RESOURCE.change),
    description: "The entry's number in this box office's feed",
  })
  id: string;

  @OneOf(CHANGE_TYPES, { description: 'What happened to the resource' })
  type: string;

  @ApiProperty({
    type: String,
    pattern: `^${RESOURCE_ID_PART}`,
    maxLength: 13,
    example: exampleId(RESOURCE.order),
  })
  resource_id: string;

  @ApiProperty({
    type: String,
    pattern: `^/v1/${anyOf(FED_RESOURCES.map((r) => r.segment))}/${RESOURCE_ID_PART}`,
    maxLength: 40,
    example: itemPathOf(RESOURCE.order, 1),
    description:
      'Where the resource is read now (relative); 404 there means it was deleted',
  })
  resource_url: string;

  @Integer(UNIX_SECONDS, { description: 'Unix seconds: the change’s stamp' })
  created_at: number;
}

export class ChangeListDto extends PageDto(ChangeDto, {
  path: pathOf(RESOURCE.change),
  prefix: RESOURCE.change.prefix,
  cursorNumber: '(0|[1-9][0-9]*)',
}) {}
