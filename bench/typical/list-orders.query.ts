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

/** The query DTO, validated and converted by the global ValidationPipe. */
export class ListOrdersQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;

  @IsOptional() @IsString() starting_after?: string;
  @IsOptional() @IsString() ending_before?: string;

  @IsOptional() @Type(() => Number) @IsInt() created_at?: number;
  @IsOptional() @Type(() => Number) @IsInt() 'created_at.gt'?: number;
  @IsOptional() @Type(() => Number) @IsInt() 'created_at.gte'?: number;
  @IsOptional() @Type(() => Number) @IsInt() 'created_at.lt'?: number;
  @IsOptional() @Type(() => Number) @IsInt() 'created_at.lte'?: number;

  @IsOptional() @Matches(/^ev_\d+(,ev_\d+)*$/) event_id?: string;
  @IsOptional() @IsIn(['completed', 'pending', 'cancelled']) status?: string;
  @IsOptional() @IsString() email?: string;
  @IsOptional() @IsString() txn_id?: string;
}
