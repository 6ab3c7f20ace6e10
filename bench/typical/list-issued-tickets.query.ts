import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';

/** The issued tickets list query DTO, validated and converted by the global ValidationPipe. */
export class ListIssuedTicketsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;

  @IsOptional() @IsString() starting_after?: string;
  @IsOptional() @IsString() ending_before?: string;

  @IsOptional() @Matches(/^ev_\d+(,ev_\d+)*$/) event_id?: string;
  @IsOptional() @IsIn(['valid', 'void']) status?: string;
}
