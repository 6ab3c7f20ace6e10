import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  Equal,
  FindOptionsWhere,
  LessThan,
  MoreThan,
  Repository,
} from 'typeorm';
import { CheckIn } from '../../src/check-ins/entities/check-in.entity';

export interface CheckInsPage {
  checkIns: CheckIn[];
  hasNext: boolean;
  hasPrevious: boolean;
}

type Where = FindOptionsWhere<CheckIn>;

const olderThan = (where: Where, c: CheckIn): Where[] => [
  { ...where, createdAt: LessThan(c.createdAt) },
  { ...where, createdAt: Equal(c.createdAt), id: LessThan(c.id) },
];
const newerThan = (where: Where, c: CheckIn): Where[] => [
  { ...where, createdAt: MoreThan(c.createdAt) },
  { ...where, createdAt: Equal(c.createdAt), id: MoreThan(c.id) },
];

/** Check-ins, newest first, paged as TypicalIssuedTicketsService pages tickets. */
@Injectable()
export class TypicalCheckInsService {
  constructor(
    @InjectRepository(CheckIn) private readonly checkIns: Repository<CheckIn>,
  ) {}

  async list(
    boxOfficeId: number,
    query: { limit?: number; starting_after?: string; ending_before?: string },
  ): Promise<CheckInsPage> {
    const limit = query.limit ?? 100;
    const where: Where = { boxOfficeId };
    const backwards = query.ending_before !== undefined;
    const cursorValue = backwards ? query.ending_before : query.starting_after;
    let cursor: CheckIn | null = null;
    if (cursorValue !== undefined) {
      const match = /^ci_(\d+)$/.exec(cursorValue);
      cursor = match
        ? await this.checkIns.findOneBy({ id: Number(match[1]), boxOfficeId })
        : null;
      if (!cursor) {
        throw new BadRequestException({
          status: 400,
          error_code: 'INVALID_CURSOR',
          message: `${backwards ? 'ending_before' : 'starting_after'} must be the id of a check-in of this box office (ci_<number>)`,
        });
      }
    }
    const rows = await this.checkIns.find({
      where: cursor
        ? backwards
          ? newerThan(where, cursor)
          : olderThan(where, cursor)
        : where,
      order: backwards
        ? { createdAt: 'ASC', id: 'ASC' }
        : { createdAt: 'DESC', id: 'DESC' },
      take: limit + 1,
    });
    const more = rows.length > limit;
    const checkIns = rows.slice(0, limit);
    if (backwards) checkIns.reverse();
    if (checkIns.length === 0)
      return { checkIns, hasNext: false, hasPrevious: false };
    const other =
      cursor !== null &&
      (await this.checkIns.exists({
        where: backwards
          ? olderThan(where, checkIns[checkIns.length - 1])
          : newerThan(where, checkIns[0]),
      }));
    return {
      checkIns,
      hasNext: backwards ? other : more,
      hasPrevious: backwards ? more : other,
    };
  }
}
