import {
  ApiPropertyOptional,
  IntersectionType,
  PickType,
} from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import {
  CursorQueryDto,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { NotRepeated } from '../../common/validation/strict-query';
import {
  CHANGE_POSITION_PATTERN,
  CHANGE_RESOURCES,
  CHANGE_TYPES,
  changeId,
} from '../change-feed';
import { RESOURCE, idOf } from '../../common/resources/resource-identities';

/** A type (`ORDER.UPDATED`) or a family (`ORDER.*`). */
const ONE_TYPE = `(${[
  ...CHANGE_TYPES.map((type) => type.replace('.', '\\.')),
  ...Object.keys(CHANGE_RESOURCES).map((family) => `${family}\\.\\*`),
].join('|')})`;
const TYPES = `^${ONE_TYPE}(,${ONE_TYPE}){0,${CHANGE_TYPES.length - 1}}$`;
const TYPE_MESSAGE = `type must be a change type (${CHANGE_TYPES.join(', ')}) or a family (ORDER.*, …), or a comma list of up to ${CHANGE_TYPES.length}`;

const RESOURCE_PREFIXES = Object.values(CHANGE_RESOURCES)
  .map((resource) => resource.prefix.slice(0, -1))
  .join('|');
const RESOURCE_ID = `^(${RESOURCE_PREFIXES})_[1-9]\\d{0,9}$`;
const RESOURCE_ID_MESSAGE = `resource_id must be a resource id (${Object.values(
  CHANGE_RESOURCES,
)
  .map((resource) => idOf(resource, '<number>'))
  .join(', ')})`;

/**
 * `GET /v1/changes` query (docs/API.md, "Change feed"): the feed is read forward only, so it has
 * `starting_after` and no `ending_before`.
 */
export class ListChangesQueryDto extends IntersectionType(
  PickType(CursorQueryDto(RESOURCE.change.noun, RESOURCE.change.prefix), [
    'limit',
  ] as const),
  RangeQueryDto('created_at', 'changes'),
) {
  // Checked by the service, which alone knows the feed's head (a bad one is INVALID_CURSOR).
  @ApiPropertyOptional({
    type: String,
    pattern: CHANGE_POSITION_PATTERN,
    maxLength: 24,
    description: `The position to read after: a change id as links.next and X-Change-Head give it (\`${changeId(0)}\`: the start)`,
  })
  @IsOptional()
  starting_after?: unknown;

  @ApiPropertyOptional({
    type: String,
    pattern: TYPES,
    maxLength: 400,
    description:
      'Only these types: a type, a family (`ORDER.*`), or a comma list of them',
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: TYPE_MESSAGE })
  @Matches(new RegExp(TYPES), { message: TYPE_MESSAGE })
  type?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: RESOURCE_ID,
    maxLength: 13,
    description: `Only the entries about this resource (\`${idOf(RESOURCE.order, 123)}\`, \`${idOf(RESOURCE.issuedTicket, 5)}\`, …)`,
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: RESOURCE_ID_MESSAGE })
  @Matches(new RegExp(RESOURCE_ID), { message: RESOURCE_ID_MESSAGE })
  resource_id?: string;
}
