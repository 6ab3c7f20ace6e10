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

/** The events list query DTO, validated and converted by the global ValidationPipe. */
export class ListEventsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;

  @IsOptional() @IsString() starting_after?: string;
  @IsOptional() @IsString() ending_before?: string;

  @IsOptional()
  @IsIn(['draft', 'published', 'sales_closed', 'cancelled'])
  status?: string;

  @IsOptional() @Matches(/^es_\d+$/) event_series_id?: string;
}
