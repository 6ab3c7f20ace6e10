import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

export class LinksDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The next page (`?starting_after=<last id>&<the other parameters>`), or null when none follows',
    example: '/v1/orders?starting_after=or_120&limit=100',
  })
  next: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The previous page (`?ending_before=<first id>&<the other parameters>`), or null when none comes before',
    example: null,
  })
  previous: string | null;
}

/** The schema of a list response, `{data: [item…], links}`, named after the item (`OrderListDto`). */
export function PageDto<T>(
  item: Type<T>,
): Type<{ data: T[]; links: LinksDto }> {
  class PageDto {
    @ApiProperty({ type: [item] })
    data: T[];

    @ApiProperty({ type: LinksDto })
    links: LinksDto;
  }
  Object.defineProperty(PageDto, 'name', {
    value: item.name.replace(/Dto$/, 'ListDto'),
  });
  return PageDto;
}
