import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/pagination/page';
import {
  type ParentResource,
  parentScope,
} from '../common/resources/parent-scope';
import {
  ResourceReader,
  pageRequest,
} from '../common/resources/resource-reader';
import { ListWaitlistSignupsQueryDto } from './dto/list-waitlist-signups-query.dto';
import { WAITLIST_SIGNUP_SOURCE } from './waitlist-signup.fields';
import { RESOURCE } from '../common/resources/resource-identities';

/** The series whose signups are listed under its path. */
const SERIES: ParentResource = {
  table: 'event_series',
  prefix: RESOURCE.eventSeries.prefix,
  noun: RESOURCE.eventSeries.noun,
  column: 'ws.event_series_id',
};

/** Reads the waitlist signups of a box office's series (docs/API.md, "Waitlist signups"). */
@Injectable()
export class WaitlistSignupsService {
  readonly reader: ResourceReader;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.reader = new ResourceReader(dataSource, WAITLIST_SIGNUP_SOURCE);
  }

  /** A page of a series' signups; 404 for an unknown series, INVALID_CURSOR for another's. */
  async list(
    boxOfficeId: number,
    seriesId: string,
    query: ListWaitlistSignupsQueryDto,
  ): Promise<Page> {
    const scope = await parentScope(this.reader, boxOfficeId, seriesId, SERIES);
    return this.reader.page(boxOfficeId, pageRequest(query, [], { scope }));
  }

  /** One signup of a series; 404 unless the series is the box office's and the signup its. */
  async retrieve(
    boxOfficeId: number,
    seriesId: string,
    signupId: string,
  ): Promise<Buffer> {
    const scope = await parentScope(this.reader, boxOfficeId, seriesId, SERIES);
    return this.reader.one(boxOfficeId, signupId, scope);
  }
}
